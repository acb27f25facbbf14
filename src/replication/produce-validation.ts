/**
 * The leader's checks of a produce request's records for one partition (Kafka's
 * ProduceRequest.validateRecords, UnifiedLog.analyzeAndValidateRecords and LogValidator), pure:
 * exactly one v2 batch, its size against `max.message.bytes`, its framing, CRC and records
 * (`validateBatch` with the client's rules), then each record's key and timestamp. An accepted
 * CreateTime batch is fixed in place as Kafka fixes it: the maxTimestamp rewritten when the
 * producer's is wrong (the CRC recomputed). A LogAppendTime batch is left for the log, which
 * stamps it with its own clock under the config it holds when it appends.
 */
import { ErrorCode } from "../common/index.js";
import {
  completeBatches,
  describeBatchError,
  errorCodeOfBatchError,
  validateBatch,
  type RecordBatchHeader,
} from "../protocol/index.js";
import { isLogAppendError, isResourceExhaustion } from "../storage/index.js";
import type { AppendOutcome } from "./partition-results.js";
import { recordErrorsOf, type RecordError, type RecordRules } from "./record-rules.js";

/** The topic configs produce validation reads. */
export interface ProduceRules extends Omit<RecordRules, "nowMs"> {
  /** `max.message.bytes`: the largest batch accepted, log overhead included. */
  readonly maxMessageBytes: number;
}

/** The outcome of validating one partition's records. */
export type ProduceValidation =
  | {
      readonly ok: true;
      /** The one batch, its header fixed as described above. */
      readonly header: RecordBatchHeader;
      readonly recordCount: number;
    }
  | {
      readonly ok: false;
      readonly errorCode: number;
      readonly errorMessage: string;
      /** Per-record errors (Produce v8+ `recordErrors`), empty for batch-level refusals. */
      readonly recordErrors: readonly RecordError[];
    };

function refuse(errorCode: number, errorMessage: string): ProduceValidation {
  return { ok: false, errorCode, errorMessage, recordErrors: [] };
}

/**
 * Validates `records` (one partition's records field, whose bytes it may stamp in place) for an
 * append at `nowMs` under `rules`.
 */
export function validateProduceRecords(
  records: Uint8Array,
  rules: ProduceRules,
  at: number | { readonly nowMs: number; readonly origin?: "client" | "coordinator" },
): ProduceValidation {
  const { nowMs, origin = "client" } = typeof at === "number" ? { nowMs: at } : at;
  const framed = completeBatches(records, { maxBatchBytes: 0x7fffffff });
  if (!framed.ok) return refuse(errorCodeOfBatchError(framed.error), framingMessage(framed.error));
  const [header, ...others] = framed.batches;
  if (header === undefined || others.length > 0) {
    return refuse(
      ErrorCode.INVALID_RECORD,
      "Produce requests with version 3 and above must contain exactly one record batch " +
        "per partition",
    );
  }
  // Kafka checks the size before the CRC, so an oversized batch is MESSAGE_TOO_LARGE even
  // when it is also corrupt.
  if (header.sizeInBytes > rules.maxMessageBytes) {
    return refuse(
      ErrorCode.MESSAGE_TOO_LARGE,
      `The record batch size is ${header.sizeInBytes} bytes, which exceeds the maximum ` +
        `configured value of ${rules.maxMessageBytes}.`,
    );
  }
  if (header.baseOffset !== 0) {
    return refuse(
      ErrorCode.INVALID_RECORD,
      `The baseOffset of the record batch should be 0, but it is ${header.baseOffset}`,
    );
  }
  // Only the compressed size is bounded, as in Kafka; the records are read one at a time.
  const validated = validateBatch(header.bytes, { origin });
  if (!validated.ok) {
    return refuse(errorCodeOfBatchError(validated.error), describeBatchError(validated.error));
  }
  const recordErrors = recordErrorsOf(
    header,
    { ...rules, nowMs },
    { maxTimestamp: validated.maxTimestamp },
  );
  if (recordErrors.length > 0) return refuseRecords(recordErrors);
  fixMaxTimestamp(header, rules, {
    maxTimestamp: validated.maxTimestamp,
    isMaxTimestampConsistent: validated.isMaxTimestampConsistent,
  });
  return { ok: true, header, recordCount: validated.recordCount };
}

