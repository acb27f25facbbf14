import { ErrorCode, assertNever } from "../../common/index.js";
import type { CompressionType } from "./attributes.js";

/**
 * Why a record batch was refused. Each kind maps to the Kafka error code a Kafka broker returns
 * for it (see `errorCodeOfBatchError`); the fields say what was found, for logs and tests.
 */
export type BatchError =
  /** Fewer bytes than a header or the declared batchLength needs. */
  | { readonly kind: "truncated"; readonly neededBytes: number; readonly availableBytes: number }
  /** batchLength below the v2 header size, or above the allowed maximum. */
  | { readonly kind: "batchLengthInvalid"; readonly batchLength: number }
  /** Bytes after the end that batchLength declares. */
  | { readonly kind: "trailingBytes"; readonly count: number }
  /** A magic 0 or 1 message set, which a v2-only broker does not accept. */
  | { readonly kind: "legacyMagic"; readonly magic: 0 | 1 }
  /** A magic byte no Kafka version defines. */
  | { readonly kind: "unknownMagic"; readonly magic: number }
  /** The stored CRC-32C differs from the one computed from attributes to the end. */
  | { readonly kind: "crcMismatch"; readonly storedCrc: number; readonly computedCrc: number }
  /** An int64 header field outside the safe-integer range (DESIGN: 64-bit integers). */
  | { readonly kind: "int64OutOfRange"; readonly field: string }
  /** Codec ids 5-7, which no Kafka version defines. */
  | { readonly kind: "unknownCompression"; readonly compressionId: number }
  /** The compressed records are not a valid stream of their codec. */
  | {
      readonly kind: "decompressionFailed";
      readonly compression: CompressionType;
      readonly detail: string;
    }
  /** Decompressing would exceed the allowed size: refused before or while decompressing. */
  | {
      readonly kind: "decompressedTooLarge";
      readonly compression: CompressionType;
      readonly maxDecompressedBytes: number;
    }
  /** A record's own structure is wrong: lengths, varints, headers, or bytes left over. */
  | { readonly kind: "invalidRecord"; readonly recordIndex: number; readonly detail: string }
  /** The records count disagrees with lastOffsetDelta or with the records present. */
  | {
      readonly kind: "recordCountMismatch";
      readonly recordCount: number;
      readonly lastOffsetDelta: number;
      readonly detail: string;
    }
  /** A record's offsetDelta is not the one its position requires. */
  | {
      readonly kind: "offsetDeltaInvalid";
      readonly recordIndex: number;
      readonly offsetDelta: number;
      readonly detail: string;
    }
  /** A record's timestamp (baseTimestamp + timestampDelta) is not a safe integer. */
  | { readonly kind: "timestampOutOfRange"; readonly recordIndex: number }
  /** A client produced a control batch; only brokers and controllers write those. */
  | { readonly kind: "controlBatchFromClient" }
  /** An idempotent batch (producerId >= 0) with a negative baseSequence. */
  | {
      readonly kind: "invalidSequence";
      readonly producerId: number;
      readonly baseSequence: number;
    };

/** The result of an operation on a batch that may refuse it. */
export type BatchResult<Value> =
  ({ readonly ok: true } & Value) | { readonly ok: false; readonly error: BatchError };

export function batchFailure(error: BatchError): {
  readonly ok: false;
  readonly error: BatchError;
} {
  return { ok: false, error };
}

/**
 * The Kafka error code for a refusal. Structural damage to the batch (lengths, CRC, codec
 * stream) is CORRUPT_MESSAGE, as Kafka's CorruptRecordException; problems inside well-framed
 * records are INVALID_RECORD, as Kafka's InvalidRecordException from LogValidator and
 * DefaultRecord.
 */
export function errorCodeOfBatchError(error: BatchError): number {
  switch (error.kind) {
    case "truncated":
    case "batchLengthInvalid":
    case "trailingBytes":
    case "unknownMagic":
    case "crcMismatch":
    case "int64OutOfRange":
    case "unknownCompression":
    case "decompressionFailed":
      return ErrorCode.CORRUPT_MESSAGE;
    case "legacyMagic":
      // Kafka 4 serves Produce v3+ only, and ProduceRequest.validateRecords refuses any batch
      // whose magic is not 2 with InvalidRecordException, which is INVALID_RECORD on the wire.
      // UNSUPPORTED_FOR_MESSAGE_FORMAT is for a log whose format cannot serve a request, and
      // UNSUPPORTED_VERSION for an API version; neither is what a v2-only Kafka answers here.
      return ErrorCode.INVALID_RECORD;
    case "decompressedTooLarge":
      // The records are larger than the broker accepts. MESSAGE_TOO_LARGE also makes the Java
      // producer split the batch and retry, which is the right remedy for an honest batch.
      return ErrorCode.MESSAGE_TOO_LARGE;
    case "invalidRecord":
    case "recordCountMismatch":
    case "offsetDeltaInvalid":
    case "timestampOutOfRange":
    case "controlBatchFromClient":
    case "invalidSequence":
      return ErrorCode.INVALID_RECORD;
    default:
      return assertNever(error, "batch error");
  }
}

/** A one-line description of a refusal, for logs and error messages. */
export function describeBatchError(error: BatchError): string {
  const { kind, ...fields } = error;
  const details = Object.entries(fields).map(([name, value]) => `${name}=${String(value)}`);
  return details.length === 0 ? kind : `${kind}: ${details.join(", ")}`;
}
