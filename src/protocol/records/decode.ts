import type { RecordBatchHeader } from "./batch-header.js";
import { batchFailure, type BatchResult } from "./batch-error.js";
import { parseBatch, type BatchReadLimits } from "./parse-batch.js";
import type { RecordHeader } from "./record.js";

/** A record with its absolute offset and timestamp. Byte fields are views, not copies. */
export interface DecodedRecord {
  readonly offset: number;
  readonly timestamp: number;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers: readonly RecordHeader[];
}

/** A decoded batch: its header view and its records in order. */
export interface DecodedBatch {
  readonly header: RecordBatchHeader;
  readonly records: readonly DecodedRecord[];
}

/**
 * Decodes one batch v2 into records, decompressing when needed (bounded by
 * maxDecompressedBytes). It checks the framing, CRC and record structure as validateBatch does,
 * but not the producer rules, so it reads compacted batches and control batches alike. In a
 * LogAppendTime batch every record's timestamp is the batch's maxTimestamp, as Kafka reports it.
 */
export function decodeRecords(
  bytes: Uint8Array,
  limits: BatchReadLimits,
): BatchResult<DecodedBatch> {
  const parsed = parseBatch(bytes, limits);
  if (!parsed.ok) return parsed;
  const { header } = parsed;
  const baseOffset = header.baseOffset;
  const baseTimestamp = header.baseTimestamp;
  const isLogAppendTime = header.timestampType === "logAppendTime";
  const records: DecodedRecord[] = [];
  for (let index = 0; index < parsed.records.length; index++) {
    const raw = parsed.records[index];
    if (raw === undefined) break;
    const offset = baseOffset + raw.offsetDelta;
    const timestamp = isLogAppendTime ? header.maxTimestamp : baseTimestamp + raw.timestampDelta;
    if (!Number.isSafeInteger(timestamp)) {
      return batchFailure({ kind: "timestampOutOfRange", recordIndex: index });
    }
    if (!Number.isSafeInteger(offset)) {
      const detail = "the record's offset is beyond 2^53";
      const offsetDelta = raw.offsetDelta;
      return batchFailure({ kind: "offsetDeltaInvalid", recordIndex: index, offsetDelta, detail });
    }
    records.push({ offset, timestamp, key: raw.key, value: raw.value, headers: raw.headers });
  }
  return { ok: true, header, records };
}
