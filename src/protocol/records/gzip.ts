// The one import of node:* outside src/adapters: zlib's synchronous calls are pure computation
// on bytes, with no I/O, time or randomness (docs/decisions/0002-compression-and-crc.md).
import { gunzipSync, gzipSync } from "node:zlib";
import { assert } from "../../common/index.js";
import {
  decompressed,
  decompressedTooLarge,
  decompressionFailed,
  messageOf,
  type DecompressResult,
} from "./decompress-result.js";

/** Compresses with gzip at zlib's default level, as Java's GZIPOutputStream does. */
export function gzipCompress(bytes: Uint8Array): Uint8Array {
  return gzipSync(bytes);
}

/**
 * Decompresses a gzip stream (one or more members). zlib stops with ERR_BUFFER_TOO_LARGE once
 * its output passes `maxOutputLength`, so memory stays bounded by the limit.
 */
export function gzipDecompress(bytes: Uint8Array, maxDecompressedBytes: number): DecompressResult {
  assert(maxDecompressedBytes >= 1, "the decompression limit is at least one byte");
  try {
    return decompressed(gunzipSync(bytes, { maxOutputLength: maxDecompressedBytes }));
  } catch (cause) {
    if (isBufferTooLarge(cause)) return decompressedTooLarge("gzip", maxDecompressedBytes);
    return decompressionFailed("gzip", messageOf(cause));
  }
}

function isBufferTooLarge(cause: unknown): boolean {
  return (
    typeof cause === "object" &&
    cause !== null &&
    (cause as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE"
  );
}
