/**
 * The checks a request passes before it reaches a replica's log, as pure functions of the role:
 * the leader epoch a client or follower believes in (KIP-320), the leader requirement, and
 * min.insync.replicas for acks=all, before the append and after it.
 */
import { ErrorCode } from "../common/index.js";
import { effectiveMinIsr } from "./high-watermark.js";
import { maximalIsr } from "./isr-state.js";
import type { DivergingEpoch, EpochEndOffset } from "./partition-results.js";
import type { PartitionRole } from "./partition-role.js";

/**
 * The error for a request carrying `currentLeaderEpoch` (-1: none given), as Kafka's
 * getLocalLog: FENCED_LEADER_EPOCH when it is older than ours, UNKNOWN_LEADER_EPOCH when newer,
 * then NOT_LEADER_OR_FOLLOWER when `requireLeader` and this broker does not lead.
 */
export function checkLeaderEpoch(
  role: PartitionRole,
  currentLeaderEpoch: number,
  options: { readonly requireLeader: boolean },
): number {
  if (role.kind === "offline") return ErrorCode.KAFKA_STORAGE_ERROR;
  if (currentLeaderEpoch >= 0) {
    if (role.leaderEpoch > currentLeaderEpoch) return ErrorCode.FENCED_LEADER_EPOCH;
    if (role.leaderEpoch < currentLeaderEpoch) return ErrorCode.UNKNOWN_LEADER_EPOCH;
  }
  if (role.kind === "none") return ErrorCode.NOT_LEADER_OR_FOLLOWER;
  if (options.requireLeader && role.kind !== "leader") return ErrorCode.NOT_LEADER_OR_FOLLOWER;
  return ErrorCode.NONE;
}

/** Whether the committed ISR is below the effective min.insync.replicas. */
export function isUnderMinIsr(role: PartitionRole, minInsyncReplicas: number): boolean {
  if (role.kind !== "leader") return false;
  return role.isrState.isr.length < effectiveMinIsr(minInsyncReplicas, role.replicas.length);
}

/**
 * The error an append with `requiredAcks` gets before anything is written: not the leader, or
 * for acks=all an ISR smaller than min.insync.replicas (NOT_ENOUGH_REPLICAS), as Kafka's
 * appendRecordsToLeader.
 */
export function checkAppend(
  role: PartitionRole,
  options: { readonly requiredAcks: number; readonly minInsyncReplicas: number },
): number {
  if (role.kind === "offline") return ErrorCode.KAFKA_STORAGE_ERROR;
  if (role.kind !== "leader") return ErrorCode.NOT_LEADER_OR_FOLLOWER;
  if (options.requiredAcks === -1 && isUnderMinIsr(role, options.minInsyncReplicas)) {
    return ErrorCode.NOT_ENOUGH_REPLICAS;
  }
  return ErrorCode.NONE;
}

/** Whether an acks=all append is done, and with which error. */
export type AcksAllProgress =
  { readonly kind: "waiting" } | { readonly kind: "done"; readonly errorCode: number };

/**
 * Whether an acks=all append ending before `requiredOffset` is done (Kafka's
 * checkEnoughReplicasReachOffset): once the high watermark reaches it, with
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR shrank below min.insync.replicas meanwhile.
 */
export function checkEnoughReplicasReachOffset(
  role: PartitionRole,
  at: {
    readonly requiredOffset: number;
    readonly highWatermark: number;
    readonly minInsyncReplicas: number;
  },
): AcksAllProgress {
  if (role.kind !== "leader") return { kind: "done", errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER };
  if (at.highWatermark < at.requiredOffset) return { kind: "waiting" };
  const minIsr = effectiveMinIsr(at.minInsyncReplicas, role.replicas.length);
  const isEnough = maximalIsr(role.isrState).length >= minIsr;
  return {
    kind: "done",
    errorCode: isEnough ? ErrorCode.NONE : ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
  };
}

/**
 * Kafka's divergence check of a fetch that sent its last fetched epoch, given `end`, where the
 * leader's log has that epoch end: when the leader lacks the epoch, or it ends before the fetch
 * offset, the fetcher must truncate to `epoch` (Fetch v12+ DivergingEpoch, KIP-320).
 */
export function divergenceOf(
  end: EpochEndOffset,
  request: { readonly fetchOffset: number; readonly lastFetchedEpoch: number },
  logStartOffset: number,
):
  | { readonly kind: "error"; readonly errorCode: number }
  | { readonly kind: "checked"; readonly epoch: DivergingEpoch | undefined } {
  const refuse = (errorCode: number) => ({ kind: "error", errorCode }) as const;
  if (end.errorCode !== ErrorCode.NONE) return refuse(end.errorCode);
  if (end.endOffset < 0 || end.leaderEpoch < 0) return refuse(ErrorCode.OFFSET_OUT_OF_RANGE);
  if (request.fetchOffset < logStartOffset) return refuse(ErrorCode.OFFSET_OUT_OF_RANGE);
  if (end.leaderEpoch < request.lastFetchedEpoch || end.endOffset < request.fetchOffset) {
    return { kind: "checked", epoch: { epoch: end.leaderEpoch, endOffset: end.endOffset } };
  }
  return { kind: "checked", epoch: undefined };
}
