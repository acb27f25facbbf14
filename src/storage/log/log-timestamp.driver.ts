/**
 * ListOffsets by timestamp over the log's segments, as Kafka's fetchOffsetByTimestamp: the first
 * segment whose largest timestamp reaches the target, the time index for where to start in it,
 * a header scan to the first batch that reaches the target, and a decode of that batch only.
 */
import { forEachDecodedRecord } from "../../protocol/index.js";
import { scanBatches, type ScannedBatch } from "./batch-scan.driver.js";
import type { LeaderEpochFileCache } from "../leader-epoch-cache.driver.js";
import type { LogSegment } from "./log-segment.driver.js";

/** The first record at or after a timestamp, as ListOffsets answers. */
export interface TimestampAndOffset {
  readonly offset: number;
  readonly timestamp: number;
  /** The leader epoch of the batch holding the record, or -1 when unknown. */
  readonly leaderEpoch: number;
}

/** ListOffsets' special timestamps (Kafka's ListOffsetsRequest constants). */
export const LATEST_TIMESTAMP = -1;
export const EARLIEST_TIMESTAMP = -2;
export const MAX_TIMESTAMP = -3;

/** What a ListOffsets lookup reads of the log: its segments, oldest first, and its bounds. */
export interface TimestampLookup {
  readonly segments: readonly LogSegment[];
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly epochCache: Pick<LeaderEpochFileCache, "epochForOffset" | "latestEpoch">;
}

/**
 * ListOffsets for `timestampMs`: the earliest or latest offset, the record with the largest
 * timestamp, or the first record at or after the timestamp from the log start, each with the
 * leader epoch of its batch.
 */
export async function fetchOffsetByTimestamp(
  log: TimestampLookup,
  timestampMs: number,
): Promise<TimestampAndOffset | undefined> {
  const { logStartOffset, epochCache } = log;
  if (timestampMs === EARLIEST_TIMESTAMP) {
    const leaderEpoch = epochCache.epochForOffset(logStartOffset) ?? -1;
    return { offset: logStartOffset, timestamp: -1, leaderEpoch };
  }
  if (timestampMs === LATEST_TIMESTAMP) {
    const leaderEpoch = epochCache.latestEpoch() ?? -1;
    return { offset: log.logEndOffset, timestamp: -1, leaderEpoch };
  }
  const options = { startingOffset: logStartOffset };
  if (timestampMs === MAX_TIMESTAMP) return findMaxTimestamp(log.segments, options);
  return findOffsetByTimestamp(log.segments, { ...options, timestampMs });
}

/**
 * The first record at or after `timestampMs` with an offset at or after `startingOffset` in
 * `segments` (oldest first), or undefined when every record is older.
 */
export async function findOffsetByTimestamp(
  segments: readonly LogSegment[],
  options: {
    readonly timestampMs: number;
    readonly startingOffset: number;
  },
): Promise<TimestampAndOffset | undefined> {
  for (const segment of segments) {
    if (segment.maxTimestamp < options.timestampMs || segment.nextOffset <= options.startingOffset)
      continue;
    const found = await findInSegment(segment, options);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The record with the largest timestamp in `segments` (ListOffsets MAX_TIMESTAMP, KIP-734). */
export async function findMaxTimestamp(
  segments: readonly LogSegment[],
  options: { readonly startingOffset: number },
): Promise<TimestampAndOffset | undefined> {
  let best: LogSegment | undefined;
  for (const segment of segments) {
    if (best === undefined || segment.maxTimestamp > best.maxTimestamp) best = segment;
  }
  if (best === undefined || best.maxTimestamp < 0) return undefined;
  return findInSegment(best, { ...options, timestampMs: best.maxTimestamp });
}

async function findInSegment(
  segment: LogSegment,
  options: {
    readonly timestampMs: number;
    readonly startingOffset: number;
  },
): Promise<TimestampAndOffset | undefined> {
  const { timestampMs, startingOffset } = options;
  const fromTime = segment.timeIndex.lookup(timestampMs);
  let position = segment.offsetIndex.lookup(Math.max(fromTime.offset, startingOffset)).position;
  while (position < segment.sizeInBytes) {
    let candidate: ScannedBatch | undefined;
    await scanBatches(
      segment.handle,
      { fromPosition: position, endPosition: segment.sizeInBytes },
      (batch) => {
        if (batch.maxTimestamp < timestampMs || batch.lastOffset < startingOffset) return true;
        candidate = batch;
        return false;
      },
    );
    if (candidate === undefined) return undefined;
    const bytes = await segment.readBytes(candidate.position, candidate.sizeInBytes);
    let found: { offset: number; timestamp: number } | undefined;
    // Records are read one at a time, so a batch that inflates to any size can answer.
    const decoded = forEachDecodedRecord(bytes, (record) => {
      if (found !== undefined || record.timestamp < timestampMs) return;
      if (record.offset >= startingOffset) found = record;
    });
    // A batch that does not decode cannot answer; the search goes on after it.
    if (decoded.ok && found !== undefined) {
      const leaderEpoch = candidate.partitionLeaderEpoch < 0 ? -1 : candidate.partitionLeaderEpoch;
      return { offset: found.offset, timestamp: found.timestamp, leaderEpoch };
    }
    position = candidate.position + candidate.sizeInBytes;
  }
  return undefined;
}
