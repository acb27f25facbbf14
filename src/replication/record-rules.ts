/**
 * Kafka's per-record produce rules (LogValidator.validateRecord): a compacted topic needs a key
 * on every record, and a CreateTime topic bounds each record's timestamp by
 * `message.timestamp.before.max.ms` and `after.max.ms` around the broker's clock. Every record is
 * checked and every failure reported with its index, as Produce v8+ `recordErrors` carry them.
 */
import { assert, ErrorCode } from "../common/index.js";
import {
  forEachDecodedRecord,
  NO_TIMESTAMP,
  type DecodedRecord,
  type RecordBatchHeader,
} from "../protocol/index.js";
import { NEVER, type MessageTimestampType } from "../storage/index.js";

/** The topic configs the record rules read, and the broker's clock. */
export interface RecordRules {
  readonly messageTimestampType: MessageTimestampType;
  readonly messageTimestampBeforeMaxMs: number;
  readonly messageTimestampAfterMaxMs: number;
  /** Whether `cleanup.policy` includes compact. */
  readonly isCompacted: boolean;
  readonly nowMs: number;
}

/** One refused record: Kafka's RecordError (batchIndex, message) with its error code. */
export interface RecordError {
  /** The record's index in its batch. */
  readonly batchIndex: number;
  readonly message: string;
  /** INVALID_RECORD or INVALID_TIMESTAMP. */
  readonly errorCode: number;
}

/**
 * Whether any record could break a rule, from the header alone: records are decoded (a second
 * decompression) only for compacted topics, a finite before-bound, a batch whose maximum passes
 * the after-bound (`maxTimestamp`, the records' real maximum), or a producer claiming
 * LogAppendTime.
 */
function needsRecordScan(
  header: RecordBatchHeader,
  rules: RecordRules,
  maxTimestamp: number,
): boolean {
  if (rules.isCompacted) return true;
  if (header.timestampType === "logAppendTime") return true;
  if (rules.messageTimestampType !== "CreateTime") return false;
  if (rules.messageTimestampBeforeMaxMs < NEVER) return true;
  return maxTimestamp - rules.nowMs > rules.messageTimestampAfterMaxMs;
}

/** The rule errors of the batch's records, in record order; empty when all pass. */
export function recordErrorsOf(
  header: RecordBatchHeader,
  rules: RecordRules,
  batch: { readonly maxTimestamp: number },
): RecordError[] {
  if (!needsRecordScan(header, rules, batch.maxTimestamp)) return [];
  const errors: RecordError[] = [];
  const decoded = forEachDecodedRecord(header.bytes, (record, batchIndex) => {
    const error = recordError(header, record, rules);
    if (error !== undefined) errors.push({ batchIndex, ...error });
  });
  // validateBatch accepted these very bytes.
  assert(decoded.ok, "a validated batch decodes");
  return errors;
}

function recordError(
  header: RecordBatchHeader,
  record: DecodedRecord,
  rules: RecordRules,
): Omit<RecordError, "batchIndex"> | undefined {
  if (rules.isCompacted && record.key === null) {
    return {
      errorCode: ErrorCode.INVALID_RECORD,
      message: "Compacted topic cannot accept message without key",
    };
  }
  if (rules.messageTimestampType === "CreateTime" && record.timestamp !== NO_TIMESTAMP) {
    return timestampError(record, rules);
  }
  if (header.timestampType === "logAppendTime") {
    return {
      errorCode: ErrorCode.INVALID_TIMESTAMP,
      message:
        "Invalid timestamp type in message. Producer should not set timestamp type to " +
        "LogAppendTime.",
    };
  }
  return undefined;
}

function timestampError(
  record: DecodedRecord,
  rules: RecordRules,
): Omit<RecordError, "batchIndex"> | undefined {
  const difference = rules.nowMs - record.timestamp;
  const isTooOld = difference > rules.messageTimestampBeforeMaxMs;
  const isTooNew = -difference > rules.messageTimestampAfterMaxMs;
  if (!isTooOld && !isTooNew) return undefined;
  const earliest = rules.nowMs - rules.messageTimestampBeforeMaxMs;
  const latest = rules.nowMs + rules.messageTimestampAfterMaxMs;
  return {
    errorCode: ErrorCode.INVALID_TIMESTAMP,
    message:
      `Timestamp ${record.timestamp} of message with offset ${record.offset} is out of range. ` +
      `The timestamp should be within [${earliest}, ${latest}]`,
  };
}
