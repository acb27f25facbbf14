import { assert, assertNever } from "../../common/index.js";
import type { CompressionType } from "./attributes.js";
import { decompressed, plainBytes, type DecompressResult } from "./decompress-result.js";
import { gzipCompress, gzipDecompress } from "./gzip.js";
import { lz4Compress, lz4Decompress } from "./lz4.js";
import { snappyCompress, snappyDecompress } from "./snappy.js";
import { zstdCompress, zstdDecompress } from "./zstd.js";

/** The smallest decompression limit `decompressionLimitFor` gives, whatever message.max.bytes. */
export const MIN_DECOMPRESSION_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * A limit for decompressing a stored batch whole (`decodeRecords`), from `message.max.bytes`:
 * twice it, and at least 8 MiB. Most producers bound a batch by its uncompressed size
 * (batch.size), so most batches stay far below; produce validation does not use it, since it
 * reads the records as a stream and accepts a batch whatever it inflates to, as Kafka does.
 */
export function decompressionLimitFor(settings: { readonly messageMaxBytes: number }): number {
  assert(settings.messageMaxBytes > 0, "message.max.bytes is positive");
  return Math.max(2 * settings.messageMaxBytes, MIN_DECOMPRESSION_LIMIT_BYTES);
}

/** Compresses the records section of a batch with `compression`, in Kafka's stream format. */
export function compressRecords(compression: CompressionType, bytes: Uint8Array): Uint8Array {
  return plainBytes(compressWith(compression, bytes));
}

function compressWith(compression: CompressionType, bytes: Uint8Array): Uint8Array {
  switch (compression) {
    case "none":
      return bytes;
    case "gzip":
      return gzipCompress(bytes);
    case "snappy":
      return snappyCompress(bytes);
    case "lz4":
      return lz4Compress(bytes);
    case "zstd":
      return zstdCompress(bytes);
    default:
      return assertNever(compression, "compression");
  }
}

/**
 * Decompresses the records section of a batch. Output beyond `maxDecompressedBytes` is refused
 * with decompressedTooLarge, and memory stays within about that limit (see each codec's file).
 */
export function decompressRecords(
  compression: CompressionType,
  bytes: Uint8Array,
  maxDecompressedBytes: number,
): DecompressResult {
  assert(maxDecompressedBytes >= 1, "the decompression limit is at least one byte");
  switch (compression) {
    case "none":
      return decompressed(bytes);
    case "gzip":
      return gzipDecompress(bytes, maxDecompressedBytes);
    case "snappy":
      return snappyDecompress(bytes, maxDecompressedBytes);
    case "lz4":
      return lz4Decompress(bytes, maxDecompressedBytes);
    case "zstd":
      return zstdDecompress(bytes, maxDecompressedBytes);
    default:
      return assertNever(compression, "compression");
  }
}
