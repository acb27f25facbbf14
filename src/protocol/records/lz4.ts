import lz4 from "lz4-napi";
import {
  concatenate,
  decompressed,
  decompressedTooLarge,
  decompressionFailed,
  messageOf,
  type DecompressResult,
} from "./decompress-result.js";

/**
 * LZ4 in the LZ4 frame format, which Kafka uses for batch v2 (the broken header checksum of
 * Kafka's early LZ4 applies to magic 0 only). lz4-napi cannot bound its output, so each frame is
 * walked first: the frame header names the block maximum, every block header its compressed
 * size, and LZ4 cannot expand a block by more than 255 times. The sum of those bounds is checked
 * against the limit before anything is decompressed.
 */

/** The LZ4 frame magic number, little-endian on the wire (04 22 4D 18). */
export const LZ4_FRAME_MAGIC = 0x184d2204;
const SKIPPABLE_MAGIC_BASE = 0x184d2a50;
/** LZ4's largest expansion: a match costs at least one byte per 255 bytes it produces. */
const LZ4_MAX_EXPANSION = 255;
const BLOCK_MAXIMUM_BYTES: Readonly<Record<number, number>> = {
  4: 64 * 1024,
  5: 256 * 1024,
  6: 1024 * 1024,
  7: 4 * 1024 * 1024,
};

/** Compresses into one LZ4 frame with independent blocks and no checksums but the header's. */
export function lz4Compress(bytes: Uint8Array): Uint8Array {
  // lz4-napi's declaration says Buffer, but napi reads any Uint8Array view.
  return lz4.compressFrameSync(bytes as Buffer);
}

/** Where one frame ends and how much it can decompress to, or why it is malformed. */
type FrameScan =
  | { readonly ok: true; readonly end: number; readonly boundBytes: number; readonly skip: boolean }
  | { readonly ok: false; readonly detail: string };

/** Decompresses one or more concatenated LZ4 frames, refusing output past the limit. */
export function lz4Decompress(bytes: Uint8Array, maxDecompressedBytes: number): DecompressResult {
  const frames: { start: number; end: number }[] = [];
  let bound = 0;
  for (let start = 0; start < bytes.length;) {
    const scan = scanFrame(bytes, start);
    if (!scan.ok) return decompressionFailed("lz4", scan.detail);
    bound += scan.boundBytes;
    if (bound > maxDecompressedBytes) return decompressedTooLarge("lz4", maxDecompressedBytes);
    if (!scan.skip) frames.push({ start, end: scan.end });
    start = scan.end;
  }
  if (frames.length === 0) return decompressionFailed("lz4", "no LZ4 frame");
  const pieces: Uint8Array[] = [];
  let total = 0;
  for (const frame of frames) {
    try {
      const piece = lz4.decompressFrameSync(bytes.subarray(frame.start, frame.end) as Buffer);
      pieces.push(piece);
      total += piece.length;
    } catch (cause) {
      return decompressionFailed("lz4", messageOf(cause));
    }
  }
  // The scan's bound makes this unreachable for a correct library; it guards the limit anyway.
  if (total > maxDecompressedBytes) return decompressedTooLarge("lz4", maxDecompressedBytes);
  return decompressed(concatenate(pieces, total));
}

/** One block of an LZ4 frame: its bytes, and the most it may decompress to. */
export interface Lz4Block {
  readonly bytes: Uint8Array;
  readonly isUncompressed: boolean;
  readonly maximumBytes: number;
}

/** The blocks of one or more concatenated LZ4 frames, in order, or why they are malformed. */
export function lz4Blocks(bytes: Uint8Array): Lz4Block[] | string {
  const blocks: Lz4Block[] = [];
  for (let start = 0; start < bytes.length;) {
    const scan = scanFrame(bytes, start, blocks);
    if (!scan.ok) return scan.detail;
    start = scan.end;
  }
  return blocks;
}

