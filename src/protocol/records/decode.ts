import type { RecordBatchHeader } from "./batch-header.js";
import { batchFailure, type BatchError, type BatchResult } from "./batch-error.js";
import { parseBatch, type BatchReadLimits } from "./parse-batch.js";
import { forEachRecord, openBatch } from "./record-stream.js";
import type { RawRecord, RecordHeader } from "./record.js";

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
  const records: DecodedRecord[] = [];
  for (let index = 0; index < parsed.records.length; index++) {
    const raw = parsed.records[index];
    if (raw === undefined) break;
    const record = decodedRecordOf(header, raw, index);
    if ("kind" in record) return batchFailure(record);
    records.push(record);
  }
  return { ok: true, header, records };
}

/**
 * Reads the records of one batch v2 as decodeRecords does, but one at a time as the codec
 * stream yields them, with no bound on the whole: memory holds one record. Each record's byte
 * fields are views valid only during `visit`.
 */
export function forEachDecodedRecord(
  bytes: Uint8Array,
  visit: (record: DecodedRecord, index: number) => void,
): BatchResult<{ readonly header: RecordBatchHeader }> {
  const opened = openBatch(bytes);
  if (!opened.ok) return opened;
  const { header } = opened;
  const streamed = forEachRecord(opened, (raw, index) => {
    const record = decodedRecordOf(header, raw, index);
    if ("kind" in record) return record;
    visit(record, index);
    return undefined;
  });
  return streamed.ok ? { ok: true, header } : streamed;
}

/** A raw record with its absolute offset and timestamp, which must be safe integers. */
function decodedRecordOf(
  header: RecordBatchHeader,
  raw: RawRecord,
  index: number,
): DecodedRecord | BatchError {
  const offset = header.baseOffset + raw.offsetDelta;
  const timestamp =
    header.timestampType === "logAppendTime"
      ? header.maxTimestamp
      : header.baseTimestamp + raw.timestampDelta;
  if (!Number.isSafeInteger(timestamp)) return { kind: "timestampOutOfRange", recordIndex: index };
  if (!Number.isSafeInteger(offset)) {
    const detail = "the record's offset is beyond 2^53";
    return { kind: "offsetDeltaInvalid", recordIndex: index, offsetDelta: raw.offsetDelta, detail };
  }
  return { offset, timestamp, key: raw.key, value: raw.value, headers: raw.headers };
}
