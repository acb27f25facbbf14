/**
 * Why the log refused an append. The caller validated the input already (Kafka's LogValidator
 * runs before the log), so a refusal here means the input changed or the caller skipped a rule;
 * the log still checks, because a partial or misframed write would corrupt the partition.
 */
import { ErrorCode, assertNever } from "../../common/index.js";
import { isDescriptorExhaustion, isFileSystemError } from "../../ports/index.js";
import { describeBatchError, type BatchError } from "../../protocol/index.js";
import { MalformedFileError } from "../malformed-file-error.js";

/** What was wrong with the input of an append. Nothing of the input was written. */
export type AppendRefusal =
  /** The bytes are not a sequence of complete v2 batches (or a batch failed its CRC). */
  | { readonly kind: "corruptInput"; readonly position: number; readonly error: BatchError }
  /** A batch is larger than `max.message.bytes`. */
  | {
      readonly kind: "batchTooLarge";
      readonly sizeInBytes: number;
      readonly maxMessageBytes: number;
    }
  /** The whole input cannot fit in one segment of `segment.bytes`. */
  | { readonly kind: "inputTooLarge"; readonly sizeInBytes: number; readonly segmentBytes: number }
  /** A follower's first offset is below the log end offset (Kafka's UnexpectedAppendOffset). */
  | {
      readonly kind: "unexpectedAppendOffset";
      readonly firstOffset: number;
      readonly logEndOffset: number;
    }
  /** A follower's batches do not have increasing offsets (Kafka's OffsetsOutOfOrder). */
  | { readonly kind: "offsetsOutOfOrder"; readonly position: number; readonly baseOffset: number }
  /** Offsets would pass 2^53 (DESIGN: 64-bit integers). */
  | { readonly kind: "offsetOverflow"; readonly lastOffset: number }
  /** A leader's batch breaks the producer rules (epoch or sequence, see producer-state/). */
  | { readonly kind: "producerRefused"; readonly errorCode: number; readonly message: string }
  /**
   * A leader's batch repeats one the log holds (an idempotent producer's retry): nothing is
   * written and the producer is answered with the original batch's offsets, as Kafka answers.
   */
  | ({ readonly kind: "duplicateSequence" } & DuplicateBatch);

/** The batch a duplicate repeats: its sequences, offsets and timestamp. */
export interface DuplicateBatch {
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly timestamp: number;
}

/** The Kafka error code a produce or replica fetch gets for a refusal. */
export function errorCodeOfAppendRefusal(refusal: AppendRefusal): number {
  switch (refusal.kind) {
    case "corruptInput":
      return ErrorCode.CORRUPT_MESSAGE;
    case "batchTooLarge":
      return ErrorCode.MESSAGE_TOO_LARGE;
    case "inputTooLarge":
      return ErrorCode.RECORD_LIST_TOO_LARGE;
    case "unexpectedAppendOffset":
    case "offsetsOutOfOrder":
    case "offsetOverflow":
      // Kafka's UnexpectedAppendOffsetException and OffsetsOutOfOrderException have no code of
      // their own; the replica fetcher sees them as unknown server errors.
      return ErrorCode.UNKNOWN_SERVER_ERROR;
    case "producerRefused":
      return refusal.errorCode;
    case "duplicateSequence":
      return ErrorCode.DUPLICATE_SEQUENCE_NUMBER;
    default:
      return assertNever(refusal, "append refusal");
  }
}

function describeRefusal(refusal: AppendRefusal): string {
  if (refusal.kind === "corruptInput") {
    return `corrupt input at byte ${refusal.position}: ${describeBatchError(refusal.error)}`;
  }
  if (refusal.kind === "producerRefused") return refusal.message;
  const { kind, ...fields } = refusal;
  const details = Object.entries(fields).map(([name, value]) => `${name}=${String(value)}`);
  return `${kind}: ${details.join(", ")}`;
}

/**
 * Thrown by appendAsLeader and appendAsFollower when they refuse their input; the log is
 * unchanged. `errorCode` is what to answer the client or record for the fetcher.
 */
export class LogAppendError extends Error {
  override readonly name = "LogAppendError";
  readonly errorCode: number;

  constructor(readonly refusal: AppendRefusal) {
    super(describeRefusal(refusal));
    this.errorCode = errorCodeOfAppendRefusal(refusal);
  }
}

export function isLogAppendError(error: unknown): error is LogAppendError {
  return error instanceof LogAppendError;
}

/**
 * Thrown by every operation of a log that met an I/O error in the background (a flush after a
 * roll, a delayed file deletion). The log manager takes the log dir offline, as Kafka does.
 */
export class LogFailedError extends Error {
  override readonly name = "LogFailedError";
  constructor(dir: string, options: { cause: unknown }) {
    super(`the log in ${dir} failed earlier and takes no more operations`, options);
  }
}

/**
 * True when `error` is a failure of the disk under the log: a FileSystemError from the port or
 * a file the log read that is not in its format. These, and only these, reach `onIoError`;
 * refused inputs (LogAppendError), broken invariants (AssertionError) and a process out of file
 * descriptors (isDescriptorExhaustion: a resource, not the disk) never do.
 */
export function isIoError(error: unknown): boolean {
  if (isDescriptorExhaustion(error)) return false;
  return isFileSystemError(error) || error instanceof MalformedFileError;
}

/**
 * True when `error` is, or is a failed log caused by, the process or system running out of
 * file descriptors (EMFILE, ENFILE): the work is refused, the disk is not at fault.
 */
export function isResourceExhaustion(error: unknown): boolean {
  if (error instanceof LogFailedError) return isDescriptorExhaustion(error.cause);
  return isDescriptorExhaustion(error);
}

/**
 * Thrown by every operation of a log that was closed: its dir went offline (the log manager
 * closes the dir's logs while callers may still hold them) or the log was deleted or moved.
 * The caller answers as for a storage failure (KAFKA_STORAGE_ERROR) or looks the log up again.
 */
export class LogClosedError extends Error {
  override readonly name = "LogClosedError";
  constructor(dir: string) {
    super(`the log in ${dir} is closed`);
  }
}
