/**
 * The header scans a segment makes over its own log file: finding the batch that holds an
 * offset, reading the tail after the last index entry (next offset, largest timestamp), and the
 * first batch's timestamp.
 */
import type { FileHandle } from "../../ports/index.js";
import type { OffsetIndex } from "../offset-index.js";
import type { TimeIndex } from "../time-index.js";
import { scanBatches, type ScannedBatch } from "./batch-scan.driver.js";
import type { SegmentIndexing } from "./segment-indexing.js";

/**
 * The first batch whose last offset is >= `offset`, starting from the offset index entry below
 * it (or `startingPosition` when later), or undefined when the file ends before it.
 */
export async function findBatchHolding(
  handle: FileHandle,
  offsetIndex: OffsetIndex,
  range: {
    readonly offset: number;
    readonly startingPosition: number;
    readonly endPosition: number;
  },
): Promise<ScannedBatch | undefined> {
  const entry = offsetIndex.lookup(range.offset);
  const fromPosition = Math.max(entry.position, range.startingPosition);
  let found: ScannedBatch | undefined;
  await scanBatches(handle, { fromPosition, endPosition: range.endPosition }, (batch) => {
    if (batch.lastOffset < range.offset) return true;
    found = batch;
    return false;
  });
  return found;
}

/**
 * Scans from `fromPosition` (a batch start) to the end, feeding each batch's timestamp to
 * `indexing`; resolves to the offset after the last batch (undefined when there is none) and
 * whether the file ends on a whole batch.
 */
export async function scanTail(
  handle: FileHandle,
  range: { readonly fromPosition: number; readonly endPosition: number },
  indexing: SegmentIndexing,
): Promise<{ nextOffset: number | undefined; isWhole: boolean }> {
  let nextOffset: number | undefined;
  const end = await scanBatches(handle, range, (batch) => {
    nextOffset = batch.lastOffset + 1;
    indexing.observeTimestamp(batch);
    return true;
  });
  return { nextOffset, isWhole: end.kind === "end" };
}

/** The maxTimestamp of the file's first batch, or -1 when the file holds none. */
export async function readFirstBatchTimestamp(
  handle: FileHandle,
  sizeInBytes: number,
): Promise<number> {
  let timestamp = -1;
  if (sizeInBytes === 0) return timestamp;
  await scanBatches(handle, { fromPosition: 0, endPosition: sizeInBytes }, (batch) => {
    timestamp = batch.maxTimestamp;
    return false;
  });
  return timestamp;
}

/**
 * Reads the tail of a segment whose indexes are trusted: the largest timestamp from the time
 * index's last entry and the batches after it, and the next offset from the batches after the
 * last offset index entry (Kafka's readNextOffset).
 */
export async function loadTail(
  handle: FileHandle,
  indexes: { readonly offsetIndex: OffsetIndex; readonly timeIndex: TimeIndex },
  segment: {
    readonly baseOffset: number;
    readonly sizeInBytes: number;
    readonly indexing: SegmentIndexing;
  },
): Promise<{ nextOffset: number; isWhole: boolean }> {
  const { offsetIndex, timeIndex } = indexes;
  const lastEntry = timeIndex.lastEntry();
  segment.indexing.resetMaxTimestamp(lastEntry.timestamp, lastEntry.offset);
  const lastIndexed = offsetIndex.entryCount === 0 ? segment.baseOffset : offsetIndex.lastOffset();
  const from = offsetIndex.lookup(Math.min(lastEntry.offset, lastIndexed));
  const range = { fromPosition: from.position, endPosition: segment.sizeInBytes };
  const tail = await scanTail(handle, range, segment.indexing);
  return { nextOffset: tail.nextOffset ?? segment.baseOffset, isWhole: tail.isWhole };
}
