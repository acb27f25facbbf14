/**
 * What the offset index and the time index share: Kafka's size defaults, the capacity check, the
 * walk over an index file's entries and the verdict on it, encoding a range of entries, and binary
 * search over a sorted column of entries.
 */
import { assert, offset, type Offset } from "../common/index.js";

/** Kafka's default `segment.index.bytes`: the size at which an index is full. */
export const DEFAULT_SEGMENT_INDEX_BYTES = 10_485_760;
/** Kafka's default `index.interval.bytes`: log bytes appended between two offset index entries. */
export const DEFAULT_INDEX_INTERVAL_BYTES = 4096;

/** Where an index belongs and how large it may grow. */
export interface IndexOptions {
  /** The base offset of the segment; entries store offsets relative to it. */
  readonly baseOffset: number;
  /** `segment.index.bytes`: the index is full at this size, rounded down to whole entries. */
  readonly maxIndexSizeBytes: number;
}

/** The checked base offset of an index and how many entries of `entrySizeBytes` fit in it. */
export function indexCapacity(
  options: IndexOptions,
  entrySizeBytes: number,
): { readonly baseOffset: Offset; readonly maxEntries: number } {
  assert(Number.isSafeInteger(options.baseOffset), "the base offset is a safe integer");
  assert(options.baseOffset >= 0, "the base offset is not negative");
  assert(Number.isSafeInteger(options.maxIndexSizeBytes), "the index size is an integer");
  assert(options.maxIndexSizeBytes >= 0, "the index size is not negative");
  return {
    baseOffset: offset(options.baseOffset),
    maxEntries: Math.floor(options.maxIndexSizeBytes / entrySizeBytes),
  };
}

/**
 * Walks the entries of an index file's `bytes`, up to `maxEntries`, handing each entry's byte
 * position to `accept`, which keeps the entry and returns undefined or returns why it cannot. The
 * walk stops at the first refused entry; the verdict says whether the whole file was valid.
 */
export function decodeIndexEntries(
  bytes: Uint8Array,
  layout: { readonly entrySizeBytes: number; readonly maxEntries: number },
  accept: (view: DataView, at: number) => string | undefined,
): IndexSanity {
  const { entrySizeBytes, maxEntries } = layout;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const available = Math.floor(bytes.length / entrySizeBytes);
  let validEntries = 0;
  let stopReason: string | undefined;
  for (; validEntries < available && validEntries < maxEntries; validEntries++) {
    stopReason = accept(view, validEntries * entrySizeBytes);
    if (stopReason !== undefined) break;
  }
  if (stopReason === undefined && available > maxEntries) stopReason = "too many entries";
  const fileSizeBytes = bytes.length;
  return judgeIndexFile({ fileSizeBytes, entrySizeBytes, validEntries, maxEntries, stopReason });
}

/**
 * The file bytes of the entries in slots [fromSlot, toSlot) of an index holding `entryCount`;
 * `write` puts the entry of `slot` at byte `at` of `view`.
 */
export function encodeIndexEntries(
  range: { readonly fromSlot: number; readonly toSlot: number; readonly entryCount: number },
  entrySizeBytes: number,
  write: (view: DataView, at: number, slot: number) => void,
): Uint8Array {
  const { fromSlot, toSlot, entryCount } = range;
  assert(0 <= fromSlot && fromSlot <= toSlot, "an encoded range starts within the entries");
  assert(toSlot <= entryCount, "an encoded range ends within the entries");
  const bytes = new Uint8Array((toSlot - fromSlot) * entrySizeBytes);
  const view = new DataView(bytes.buffer);
  for (let slot = fromSlot; slot < toSlot; slot++) {
    write(view, (slot - fromSlot) * entrySizeBytes, slot);
  }
  return bytes;
}

/**
 * The verdict on an index file read from disk, as Kafka's sanityCheck gives it. A corrupt index
 * keeps its valid leading entries; the log decides whether to rebuild it from the segment.
 */
export type IndexSanity =
  { readonly kind: "sane" } | { readonly kind: "corrupt"; readonly reason: string };

/** The verdict for a file of `fileSizeBytes` of which `validEntries` leading entries are valid. */
export function judgeIndexFile(options: {
  readonly fileSizeBytes: number;
  readonly entrySizeBytes: number;
  readonly validEntries: number;
  readonly maxEntries: number;
  /** Why decoding stopped before the end of the file, when it did. */
  readonly stopReason: string | undefined;
}): IndexSanity {
  const { fileSizeBytes, entrySizeBytes, validEntries, maxEntries, stopReason } = options;
  if (fileSizeBytes % entrySizeBytes !== 0) {
    return {
      kind: "corrupt",
      reason: `size ${fileSizeBytes} is not a multiple of the entry size ${entrySizeBytes}`,
    };
  }
  if (stopReason !== undefined) {
    return { kind: "corrupt", reason: `${stopReason} at entry ${validEntries}` };
  }
  if (validEntries > maxEntries) {
    return { kind: "corrupt", reason: `${validEntries} entries exceed the maximum ${maxEntries}` };
  }
  return { kind: "sane" };
}

/**
 * The largest slot in [0, count) whose key is <= `target`, or -1 when there is none; `keyAt` must
 * be non-decreasing over the slots.
 */
export function largestLowerBoundSlot(
  count: number,
  keyAt: (slot: number) => number,
  target: number,
): number {
  let low = 0;
  let high = count - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (keyAt(middle) <= target) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * The smallest slot in [0, count) whose key is >= `target`, or `count` when there is none;
 * `keyAt` must be non-decreasing over the slots.
 */
export function smallestUpperBoundSlot(
  count: number,
  keyAt: (slot: number) => number,
  target: number,
): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyAt(middle) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A copy of `column` with room for at least `needed` values, doubling up to `limit`. */
export function grownColumn<T extends Int32Array | Float64Array>(
  column: T,
  needed: number,
  limit: number,
  make: (length: number) => T,
): T {
  if (needed <= column.length) return column;
  const length = Math.min(Math.max(needed, column.length * 2, 16), Math.max(limit, needed));
  const grown = make(length);
  grown.set(column);
  return grown;
}
