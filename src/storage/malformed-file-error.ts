/**
 * The outcome of parsing a storage file's text, and the error a driver raises when a file on disk
 * cannot be parsed. Kafka treats a corrupt checkpoint as an I/O problem of its log dir; the caller
 * decides whether that takes the dir offline.
 */

/** A parsed value, or the reason the text is not in the expected format. */
export type ParseResult<T> =
  | { readonly kind: "parsed"; readonly value: T }
  | { readonly kind: "malformed"; readonly reason: string };

export function parsed<T>(value: T): ParseResult<T> {
  return { kind: "parsed", value };
}

export function malformed<T>(reason: string): ParseResult<T> {
  return { kind: "malformed", reason };
}

/** A storage file exists but its content is not in the format Kafka defines for it. */
export class MalformedFileError extends Error {
  override readonly name = "MalformedFileError";
  constructor(
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`malformed file ${path}: ${reason}`, options);
  }
}

/** The value of `result`, or a MalformedFileError naming `path`. */
export function parsedOrThrow<T>(result: ParseResult<T>, path: string): T {
  if (result.kind === "malformed") throw new MalformedFileError(path, result.reason);
  return result.value;
}