function framingMessage(error: Parameters<typeof describeBatchError>[0]): string {
  if (error.kind === "legacyMagic") {
    return (
      "Produce requests with version 3 and above are only allowed to contain record batches " +
      "with magic version 2"
    );
  }
  return describeBatchError(error);
}

/** Kafka's processRecordErrors: INVALID_TIMESTAMP if any record's timestamp is out of range. */
function refuseRecords(recordErrors: readonly RecordError[]): ProduceValidation {
  const isTimestamp = recordErrors.some((error) => error.errorCode === ErrorCode.INVALID_TIMESTAMP);
  if (isTimestamp) {
    return {
      ok: false,
      errorCode: ErrorCode.INVALID_TIMESTAMP,
      errorMessage: "One or more records have been rejected due to invalid timestamp",
      recordErrors,
    };
  }
  const shown = recordErrors.slice(0, 3).map((error) => error.message);
  return {
    ok: false,
    errorCode: ErrorCode.INVALID_RECORD,
    errorMessage:
      `One or more records have been rejected due to ${recordErrors.length} record errors in ` +
      `total, and only showing the first three errors at most: [${shown.join(", ")}]`,
    recordErrors,
  };
}

/**
 * Sets a CreateTime batch's timestamp fields as Kafka's LogValidator leaves them: type
 * CreateTime and the records' real maximum. A LogAppendTime topic's batch is left alone: the
 * log stamps the append time once, when it assigns the offsets.
 */
function fixMaxTimestamp(
  header: RecordBatchHeader,
  rules: ProduceRules,
  at: { readonly maxTimestamp: number; readonly isMaxTimestampConsistent: boolean },
): void {
  if (rules.messageTimestampType === "LogAppendTime") return;
  if (header.timestampType !== "createTime" || !at.isMaxTimestampConsistent) {
    header.stampMaxTimestamp("createTime", at.maxTimestamp);
  }
}

/**
 * The answer to an append the log refused by the producer rules (Kafka's
 * analyzeAndValidateProducerState), or undefined for any other error. A retry of a batch the log
 * holds is answered as appended, with the original batch's offsets and its timestamp as the
 * append time, as Kafka answers a DUPLICATE_SEQUENCE_NUMBER; the producer must not see an error.
 * A process out of file descriptors refuses this append only, with UNKNOWN_SERVER_ERROR as Kafka
 * answers a failure that is neither the request's nor the disk's, and a message saying so.
 */
export function producerOutcome(error: unknown, logStartOffset: number): AppendOutcome | undefined {
  if (isResourceExhaustion(error)) {
    const errorCode = ErrorCode.UNKNOWN_SERVER_ERROR;
    const errorMessage = DESCRIPTORS_EXHAUSTED_MESSAGE;
    return { kind: "error", errorCode, errorMessage, logStartOffset, recordErrors: [] };
  }
  if (!isLogAppendError(error)) return undefined;
  const { refusal } = error;
  if (refusal.kind === "duplicateSequence") {
    const { firstOffset, lastOffset, timestamp } = refusal;
    return { kind: "appended", firstOffset, lastOffset, logAppendTime: timestamp, logStartOffset };
  }
  if (refusal.kind !== "producerRefused") return undefined;
  const { errorCode, message } = refusal;
  return { kind: "error", errorCode, errorMessage: message, logStartOffset, recordErrors: [] };
}

/** What a producer is told when the broker has no file descriptor left for its partition. */
const DESCRIPTORS_EXHAUSTED_MESSAGE =
  "the broker has as many files open as its limit allows (EMFILE); retry later, or raise the " +
  "broker's open-file limit";
