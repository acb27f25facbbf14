/**
 * Which part of a compacted log may be cleaned, and which log to clean first, as Kafka's
 * LogCleanerManager decides. The dirty range starts at the cleaner checkpoint (reset to the log
 * start offset when the checkpoint is out of the log) and ends at the first uncleanable offset:
 * the lowest of the active segment's base offset, the offset the caller may not pass (the high
 * watermark, or the last stable offset once transactions exist), and the base offset of the
 * first segment that holds a record younger than `min.compaction.lag.ms`. Pure.
 */

/** What the choice needs to know of a segment. */
export interface SegmentView {
  readonly baseOffset: number;
  /** The offset after the segment's last batch. */
  readonly nextOffset: number;
  readonly sizeInBytes: number;
  /** The largest record timestamp, or the file time when no batch has one. */
  readonly largestTimestamp: number;
}

/** One compacted log as the choice sees it. */
export interface LogView {
  /** Every segment in offset order; the last one is the active segment. */
  readonly segments: readonly SegmentView[];
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  /** The cleaner never passes this offset: the high watermark (or last stable offset). */
  readonly uncleanableFromOffset: number;
  /** The cleaner checkpoint of the log, when there is one. */
  readonly checkpointOffset: number | undefined;
  readonly minCompactionLagMs: number;
}

/** The range to clean and the bytes Kafka's ratio is made of. */
export interface CleanableRange {
  readonly firstDirtyOffset: number;
  readonly firstUncleanableOffset: number;
  /** Bytes of the segments before the dirty range (already cleaned). */
  readonly cleanBytes: number;
  /** Bytes of the segments of the dirty range. */
  readonly cleanableBytes: number;
  /** cleanableBytes / (cleanBytes + cleanableBytes), 0 for an empty log. */
  readonly cleanableRatio: number;
  /** The checkpoint was outside the log and must be rewritten even if nothing is cleaned. */
  readonly isCheckpointReset: boolean;
}

/**
 * The segments overlapping [fromOffset, toOffset), as Kafka's logSegments(from, to): the one
 * holding `fromOffset` (the last with a base offset at or below it), then every later segment
 * whose base offset is below `toOffset`.
 */
export function segmentsOverlapping<T extends SegmentView>(
  segments: readonly T[],
  fromOffset: number,
  toOffset: number,
): T[] {
  let first = 0;
  for (let index = 0; index < segments.length; index++) {
    if ((segments[index] as T).baseOffset <= fromOffset) first = index;
  }
  return segments.slice(first).filter((segment) => segment.baseOffset < toOffset);
}

function totalSize(segments: readonly SegmentView[]): number {
  return segments.reduce((sum, segment) => sum + segment.sizeInBytes, 0);
}

/** Where the dirty range starts, as Kafka's cleanableOffsets reads the checkpoint. */
function firstDirtyOffsetOf(log: LogView): { offset: number; isReset: boolean } {
  const checkpoint = log.checkpointOffset;
  if (checkpoint === undefined) return { offset: log.logStartOffset, isReset: false };
  // Retention or DeleteRecords moved the log start past the checkpoint: start there.
  if (checkpoint < log.logStartOffset) return { offset: log.logStartOffset, isReset: false };
  // A checkpoint past the end belongs to an older incarnation of the log (a truncation).
  if (checkpoint > log.logEndOffset) return { offset: log.logStartOffset, isReset: true };
  return { offset: checkpoint, isReset: false };
}

/**
 * The first offset the cleaner may not touch, rounded down to the base offset of the segment
 * holding it, as Kafka's LogToClean does: only whole segments are cleaned.
 */
function firstUncleanableOffsetOf(log: LogView, firstDirtyOffset: number, nowMs: number): number {
  const active = log.segments[log.segments.length - 1];
  let bound = Math.min(active?.baseOffset ?? log.logEndOffset, log.uncleanableFromOffset);
  if (log.minCompactionLagMs > 0) {
    const inactive = segmentsOverlapping(log.segments.slice(0, -1), firstDirtyOffset, Infinity);
    const young = inactive.find(
      (segment) => segment.largestTimestamp > nowMs - log.minCompactionLagMs,
    );
    if (young !== undefined) bound = Math.min(bound, young.baseOffset);
  }
  const holding = segmentsOverlapping(log.segments, bound, bound + 1)[0];
  return holding === undefined ? bound : Math.min(bound, holding.baseOffset);
}

export function cleanableRange(log: LogView, nowMs: number): CleanableRange {
  const firstDirty = firstDirtyOffsetOf(log);
  const firstUncleanableOffset = firstUncleanableOffsetOf(log, firstDirty.offset, nowMs);
  const cleanBytes = totalSize(segmentsOverlapping(log.segments, -1, firstDirty.offset));
  const dirtyEnd = Math.max(firstDirty.offset, firstUncleanableOffset);
  const cleanableBytes = totalSize(segmentsOverlapping(log.segments, firstDirty.offset, dirtyEnd));
  const totalBytes = cleanBytes + cleanableBytes;
  return {
    firstDirtyOffset: firstDirty.offset,
    firstUncleanableOffset,
    cleanBytes,
    cleanableBytes,
    cleanableRatio: totalBytes === 0 ? 0 : cleanableBytes / totalBytes,
    isCheckpointReset: firstDirty.isReset,
  };
}

/**
 * The index of the log to clean: among the logs whose ratio passes their
 * `min.cleanable.dirty.ratio` (strictly, as Kafka compares), the one with the largest ratio;
 * undefined when none qualifies.
 */
export function chooseFilthiestLog(
  candidates: readonly {
    readonly range: CleanableRange;
    readonly minCleanableDirtyRatio: number;
  }[],
): number | undefined {
  let chosen: number | undefined;
  candidates.forEach((candidate, index) => {
    const { range } = candidate;
    if (range.cleanBytes + range.cleanableBytes === 0) return;
    if (range.firstUncleanableOffset <= range.firstDirtyOffset) return;
    if (!(range.cleanableRatio > candidate.minCleanableDirtyRatio)) return;
    const best = chosen === undefined ? undefined : candidates[chosen];
    if (best === undefined || range.cleanableRatio > best.range.cleanableRatio) chosen = index;
  });
  return chosen;
}
