/**
 * Why a decode failed. Every malformed input ends in one of these; the decoders never throw
 * anything else for bad bytes.
 */
export type DecodeErrorKind =
  | "truncated" // fewer bytes than a field needs
  | "invalid" // a value no valid encoding produces (negative length, bad varint, unsafe int64)
  | "trailing" // bytes left over after the last field
  | "tooLarge" // a declared size above the allowed limit
  | "unsupportedVersion" // a version the schema does not define
  | "unknownApi"; // an API key the project has no schema for

export class DecodeError extends Error {
  override readonly name = "DecodeError";
  constructor(
    readonly kind: DecodeErrorKind,
    message: string,
    readonly position = -1,
  ) {
    super(position >= 0 ? `${message} (at byte ${position})` : message);
  }
}

export function isDecodeError(error: unknown): error is DecodeError {
  return error instanceof DecodeError;
}
