import type { CompressionType } from "./attributes.js";

/** Why decompressing failed: a broken stream, or output past the allowed size. */
export type DecompressError =
  | {
      readonly kind: "decompressionFailed";
      readonly compression: CompressionType;
      readonly detail: string;
    }
  | {
      readonly kind: "decompressedTooLarge";
      readonly compression: CompressionType;
      readonly maxDecompressedBytes: number;
    };

/** The output of a bounded decompression. */
export type DecompressResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly error: DecompressError };

/**
 * A plain Uint8Array view of a library's output (often a Buffer), without a copy, so callers
 * see one type whatever the codec.
 */
export function plainBytes(bytes: Uint8Array): Uint8Array {
  if (Object.getPrototypeOf(bytes) === Uint8Array.prototype) return bytes;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function decompressed(bytes: Uint8Array): DecompressResult {
  return { ok: true, bytes: plainBytes(bytes) };
}

/** A stream that its codec cannot read. */
export function decompressionFailed(
  compression: CompressionType,
  detail: string,
): DecompressResult {
  return { ok: false, error: { kind: "decompressionFailed", compression, detail } };
}

/** Output that would pass `maxDecompressedBytes`. */
export function decompressedTooLarge(
  compression: CompressionType,
  maxDecompressedBytes: number,
): DecompressResult {
  return { ok: false, error: { kind: "decompressedTooLarge", compression, maxDecompressedBytes } };
}

/** The message of a library's exception, for a decompressionFailed detail. */
export function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

export function concatenate(pieces: readonly Uint8Array[], totalBytes: number): Uint8Array {
  if (pieces.length === 1 && pieces[0]?.length === totalBytes) return pieces[0];
  const output = new Uint8Array(totalBytes);
  let at = 0;
  for (const piece of pieces) {
    output.set(piece, at);
    at += piece.length;
  }
  return output;
}
