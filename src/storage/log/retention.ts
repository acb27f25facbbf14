/**
 * Which old segments the log deletes, by Kafka's rules (UnifiedLog.deleteOldSegments): segments
 * wholly below the log start offset; with `cleanup.policy` delete, also the oldest segments while
 * the log is larger than `retention.bytes`, and those whose largest timestamp is older than
 * `retention.ms`. Deletion goes from the oldest segment and stops at the first one that stays.
 * It never takes a segment holding offsets at or above the high watermark (so the log start
 * offset never passes it), nor an empty active segment. Pure.
 */
import type { LogConfig } from "./log-config.js";

/** The facts of a segment that retention reads. */
export interface RetentionSegment {
  readonly baseOffset: number;
  readonly sizeInBytes: number;
  /** Kafka's largestTimestamp: the largest batch timestamp, else the last modification time. */
  readonly largestTimestamp: number;
}

/** The three reasons Kafka deletes segments, in the order it applies them. */
export type RetentionReason = "logStartOffset" | "retentionBytes" | "retentionMs";

/** The state of the log that retention reads. */
export interface RetentionInput {
  readonly segments: readonly RetentionSegment[];
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly nowMs: number;
  readonly config: Pick<LogConfig, "retentionMs" | "retentionBytes" | "cleanupPolicy">;
}

/** The reasons that apply under the config, in order. */
export function retentionReasons(config: RetentionInput["config"]): RetentionReason[] {
  if (!config.cleanupPolicy.delete) return ["logStartOffset"];
  return ["logStartOffset", "retentionBytes", "retentionMs"];
}

/** A predicate over (segment, the next segment if any) built for one reason. */
type ShouldDelete = (segment: RetentionSegment, next: RetentionSegment | undefined) => boolean;

function predicateFor(reason: RetentionReason, input: RetentionInput): ShouldDelete | undefined {
  const { config } = input;
  switch (reason) {
    case "logStartOffset":
      return (_segment, next) => next !== undefined && next.baseOffset <= input.logStartOffset;
    case "retentionBytes": {
      const size = input.segments.reduce((sum, segment) => sum + segment.sizeInBytes, 0);
      if (config.retentionBytes < 0 || size < config.retentionBytes) return undefined;
      let excess = size - config.retentionBytes;
      return (segment) => {
        if (excess - segment.sizeInBytes < 0) return false;
        excess -= segment.sizeInBytes;
        return true;
      };
    }
    case "retentionMs":
      if (config.retentionMs < 0) return undefined;
      return (segment) => input.nowMs - segment.largestTimestamp > config.retentionMs;
  }
}

/** How many of the oldest segments `reason` deletes (Kafka's deletableSegments). */
export function deletableSegmentCount(reason: RetentionReason, input: RetentionInput): number {
  const shouldDelete = predicateFor(reason, input);
  if (shouldDelete === undefined) return 0;
  const { segments } = input;
  let count = 0;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as RetentionSegment;
    const next = segments[index + 1];
    const isLastAndEmpty = next === undefined && segment.sizeInBytes === 0;
    const upperBoundOffset = next === undefined ? input.logEndOffset : next.baseOffset;
    // The high watermark rule keeps the log start offset at or below it.
    if (isLastAndEmpty || upperBoundOffset > input.highWatermark) break;
    if (!shouldDelete(segment, next)) break;
    count++;
  }
  return count;
}
