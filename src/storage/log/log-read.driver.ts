/**
 * Reads of the log: whole batches from an offset as file slices (Kafka's Log.read with the
 * KIP-74 rule for the first batch), and the first record at or after a timestamp (ListOffsets).
 */
import { scanBatches, type ScannedBatch } from "./batch-scan.driver.js";
import type { LogSegment } from "./log-segment.driver.js";
import type { FileHandle } from "../../ports/index.js";

/** An offset and where it lies on disk, as Kafka's LogOffsetMetadata. */
export interface LogOffsetMetadata {
  readonly offset: number;
  readonly segmentBaseOffset: number;
  /** The position in the segment's log file of the batch holding `offset`. */
  readonly position: number;
}

export type LogReadResult =
  | {
      readonly kind: "records";
      /** Where the read started: the offset asked for and the batch holding it. */
      readonly fetchOffsetMetadata: LogOffsetMetadata;
      /** Whole batches, in offset order; empty when nothing could be returned. */
      readonly slices: readonly FileSlice[];
      readonly sizeInBytes: number;
      /** The offset after the last batch returned (the fetch offset when nothing was). */
      readonly nextOffset: number;
      readonly logStartOffset: number;
      readonly logEndOffset: number;
    }
  /** OFFSET_OUT_OF_RANGE: below the log start offset or above the log end offset. */
  | {
      readonly kind: "offsetOutOfRange";
      readonly logStartOffset: number;
      readonly logEndOffset: number;
    };

/**
 * A run of whole batches in a segment's log file, to be read (`readBytes`) or sent as is. The
 * handle stays readable after the segment is deleted until `file.delete.delay.ms` has passed,
 * which is why Kafka delays deletions: reads under way finish on the old file.
 */
export interface FileSlice {
  readonly handle: FileHandle;
  /** The path of the log file when the slice was taken. */
  readonly path: string;
  readonly segmentBaseOffset: number;
  /** Where the first batch starts in the file. */
  readonly position: number;
  readonly sizeInBytes: number;
}

export interface ReadOptions {
  /** The offset to read from; the batch holding it comes first. */
  readonly fromOffset: number;
  /** The most bytes to return, in whole batches (but see minOneBatch). */
  readonly maxBytes: number;
  /** An exclusive bound: no batch holding this offset or a later one is returned. */
  readonly maxOffset: number;
  /** Return the first batch even when it is larger than maxBytes (KIP-74). */
  readonly minOneBatch: boolean;
}

export interface ReadBounds {
  readonly logStartOffset: number;
  readonly logEndOffset: number;
}

/** Where a slice of one segment ends, and the offset to read after it. */
interface SliceEnd {
  readonly position: number;
  readonly nextOffset: number;
}

/**
 * Reads from `segments` (the log's segments from the one holding fromOffset on, a snapshot),
 * continuing into later segments while bytes remain.
 */
export async function readSegments(
  segments: readonly LogSegment[],
  options: ReadOptions,
  bounds: ReadBounds,
): Promise<LogReadResult> {
  const { fromOffset } = options;
  if (fromOffset < bounds.logStartOffset || fromOffset > bounds.logEndOffset) {
    return { kind: "offsetOutOfRange", ...bounds };
  }
  const slices: FileSlice[] = [];
  let fetchOffsetMetadata: LogOffsetMetadata | undefined;
  let remaining = Math.max(0, options.maxBytes);
  let nextOffset = fromOffset;
  for (const segment of segments) {
    if (segment.baseOffset >= options.maxOffset) break;
    const first = await segment.translateOffset(nextOffset);
    if (first === undefined) continue;
    fetchOffsetMetadata ??= {
      offset: fromOffset,
      segmentBaseOffset: segment.baseOffset,
      position: first.position,
    };
    if (first.lastOffset >= options.maxOffset) break;
    const isFirstSlice = slices.length === 0;
    const end = await sliceEnd(segment, first, {
      remaining,
      maxOffset: options.maxOffset,
      isMinOne: options.minOneBatch && isFirstSlice,
    });
    if (end === undefined) break;
    const sizeInBytes = end.position - first.position;
    slices.push({
      handle: segment.handle,
      path: segment.path,
      segmentBaseOffset: segment.baseOffset,
      position: first.position,
      sizeInBytes,
    });
    remaining = Math.max(0, remaining - sizeInBytes);
    nextOffset = end.nextOffset;
    // Only a slice that took the whole segment lets the read go on into the next one.
    if (end.position < segment.sizeInBytes || remaining === 0) break;
  }
  // Nothing at or after fromOffset: it is the log end, at the end of the last segment.
  const last = segments[segments.length - 1];
  fetchOffsetMetadata ??= {
    offset: fromOffset,
    segmentBaseOffset: last?.baseOffset ?? fromOffset,
    position: last?.sizeInBytes ?? 0,
  };
  const sizeInBytes = slices.reduce((sum, slice) => sum + slice.sizeInBytes, 0);
  return { kind: "records", fetchOffsetMetadata, slices, sizeInBytes, nextOffset, ...bounds };
}

/**
 * Where the slice starting with batch `first` ends: at the last batch boundary within the
 * bytes remaining and before the batch holding maxOffset; undefined when not even the first
 * batch fits and `isMinOne` does not allow it.
 */
async function sliceEnd(
  segment: LogSegment,
  first: ScannedBatch,
  limits: { readonly remaining: number; readonly maxOffset: number; readonly isMinOne: boolean },
): Promise<SliceEnd | undefined> {
  let maxPosition = segment.sizeInBytes;
  let maxPositionNextOffset = segment.nextOffset;
  if (limits.maxOffset < segment.nextOffset) {
    const holding = await segment.translateOffset(limits.maxOffset, first.position);
    if (holding !== undefined) {
      maxPosition = holding.position;
      maxPositionNextOffset = holding.baseOffset;
    }
  }
  const limit = first.position + limits.remaining;
  let end: SliceEnd;
  if (limit >= maxPosition) end = { position: maxPosition, nextOffset: maxPositionNextOffset };
  else end = await lastBoundaryWithin(segment, first, limit);
  if (end.position > first.position) return end;
  if (!limits.isMinOne) return undefined;
  return { position: first.position + first.sizeInBytes, nextOffset: first.lastOffset + 1 };
}

/**
 * The last batch boundary at or before `limit` (which lies inside the segment), found from the
 * offset index entry nearest below it and a short header scan.
 */
async function lastBoundaryWithin(
  segment: LogSegment,
  first: ScannedBatch,
  limit: number,
): Promise<SliceEnd> {
  const index = segment.offsetIndex;
  let low = 0;
  let high = index.entryCount - 1;
  let fromPosition = first.position;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const entry = index.entry(middle);
    if (entry.position <= limit) {
      fromPosition = Math.max(fromPosition, entry.position);
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  let end: SliceEnd = { position: first.position, nextOffset: first.baseOffset };
  await scanBatches(segment.handle, { fromPosition, endPosition: segment.sizeInBytes }, (batch) => {
    if (batch.position + batch.sizeInBytes > limit) {
      if (end.position < batch.position)
        end = { position: batch.position, nextOffset: batch.baseOffset };
      return false;
    }
    end = { position: batch.position + batch.sizeInBytes, nextOffset: batch.lastOffset + 1 };
    return true;
  });
  return end;
}
