import snappy from "snappy";
import { isDecodeError } from "../codec/decode-error.js";
import { ByteReader } from "../codec/reader.js";
import {
  concatenate,
  decompressed,
  decompressedTooLarge,
  decompressionFailed,
  messageOf,
  type DecompressResult,
} from "./decompress-result.js";

/**
 * Snappy as Kafka uses it. The Java producer wraps raw snappy blocks in xerial's stream format
 * (snappy-java's SnappyOutputStream): an 8-byte magic "\x82SNAPPY\0", int32 version 1, int32
 * compatible version 1, then [int32 length, raw block]*, each block holding up to 32 KiB of
 * input. librdkafka writes one raw block instead and reads both; so does this module.
 */

export const XERIAL_MAGIC: readonly number[] = [0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00];
const XERIAL_HEADER_BYTES = 16;
const XERIAL_VERSION = 1;
const XERIAL_COMPATIBLE_VERSION = 1;
/** snappy-java's default block size, which Kafka's producer keeps. */
export const XERIAL_BLOCK_BYTES = 32 * 1024;

/** Compresses into xerial framing with 32 KiB blocks, the bytes the Java producer writes. */
export function snappyCompress(bytes: Uint8Array): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += XERIAL_BLOCK_BYTES) {
    blocks.push(snappy.compressSync(bytes.subarray(start, start + XERIAL_BLOCK_BYTES)));
  }
  const total = blocks.reduce((sum, block) => sum + 4 + block.length, XERIAL_HEADER_BYTES);
  const output = new Uint8Array(total);
  const view = new DataView(output.buffer);
  output.set(XERIAL_MAGIC, 0);
  view.setInt32(8, XERIAL_VERSION);
  view.setInt32(12, XERIAL_COMPATIBLE_VERSION);
  let at = XERIAL_HEADER_BYTES;
  for (const block of blocks) {
    view.setInt32(at, block.length);
    output.set(block, at + 4);
    at += 4 + block.length;
  }
  return output;
}

/** One raw snappy block, compressed, as the library writes it (no framing). */
export function snappyCompressRawBlock(bytes: Uint8Array): Uint8Array {
  return snappy.compressSync(bytes);
}

/** Whether `bytes` starts with xerial's stream magic. */
export function isXerialFramed(bytes: Uint8Array): boolean {
  return startsWithMagicAt(bytes, 0);
}

/**
 * Whether xerial's magic starts at `at`. Its first byte, 0x82, makes a negative int32, so it
 * can never be mistaken for a block length.
 */
function startsWithMagicAt(bytes: Uint8Array, at: number): boolean {
  if (bytes.length - at < XERIAL_MAGIC.length) return false;
  return XERIAL_MAGIC.every((value, index) => bytes[at + index] === value);
}

/**
 * Decompresses xerial-framed or raw snappy. The uncompressed length of every raw block is its
 * leading varint, so the whole output size is known, and refused past the limit, before
 * anything is decompressed or allocated.
 */
export function snappyDecompress(
  bytes: Uint8Array,
  maxDecompressedBytes: number,
): DecompressResult {
  const blocks = snappyBlocks(bytes);
  if (typeof blocks === "string") return decompressionFailed("snappy", blocks);
  const total = blocks.reduce((sum, block) => sum + block.length, 0);
  if (total > maxDecompressedBytes) return decompressedTooLarge("snappy", maxDecompressedBytes);
  const pieces: Uint8Array[] = [];
  for (const block of blocks) {
    try {
      pieces.push(snappy.uncompressSync(block.bytes, { asBuffer: true }) as Uint8Array);
    } catch (cause) {
      return decompressionFailed("snappy", messageOf(cause));
    }
  }
  const produced = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (produced !== total) return decompressionFailed("snappy", "block longer than its preamble");
  return decompressed(concatenate(pieces, total));
}

/** A raw snappy block and the uncompressed length its preamble declares. */
export interface SnappyBlock {
  readonly bytes: Uint8Array;
  readonly length: number;
}

/** The raw blocks of xerial-framed or raw snappy, or why they cannot be found. */
export function snappyBlocks(bytes: Uint8Array): SnappyBlock[] | string {
  const raw = isXerialFramed(bytes) ? splitXerialBlocks(bytes) : [bytes];
  if (typeof raw === "string") return raw;
  const blocks: SnappyBlock[] = [];
  for (const block of raw) {
    const length = rawBlockLength(block);
    if (length === undefined) return "bad block length preamble";
    blocks.push({ bytes: block, length });
  }
  return blocks;
}

/** The raw blocks of a xerial stream, or why they cannot be found. */
function splitXerialBlocks(bytes: Uint8Array): Uint8Array[] | string {
  if (bytes.length < XERIAL_HEADER_BYTES) return "xerial header truncated";
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const blocks: Uint8Array[] = [];
  let at = XERIAL_HEADER_BYTES;
  while (at < bytes.length) {
    // snappy-java reads a stream header where a block length is due as the start of a
    // concatenated stream, and goes on with that stream's blocks.
    if (startsWithMagicAt(bytes, at)) {
      if (bytes.length - at < XERIAL_HEADER_BYTES) return "xerial header truncated";
      at += XERIAL_HEADER_BYTES;
      continue;
    }
    if (bytes.length - at < 4) return "xerial block length truncated";
    const length = view.getInt32(at);
    if (length < 0 || length > bytes.length - at - 4) return `xerial block length ${length}`;
    // An empty block carries nothing; snappy-java never writes one, but it is harmless.
    if (length > 0) blocks.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return blocks;
}

/** The uncompressed length a raw block declares in its leading varint, if well-formed. */
function rawBlockLength(block: Uint8Array): number | undefined {
  try {
    return new ByteReader(block).unsignedVarint();
  } catch (cause) {
    if (isDecodeError(cause)) return undefined;
    throw cause;
  }
}
