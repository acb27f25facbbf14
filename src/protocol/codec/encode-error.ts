/**
 * Why an encode failed. These are refusals of the value handed to an encoder, like Kafka's
 * UnsupportedVersionException: the caller asked for something the chosen version cannot carry.
 */
export type EncodeErrorKind =
  | "unsupportedVersion" // a version outside the schema, or a non-default value it cannot hold
  | "invalid"; // a value no encoding can represent (null in a non-nullable field, duplicate tag)

/** Thrown by the schema encoders when a value cannot be represented in the requested version. */
export class EncodeError extends Error {
  override readonly name = "EncodeError";
  constructor(
    readonly kind: EncodeErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export function isEncodeError(error: unknown): error is EncodeError {
  return error instanceof EncodeError;
}
