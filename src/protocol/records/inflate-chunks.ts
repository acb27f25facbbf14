import snappy from "snappy";
import lz4 from "lz4-napi";
import binding from "zstd-napi/binding.js";
import { assertNever } from "../../common/index.js";
import type { CompressionType } from "./attributes.js";
import { messageOf, type DecompressError } from "./decompress-result.js";
import { gzipDecompress } from "./gzip.js";
import { lz4Blocks, type Lz4Block } from "./lz4.js";
import { snappyBlocks } from "./snappy.js";

/**
 * A batch's records section, decompressed a piece at a time, so that reading its records needs
 * memory for one piece and one record, whatever the whole inflates to: Kafka, too, reads a
 * compressed batch as a stream and bounds it by its compressed size alone. zstd gives pieces of
 * 64 KiB, snappy and lz4 one block each (bounded by the codec's block sizes), and gzip, which
 * zlib offers no synchronous stream for, its whole output up to WHOLE_BATCH_BYTES_MAX.
 */
export interface RecordsInflater {
  next(): InflateStep;
}

export type InflateStep =
  | { readonly kind: "piece"; readonly bytes: Uint8Array }
  | { readonly kind: "end" }
  | { readonly kind: "failed"; readonly error: DecompressError };

/**
 * The most a batch is inflated to at once where its records cannot be streamed: a produced gzip
 * batch (beyond it, MESSAGE_TOO_LARGE), and a batch the cleaner rewrites.
 */
export const WHOLE_BATCH_BYTES_MAX = 256 * 1024 * 1024;
const ZSTD_PIECE_BYTES = 64 * 1024;

const END: InflateStep = { kind: "end" };

function failed(compression: CompressionType, detail: string): InflateStep {
  return { kind: "failed", error: { kind: "decompressionFailed", compression, detail } };
}

/** The pieces of `bytes`, the records section compressed with `compression`. */
export function inflateChunks(compression: CompressionType, bytes: Uint8Array): RecordsInflater {
  switch (compression) {
    case "none":
      return pieces([bytes]);
    case "gzip": {
      const whole = gzipDecompress(bytes, WHOLE_BATCH_BYTES_MAX);
      return whole.ok ? pieces([whole.bytes]) : stopped({ kind: "failed", error: whole.error });
    }
    case "snappy":
      return snappyInflater(bytes);
    case "lz4":
      return lz4Inflater(bytes);
    case "zstd":
      return new ZstdInflater(bytes);
    default:
      return assertNever(compression, "compression");
  }
}

function pieces(all: readonly Uint8Array[]): RecordsInflater {
  let index = 0;
  return {
    next: () => {
      const bytes = all[index++];
      return bytes === undefined ? END : { kind: "piece", bytes };
    },
  };
}

function stopped(step: InflateStep): RecordsInflater {
  return { next: () => step };
}

function snappyInflater(bytes: Uint8Array): RecordsInflater {
  const blocks = snappyBlocks(bytes);
  if (typeof blocks === "string") return stopped(failed("snappy", blocks));
  let index = 0;
  return {
    next: () => {
      const block = blocks[index++];
      if (block === undefined) return END;
      try {
        const output = snappy.uncompressSync(block.bytes, { asBuffer: true }) as Uint8Array;
        if (output.length !== block.length) return failed("snappy", "block unlike its preamble");
        return { kind: "piece", bytes: output };
      } catch (cause) {
        return failed("snappy", messageOf(cause));
      }
    },
  };
}

function lz4Inflater(bytes: Uint8Array): RecordsInflater {
  const blocks = lz4Blocks(bytes);
  if (typeof blocks === "string") return stopped(failed("lz4", blocks));
  if (blocks.length === 0) return stopped(failed("lz4", "no LZ4 frame"));
  let index = 0;
  return {
    next: () => {
      const block = blocks[index++];
      if (block === undefined) return END;
      if (block.isUncompressed) return { kind: "piece", bytes: block.bytes };
      return lz4Block(block);
    },
  };
}

/**
 * One compressed LZ4 block. lz4-napi reads a block after a little-endian int32 of its largest
 * output; the frame's block maximum is that bound, and a block that would pass it fails.
 */
function lz4Block(block: Lz4Block): InflateStep {
  const input = Buffer.allocUnsafe(4 + block.bytes.length);
  input.writeUInt32LE(block.maximumBytes, 0);
  input.set(block.bytes, 4);
  try {
    return { kind: "piece", bytes: lz4.uncompressSync(input) };
  } catch (cause) {
    return failed("lz4", messageOf(cause));
  }
}

// One streaming context for the process, reset by each new inflater: records are read
// synchronously from start to end (or to a refusal), so two inflaters never interleave, and
// reuse keeps libzstd's window buffer instead of allocating one per batch.
const zstdContext = new binding.DCtx();

/** zstd frames decoded 64 KiB at a time. */
class ZstdInflater implements RecordsInflater {
  private readonly context = zstdContext;
  private consumed = 0;
  private isFrameOpen = true;

  constructor(private readonly bytes: Uint8Array) {
    this.context.reset(binding.ResetDirective.sessionOnly);
  }

  next(): InflateStep {
    if (this.consumed === this.bytes.length && !this.isFrameOpen) return END;
    const output = new Uint8Array(ZSTD_PIECE_BYTES);
    let produced = 0;
    try {
      while (produced < output.length) {
        const [remaining, wrote, read] = this.context.decompressStream(
          output.subarray(produced),
          this.bytes.subarray(this.consumed),
        );
        produced += wrote;
        this.consumed += read;
        // Zero means the frame in hand is complete and flushed.
        this.isFrameOpen = remaining !== 0;
        if (!this.isFrameOpen && this.consumed === this.bytes.length) break;
        if (wrote === 0 && read === 0) return failed("zstd", "zstd frame truncated");
      }
    } catch (cause) {
      return failed("zstd", messageOf(cause));
    }
    return produced === 0 ? END : { kind: "piece", bytes: output.subarray(0, produced) };
  }
}
