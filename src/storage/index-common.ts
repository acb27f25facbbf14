/**
 * What the offset index and the time index share: Kafka's size defaults, the verdict of loading an
 * index file, and binary search over a sorted column of entries.
 */

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
