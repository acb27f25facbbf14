/**
 * The leader's high watermark rule (Kafka's Partition.maybeIncrementLeaderHW), as a pure
 * function of the replicas' states: the smallest log end offset among the leader and the
 * followers that are in the maximal ISR, or caught up and eligible to join it. Waiting for a
 * caught-up follower outside the ISR keeps it from falling behind forever when the ISR is the
 * leader alone. The caller only moves the high watermark forwards.
 */
import type { BrokerId } from "../common/index.js";
import { isCaughtUp, type FollowerReplicaState } from "./replica-state.js";

/** What the high watermark rule reads. */
export interface HighWatermarkInput {
  readonly leaderLogEndOffset: number;
  readonly followers: Iterable<FollowerReplicaState>;
  /** The maximal ISR: the committed ISR plus a member being added. */
  readonly maximalIsr: readonly BrokerId[];
  readonly nowMs: number;
  readonly replicaLagTimeMaxMs: number;
  /** Whether a follower may join the ISR now (not fenced, not shutting down, epoch known). */
  readonly isEligible: (replica: FollowerReplicaState) => boolean;
}

/**
 * The offset the high watermark may move up to. A follower whose log end offset is unknown
 * (UNKNOWN_OFFSET) and that counts holds it below every real offset, so it cannot move.
 */
export function highWatermarkCandidate(input: HighWatermarkInput): number {
  let candidate = input.leaderLogEndOffset;
  const at = {
    leaderEndOffset: input.leaderLogEndOffset,
    nowMs: input.nowMs,
    replicaLagTimeMaxMs: input.replicaLagTimeMaxMs,
  };
  for (const follower of input.followers) {
    if (follower.logEndOffset >= candidate) continue;
    const counts =
      input.maximalIsr.includes(follower.replicaId) ||
      (isCaughtUp(follower, at) && input.isEligible(follower));
    if (counts) candidate = follower.logEndOffset;
  }
  return candidate;
}

/**
 * Kafka's effective min.insync.replicas: the configured value, but at most the replica count, so
 * that a topic configured beyond its replication factor stays writable as Kafka's is.
 */
export function effectiveMinIsr(minInsyncReplicas: number, replicaCount: number): number {
  return Math.min(minInsyncReplicas, replicaCount);
}
