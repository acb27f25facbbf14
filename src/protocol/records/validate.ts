import { NO_PRODUCER_ID, NO_TIMESTAMP, type RecordBatchHeader } from "./batch-header.js";
import { batchFailure, type BatchError, type BatchResult } from "./batch-error.js";
import { parseBatch, type BatchReadLimits } from "./parse-batch.js";
import type { RawRecord } from "./record.js";

/**
 * Who is appending the batch, as Kafka's AppendOrigin. A client's batch must follow Kafka's
 * produce rules; a coordinator writes control batches under the same offset rules; a replica
 * copies the leader's batches, which after compaction may have gaps in their offsets.
 */
export type AppendOrigin = "client" | "coordinator" | "replication";

/** Options for validateBatch; pass them explicitly, since they decide what is accepted. */
export interface ValidateOptions extends BatchReadLimits {
  readonly origin: AppendOrigin;
}

/** What validation learnt about a batch it accepted. */
export interface ValidatedBatch {
  readonly header: RecordBatchHeader;
  readonly recordCount: number;
  /** The largest record timestamp (CreateTime), or the header's maxTimestamp (LogAppendTime). */
  readonly maxTimestamp: number;
  /** The offsetDelta of the first record holding maxTimestamp; -1 if no record has one. */
  readonly offsetDeltaOfMaxTimestamp: number;
  /**
   * Whether the header's maxTimestamp equals the records' maximum. Kafka does not refuse a
   * mismatch from a producer: it rewrites the field (setMaxTimestamp), and so should the
   * appender, with header.stampMaxTimestamp.
   */
  readonly isMaxTimestampConsistent: boolean;
  /** The records section's size after decompression. */
  readonly recordsBytes: number;
}

/**
 * Validates `bytes` as exactly one record batch v2, as a Kafka leader does on append: framing,
 * CRC-32C, codec stream (bounded by maxDecompressedBytes), every record's structure, the
 * records count against lastOffsetDelta and the offset deltas, record timestamps, and for a
 * client Kafka's produce rules (no control batches, a sequence for an idempotent producer).
 */
export function validateBatch(
  bytes: Uint8Array,
  options: ValidateOptions,
): BatchResult<ValidatedBatch> {
  const parsed = parseBatch(bytes, options);
  if (!parsed.ok) return parsed;
  const { header, records } = parsed;
  const batchError = checkBatchRules(header, options.origin);
  if (batchError !== undefined) return batchFailure(batchError);
  const offsetError =
    options.origin === "replication"
      ? checkIncreasingOffsets(records, header)
      : checkContiguousOffsets(records, header);
  if (offsetError !== undefined) return batchFailure(offsetError);
  const timestamps = scanTimestamps(records, header);
  if ("kind" in timestamps) return batchFailure(timestamps);
  return {
    ok: true,
    header,
    recordCount: records.length,
    maxTimestamp: timestamps.maxTimestamp,
    offsetDeltaOfMaxTimestamp: timestamps.offsetDeltaOfMaxTimestamp,
    isMaxTimestampConsistent: timestamps.maxTimestamp === header.maxTimestamp,
    recordsBytes: parsed.recordsBytes,
  };
}

/** Kafka's LogValidator.validateBatch rules that depend on the origin. */
function checkBatchRules(header: RecordBatchHeader, origin: AppendOrigin): BatchError | undefined {
  if (origin !== "client") return undefined;
  if (header.isControl) return { kind: "controlBatchFromClient" };
  if (header.producerId > NO_PRODUCER_ID && header.baseSequence < 0) {
    return {
      kind: "invalidSequence",
      producerId: header.producerId,
      baseSequence: header.baseSequence,
    };
  }
  return undefined;
}

/**
 * A leader-assigned batch: records count equal to lastOffsetDelta + 1 and at least one, and
 * offset deltas 0, 1, ... in order, as Kafka checks on produce. Kafka rewrites a compressed
 * batch whose inner offsets are wrong instead of refusing it; Sluice never re-encodes a batch
 * (DESIGN: bytes stay bytes), and no v2 producer writes such offsets, so it refuses.
 */
function checkContiguousOffsets(
  records: readonly RawRecord[],
  header: RecordBatchHeader,
): BatchError | undefined {
  const { recordCount, lastOffsetDelta } = header;
  if (recordCount <= 0 || lastOffsetDelta + 1 !== recordCount) {
    const detail = "records count must be lastOffsetDelta + 1 and positive";
    return { kind: "recordCountMismatch", recordCount, lastOffsetDelta, detail };
  }
  for (let index = 0; index < records.length; index++) {
    const offsetDelta = (records[index] as RawRecord).offsetDelta;
    if (offsetDelta !== index) {
      const detail = `expected offsetDelta ${index}`;
      return { kind: "offsetDeltaInvalid", recordIndex: index, offsetDelta, detail };
    }
  }
  return undefined;
}

/** A replicated batch: deltas strictly increase within [0, lastOffsetDelta]; gaps are allowed. */
function checkIncreasingOffsets(
  records: readonly RawRecord[],
  header: RecordBatchHeader,
): BatchError | undefined {
  const { recordCount, lastOffsetDelta } = header;
  if (lastOffsetDelta < -1 || recordCount > lastOffsetDelta + 1) {
    const detail = "more records than the offset range holds";
    return { kind: "recordCountMismatch", recordCount, lastOffsetDelta, detail };
  }
  let previous = -1;
  for (let index = 0; index < records.length; index++) {
    const offsetDelta = (records[index] as RawRecord).offsetDelta;
    if (offsetDelta <= previous || offsetDelta > lastOffsetDelta) {
      const detail = `offsetDelta must pass ${previous} and not pass ${lastOffsetDelta}`;
      return { kind: "offsetDeltaInvalid", recordIndex: index, offsetDelta, detail };
    }
    previous = offsetDelta;
  }
  return undefined;
}

/** The records' largest timestamp and where it is; every timestamp must be a safe integer. */
function scanTimestamps(
  records: readonly RawRecord[],
  header: RecordBatchHeader,
): { maxTimestamp: number; offsetDeltaOfMaxTimestamp: number } | BatchError {
  const baseTimestamp = header.baseTimestamp;
  let maxTimestamp = NO_TIMESTAMP;
  let offsetDeltaOfMaxTimestamp = -1;
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as RawRecord;
    const timestamp = baseTimestamp + record.timestampDelta;
    if (!Number.isSafeInteger(timestamp)) {
      return { kind: "timestampOutOfRange", recordIndex: index };
    }
    // As Kafka: start from NO_TIMESTAMP and keep the first record holding the maximum.
    if (timestamp > maxTimestamp) {
      maxTimestamp = timestamp;
      offsetDeltaOfMaxTimestamp = record.offsetDelta;
    }
  }
  if (header.timestampType === "logAppendTime") {
    // The broker's append time replaces every record's timestamp; it is the last record's.
    const last = records[records.length - 1];
    const offsetDeltaOfLast = last?.offsetDelta ?? -1;
    return { maxTimestamp: header.maxTimestamp, offsetDeltaOfMaxTimestamp: offsetDeltaOfLast };
  }
  return { maxTimestamp, offsetDeltaOfMaxTimestamp };
}
