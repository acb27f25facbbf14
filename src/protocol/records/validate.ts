import { NO_PRODUCER_ID, NO_TIMESTAMP, type RecordBatchHeader } from "./batch-header.js";
import { batchFailure, type BatchError, type BatchResult } from "./batch-error.js";
import { forEachRecord, openBatch } from "./record-stream.js";
import { walkRecords, type RecordDeltasCheck } from "./record-walk.js";

/**
 * Who is appending the batch, as Kafka's AppendOrigin. A client's batch must follow Kafka's
 * produce rules; a coordinator writes control batches under the same offset rules; a replica
 * copies the leader's batches, which after compaction may have gaps in their offsets.
 */
export type AppendOrigin = "client" | "coordinator" | "replication";

/** Options for validateBatch; pass them explicitly, since they decide what is accepted. */
export interface ValidateOptions {
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
 * CRC-32C, for a client Kafka's produce rules (no control batches, a sequence for an idempotent
 * producer), the records count against lastOffsetDelta, then record by record as the codec
 * stream yields them (so memory holds one record, whatever the batch inflates to) their
 * structure, offset deltas and timestamps.
 */
export function validateBatch(
  bytes: Uint8Array,
  options: ValidateOptions,
): BatchResult<ValidatedBatch> {
  const opened = openBatch(bytes);
  if (!opened.ok) return opened;
  const { header } = opened;
  const batchError = checkBatchRules(header, options.origin) ?? checkCount(header, options.origin);
  if (batchError !== undefined) return batchFailure(batchError);
  // An uncompressed section is walked without a record object; only a section the walk does
  // not accept is parsed record by record, which finds the exact refusal.
  let scan = new RecordScan(header, options.origin);
  let recordsBytes = opened.payload.length;
  if (opened.compression !== "none" || !walkRecords(opened.payload, header.recordCount, scan)) {
    scan = new RecordScan(header, options.origin);
    const streamed = forEachRecord(opened, (record, index) =>
      scan.check(record.offsetDelta, record.timestampDelta, index),
    );
    if (!streamed.ok) return streamed;
    recordsBytes = streamed.recordsBytes;
  }
  const { maxTimestamp, offsetDeltaOfMaxTimestamp } = scan.timestamps();
  return {
    ok: true,
    header,
    recordCount: header.recordCount,
    maxTimestamp,
    offsetDeltaOfMaxTimestamp,
    isMaxTimestampConsistent: maxTimestamp === header.maxTimestamp,
    recordsBytes,
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
 * A leader-assigned batch has records count equal to lastOffsetDelta + 1 and at least one, as
 * Kafka checks on produce; a replicated one may have gaps (compaction) but no more records than
 * its offset range holds.
 */
function checkCount(header: RecordBatchHeader, origin: AppendOrigin): BatchError | undefined {
  const { recordCount, lastOffsetDelta } = header;
  if (origin === "replication") {
    if (lastOffsetDelta >= -1 && recordCount <= lastOffsetDelta + 1) return undefined;
    const detail = "more records than the offset range holds";
    return { kind: "recordCountMismatch", recordCount, lastOffsetDelta, detail };
  }
  if (recordCount > 0 && lastOffsetDelta + 1 === recordCount) return undefined;
  const detail = "records count must be lastOffsetDelta + 1 and positive";
  return { kind: "recordCountMismatch", recordCount, lastOffsetDelta, detail };
}

/**
 * The per-record checks, one record at a time. Leader-assigned offset deltas are 0, 1, ... in
 * order: Kafka rewrites a compressed batch whose inner offsets are wrong instead of refusing
 * it; Sluice never re-encodes a batch (DESIGN: bytes stay bytes), and no v2 producer writes
 * such offsets, so it refuses. Replicated deltas strictly increase within [0, lastOffsetDelta].
 * Every timestamp must be a safe integer; the largest is kept with its offset delta.
 */
class RecordScan implements RecordDeltasCheck {
  private previousOffsetDelta = -1;
  private maxTimestamp = NO_TIMESTAMP;
  private offsetDeltaOfMaxTimestamp = -1;

  constructor(
    private readonly header: RecordBatchHeader,
    private readonly origin: AppendOrigin,
  ) {}

  accepts(offsetDelta: number, timestampDelta: number, index: number): boolean {
    return this.check(offsetDelta, timestampDelta, index) === undefined;
  }

  check(offsetDelta: number, timestampDelta: number, index: number): BatchError | undefined {
    const offsetError = this.offsetError(offsetDelta, index);
    if (offsetError !== undefined) return offsetError;
    this.previousOffsetDelta = offsetDelta;
    const timestamp = this.header.baseTimestamp + timestampDelta;
    if (!Number.isSafeInteger(timestamp))
      return { kind: "timestampOutOfRange", recordIndex: index };
    // As Kafka: start from NO_TIMESTAMP and keep the first record holding the maximum.
    if (timestamp > this.maxTimestamp) {
      this.maxTimestamp = timestamp;
      this.offsetDeltaOfMaxTimestamp = offsetDelta;
    }
    return undefined;
  }

  private offsetError(offsetDelta: number, index: number): BatchError | undefined {
    if (this.origin !== "replication") {
      if (offsetDelta === index) return undefined;
      const detail = `expected offsetDelta ${index}`;
      return { kind: "offsetDeltaInvalid", recordIndex: index, offsetDelta, detail };
    }
    const previous = this.previousOffsetDelta;
    const lastOffsetDelta = this.header.lastOffsetDelta;
    if (offsetDelta > previous && offsetDelta <= lastOffsetDelta) return undefined;
    const detail = `offsetDelta must pass ${previous} and not pass ${lastOffsetDelta}`;
    return { kind: "offsetDeltaInvalid", recordIndex: index, offsetDelta, detail };
  }

  /** In a LogAppendTime batch the broker's append time, the last record's, replaces them all. */
  timestamps(): { maxTimestamp: number; offsetDeltaOfMaxTimestamp: number } {
    if (this.header.timestampType === "logAppendTime") {
      const maxTimestamp = this.header.maxTimestamp;
      return { maxTimestamp, offsetDeltaOfMaxTimestamp: this.previousOffsetDelta };
    }
    return {
      maxTimestamp: this.maxTimestamp,
      offsetDeltaOfMaxTimestamp: this.offsetDeltaOfMaxTimestamp,
    };
  }
}
