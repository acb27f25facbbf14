import zstd from "zstd-napi";
import binding from "zstd-napi/binding.js";
import {
  decompressed,
  decompressedTooLarge,
  decompressionFailed,
  messageOf,
  type DecompressResult,
} from "./decompress-result.js";

/**
 * zstd through zstd-napi (libzstd). Decompression streams into an output that grows by
 * doubling and never past the limit plus one byte, so a frame that expands without end is
 * stopped there. A frame that declares its content size beyond the limit is refused unread.
 */

/** The zstd frame magic number, little-endian on the wire (28 B5 2F FD). */
export const ZSTD_FRAME_MAGIC = 0xfd2fb528;
/** Kafka's default compression.zstd.level, which is also libzstd's default. */
const ZSTD_LEVEL = 3;
const INITIAL_OUTPUT_BYTES = 16 * 1024;

// One context for the process: decompression is synchronous, so calls never overlap, and
// reusing it saves libzstd's allocation per batch.
const context = new binding.DCtx();

/** Compresses into one zstd frame that records its content size. */
export function zstdCompress(bytes: Uint8Array): Uint8Array {
  return zstd.compress(bytes, { compressionLevel: ZSTD_LEVEL });
}

/** Decompresses one or more concatenated zstd frames, refusing output past the limit. */
export function zstdDecompress(bytes: Uint8Array, maxDecompressedBytes: number): DecompressResult {
  let declared: number | null;
  try {
    declared = binding.getFrameContentSize(bytes);
  } catch (cause) {
    return decompressionFailed("zstd", messageOf(cause));
  }
  if (declared !== null && declared > maxDecompressedBytes) {
    return decompressedTooLarge("zstd", maxDecompressedBytes);
  }
  const capacity = Math.max(declared ?? bytes.length * 4, INITIAL_OUTPUT_BYTES);
  try {
    context.reset(binding.ResetDirective.sessionOnly);
    return streamInto(bytes, Math.min(capacity, maxDecompressedBytes + 1), maxDecompressedBytes);
  } catch (cause) {
    context.reset(binding.ResetDirective.sessionOnly);
    return decompressionFailed("zstd", messageOf(cause));
  }
}

/** Runs the streaming decoder until every frame is complete, growing the output as needed. */
function streamInto(
  bytes: Uint8Array,
  capacity: number,
  maxDecompressedBytes: number,
): DecompressResult {
  let output = new Uint8Array(capacity);
  let produced = 0;
  let consumed = 0;
  for (;;) {
    if (produced === output.length) {
      // The output reached limit + 1 bytes: the limit is passed, whatever else the frame holds.
      if (output.length > maxDecompressedBytes) {
        return decompressedTooLarge("zstd", maxDecompressedBytes);
      }
      const grown = new Uint8Array(Math.min(output.length * 2, maxDecompressedBytes + 1));
      grown.set(output);
      output = grown;
    }
    const [remaining, wrote, read] = context.decompressStream(
      output.subarray(produced),
      bytes.subarray(consumed),
    );
    produced += wrote;
    consumed += read;
    // Zero means the current frame is complete and flushed; with no input left, all are.
    if (remaining === 0 && consumed === bytes.length) break;
    if (wrote === 0 && read === 0 && produced < output.length) {
      return decompressionFailed("zstd", "zstd frame truncated");
    }
  }
  return decompressed(output.subarray(0, produced));
}
