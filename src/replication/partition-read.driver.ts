/**
 * Reads of a partition for Fetch (Kafka's Partition.fetchRecords and readRecords). Consumers
 * (replica id -1) read up to the high watermark, or with read_committed up to the last stable
 * offset, which equals the high watermark until transactions exist. Followers read up to the log
 * end offset and afterwards have their fetch offset recorded, which may grow the ISR and move the
 * high watermark. Any fetcher that sends its last fetched epoch (Fetch v12+) is first checked
 * for divergence (KIP-320, KIP-595), consumers too, as Kafka's readRecords does.
 */
import { ErrorCode, type BrokerId } from "../common/index.js";
import type { Partition } from "./partition.driver.js";
import { lastOffsetForLeaderEpoch } from "./partition-offsets.driver.js";
import type { DivergingEpoch, IsolationLevel, ReadOutcome } from "./partition-results.js";

/** One partition of a Fetch request. */
export interface ReadRequest {
  readonly fetchOffset: number;
  readonly maxBytes: number;
  readonly isolation: IsolationLevel;
  /** The leader epoch the fetcher believes in, or -1. */
  readonly currentLeaderEpoch: number;
  /** -1 for a consumer; a broker id for a follower. */
  readonly replicaId: number;
  /** Return the first batch even beyond maxBytes (KIP-74), unless an earlier partition had data. */
  readonly minOneBatch: boolean;
  readonly nowMs: number;
  /** A follower's log start offset (-1 for consumers). */
  readonly logStartOffset: number;
  /** A follower's broker epoch (-1 when not sent). */
  readonly brokerEpoch: number;
  /** The epoch of the fetcher's last fetched batch, or -1 (Fetch v12+). */
  readonly lastFetchedEpoch: number;
}

/** Reads for `request`; I/O errors propagate to the caller, which maps them. */
export async function readRecords(
  partition: Partition,
  request: ReadRequest,
): Promise<ReadOutcome> {
  const { state, log } = partition;
  const isFollower = request.replicaId >= 0;
  const refuse = (errorCode: number): ReadOutcome => ({
    kind: "error",
    errorCode,
    highWatermark: state.highWatermark,
    logStartOffset: state.logStartOffset,
  });
  const checked = state.checkLeaderEpoch(request.currentLeaderEpoch, { requireLeader: true });
  if (checked !== ErrorCode.NONE) return refuse(checked);
  if (isFollower && state.followerState(request.replicaId as BrokerId) === undefined) {
    // A replica not (yet) in the assignment: with an epoch the pair is unknown to us, so the
    // follower retries; without one we cannot tell who is stale (Kafka's rule).
    const hasEpoch = request.currentLeaderEpoch >= 0;
    return refuse(hasEpoch ? ErrorCode.UNKNOWN_LEADER_EPOCH : ErrorCode.NOT_LEADER_OR_FOLLOWER);
  }
  // The offsets before the read, so that appends during it do not keep a follower out of sync.
  const before = {
    highWatermark: state.highWatermark,
    logStartOffset: log.logStartOffset,
    logEndOffset: log.logEndOffset,
  };
  if (request.lastFetchedEpoch >= 0) {
    const diverging = divergenceOf(partition, request, before.logStartOffset);
    if (diverging.kind === "error") return refuse(diverging.errorCode);
    if (diverging.epoch !== undefined) return emptyRead(before, diverging.epoch);
  }
  const maxOffset = isFollower ? before.logEndOffset : before.highWatermark;
  const read = await log.read({
    fromOffset: request.fetchOffset,
    maxBytes: request.maxBytes,
    maxOffset,
    minOneBatch: request.minOneBatch,
  });
  if (read.kind === "offsetOutOfRange") return refuse(ErrorCode.OFFSET_OUT_OF_RANGE);
  if (isFollower) recordFollowerFetch(partition, request, before.logEndOffset);
  return {
    kind: "records",
    slices: read.slices,
    sizeInBytes: read.sizeInBytes,
    ...before,
    lastStableOffset: before.highWatermark,
    divergingEpoch: undefined,
  };
}

function emptyRead(
  before: { highWatermark: number; logStartOffset: number; logEndOffset: number },
  divergingEpoch: DivergingEpoch,
): ReadOutcome {
  return {
    kind: "records",
    slices: [],
    sizeInBytes: 0,
    ...before,
    lastStableOffset: before.highWatermark,
    divergingEpoch,
  };
}

/**
 * Kafka's divergence check: the end of the fetcher's last fetched epoch in the leader's log;
 * when that epoch is unknown here, or ends before the fetch offset, the fetcher must truncate.
 */
function divergenceOf(
  partition: Partition,
  request: ReadRequest,
  logStartOffset: number,
):
  | { readonly kind: "error"; readonly errorCode: number }
  | { readonly kind: "checked"; readonly epoch: DivergingEpoch | undefined } {
  const end = lastOffsetForLeaderEpoch(partition, request.lastFetchedEpoch, {
    currentLeaderEpoch: request.currentLeaderEpoch,
    requireLeader: false,
  });
  if (end.errorCode !== ErrorCode.NONE) return { kind: "error", errorCode: end.errorCode };
  if (end.endOffset < 0 || end.leaderEpoch < 0) {
    return { kind: "error", errorCode: ErrorCode.OFFSET_OUT_OF_RANGE };
  }
  if (request.fetchOffset < logStartOffset) {
    return { kind: "error", errorCode: ErrorCode.OFFSET_OUT_OF_RANGE };
  }
  if (end.leaderEpoch < request.lastFetchedEpoch || end.endOffset < request.fetchOffset) {
    return { kind: "checked", epoch: { epoch: end.leaderEpoch, endOffset: end.endOffset } };
  }
  return { kind: "checked", epoch: undefined };
}

/** Records a follower's fetch, sending an ISR expansion and publishing a moved HW. */
function recordFollowerFetch(
  partition: Partition,
  request: ReadRequest,
  leaderEndOffset: number,
): void {
  const update = partition.state.updateFollowerFetchState(request.replicaId as BrokerId, {
    fetchOffset: request.fetchOffset,
    logStartOffset: request.logStartOffset,
    fetchTimeMs: request.nowMs,
    leaderEndOffset,
    brokerEpoch: request.brokerEpoch,
  });
  if (update.kind !== "updated") return;
  if (update.alterPartition !== undefined) {
    partition.submitAlterPartition(update.alterPartition, request.nowMs);
  }
  if (update.highWatermarkChanged) partition.publishHighWatermark();
}