/**
 * Reads the frame (or skippable frame) at `start` without decompressing it, adding its blocks
 * to `blocks` when given.
 */
function scanFrame(bytes: Uint8Array, start: number, blocks?: Lz4Block[]): FrameScan {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length - start < 4) return { ok: false, detail: "frame magic truncated" };
  const magic = view.getUint32(start, true);
  if ((magic & 0xfffffff0) === SKIPPABLE_MAGIC_BASE) {
    if (bytes.length - start < 8) return { ok: false, detail: "skippable frame truncated" };
    const end = start + 8 + view.getUint32(start + 4, true);
    if (end > bytes.length) return { ok: false, detail: "skippable frame truncated" };
    return { ok: true, end, boundBytes: 0, skip: true };
  }
  if (magic !== LZ4_FRAME_MAGIC) return { ok: false, detail: "not an LZ4 frame" };
  const header = readFrameHeader(bytes, view, start + 4);
  if (typeof header === "string") return { ok: false, detail: header };
  return scanBlocks(bytes, view, header, blocks);
}

interface FrameHeader {
  readonly blocksStart: number;
  readonly blockMaximumBytes: number;
  readonly hasBlockChecksum: boolean;
  readonly hasContentChecksum: boolean;
}

/** The frame descriptor after the magic: FLG, BD, optional content size and dictionary id, HC. */
function readFrameHeader(bytes: Uint8Array, view: DataView, at: number): FrameHeader | string {
  if (bytes.length - at < 3) return "frame descriptor truncated";
  const flags = view.getUint8(at);
  const blockDescriptor = view.getUint8(at + 1);
  if (flags >> 6 !== 1) return `LZ4 frame version ${flags >> 6}`;
  const blockMaximumBytes = BLOCK_MAXIMUM_BYTES[(blockDescriptor >> 4) & 0x07];
  if (blockMaximumBytes === undefined) return `block maximum id ${(blockDescriptor >> 4) & 7}`;
  const hasContentSize = (flags & 0x08) !== 0;
  const hasDictionaryId = (flags & 0x01) !== 0;
  const descriptorBytes = 2 + (hasContentSize ? 8 : 0) + (hasDictionaryId ? 4 : 0) + 1;
  if (bytes.length - at < descriptorBytes) return "frame descriptor truncated";
  return {
    blocksStart: at + descriptorBytes,
    blockMaximumBytes,
    hasBlockChecksum: (flags & 0x10) !== 0,
    hasContentChecksum: (flags & 0x04) !== 0,
  };
}

/** Walks the block headers up to the end mark, summing how much each block can produce. */
function scanBlocks(
  bytes: Uint8Array,
  view: DataView,
  header: FrameHeader,
  blocks: Lz4Block[] | undefined,
): FrameScan {
  let at = header.blocksStart;
  let boundBytes = 0;
  for (;;) {
    if (bytes.length - at < 4) return { ok: false, detail: "block header truncated" };
    const word = view.getUint32(at, true);
    at += 4;
    if (word === 0) break;
    const isUncompressed = (word & 0x80000000) !== 0;
    const size = word & 0x7fffffff;
    if (size > header.blockMaximumBytes) return { ok: false, detail: `block of ${size} bytes` };
    const blockBytes = size + (header.hasBlockChecksum ? 4 : 0);
    if (bytes.length - at < blockBytes) return { ok: false, detail: "block truncated" };
    const maximumBytes = header.blockMaximumBytes;
    blocks?.push({ bytes: bytes.subarray(at, at + size), isUncompressed, maximumBytes });
    at += blockBytes;
    boundBytes += isUncompressed
      ? size
      : Math.min(header.blockMaximumBytes, size * LZ4_MAX_EXPANSION);
  }
  if (header.hasContentChecksum) {
    if (bytes.length - at < 4) return { ok: false, detail: "content checksum truncated" };
    at += 4;
  }
  return { ok: true, end: at, boundBytes, skip: false };
}
