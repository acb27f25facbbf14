/**
 * When the log rolls to a new segment, by Kafka's LogSegment.shouldRoll: the incoming bytes
 * would pass `segment.bytes`, the segment is older than `segment.ms` less its jitter, an index is
 * full, or an offset of the input cannot be stored relative to the segment's base offset; and
 * the options a new segment gets, its jitter among them. Pure.
 */
import type { FileSystem } from "../../ports/index.js";
import { isRelativeOffsetInRange } from "../offset-index.js";
import type { LogConfig, TopicPartition } from "./log-config.js";
import type { SegmentOptions } from "./log-segment.driver.js";

/** The state of the active segment that the roll decision reads. */
export interface ActiveSegmentState {
  readonly baseOffset: number;
  readonly sizeInBytes: number;
  /** The maxTimestamp of the segment's first batch, or -1 (none yet, or it has none). */
  readonly firstBatchTimestamp: number;
  /** When the segment object was created (opened or made), on the log's clock. */
  readonly createdMs: number;
  readonly rollJitterMs: number;
  readonly isOffsetIndexFull: boolean;
  readonly isTimeIndexFull: boolean;
}

/** What is about to be appended. */
export interface IncomingAppend {
  readonly sizeInBytes: number;
  /** The largest batch maxTimestamp of the input (-1 when none). */
  readonly maxTimestamp: number;
  readonly lastOffset: number;
  readonly nowMs: number;
}

/** Why a segment rolls; "none" when it does not. */
export type RollReason =
  "none" | "size" | "time" | "offsetIndexFull" | "timeIndexFull" | "offsetOverflow";

/**
 * How long the segment has waited for a roll: by record time when its first batch has a
 * timestamp, else by the wall clock since the segment was created (Kafka's timeWaitedForRoll).
 */
export function timeWaitedForRollMs(segment: ActiveSegmentState, incoming: IncomingAppend): number {
  if (segment.firstBatchTimestamp >= 0) return incoming.maxTimestamp - segment.firstBatchTimestamp;
  return incoming.nowMs - segment.createdMs;
}

/** The reason the active segment must roll before `incoming` is appended, or "none". */
export function rollReason(
  segment: ActiveSegmentState,
  incoming: IncomingAppend,
  config: Pick<LogConfig, "segmentBytes" | "segmentMs">,
): RollReason {
  const isEmpty = segment.sizeInBytes === 0;
  if (segment.sizeInBytes > config.segmentBytes - incoming.sizeInBytes) return "size";
  if (
    !isEmpty &&
    timeWaitedForRollMs(segment, incoming) > config.segmentMs - segment.rollJitterMs
  ) {
    return "time";
  }
  if (segment.isOffsetIndexFull) return "offsetIndexFull";
  if (segment.isTimeIndexFull) return "timeIndexFull";
  if (!isRelativeOffsetInRange(segment.baseOffset, incoming.lastOffset)) return "offsetOverflow";
  return "none";
}

/**
 * The jitter taken off `segment.ms` for the segment of `baseOffset`. Kafka draws it at random
 * per segment so that partitions created together do not all roll at once; a hash of the
 * partition and the base offset spreads rolls as well and keeps runs deterministic.
 */
export function rollJitterMs(
  config: Pick<LogConfig, "segmentJitterMs" | "segmentMs">,
  seed: { readonly topic: string; readonly partition: number; readonly baseOffset: number },
): number {
  const bound = Math.min(config.segmentJitterMs, config.segmentMs);
  if (bound <= 0) return 0;
  const text = `${seed.topic}/${seed.partition}/${seed.baseOffset}`;
  // FNV-1a over the UTF-16 code units: cheap, and enough to spread values over the bound.
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash % bound;
}

/** The options of the segment based at `baseOffset` of the log in `log.dir` under `config`. */
export function segmentOptionsFor(
  log: {
    readonly fileSystem: FileSystem;
    readonly dir: string;
    readonly topicPartition: TopicPartition;
    /** The log's clock now: the segment's creation time for time-based rolls. */
    readonly nowMs: number;
  },
  config: LogConfig,
  baseOffset: number,
): SegmentOptions {
  return {
    fileSystem: log.fileSystem,
    dir: log.dir,
    baseOffset,
    segmentIndexBytes: config.segmentIndexBytes,
    indexIntervalBytes: config.indexIntervalBytes,
    rollJitterMs: rollJitterMs(config, { ...log.topicPartition, baseOffset }),
    nowMs: log.nowMs,
  };
}
