/**
 * A partition's offset lookups and DeleteRecords (Kafka's Partition.fetchOffsetForTimestamp,
 * lastOffsetForLeaderEpoch and deleteRecordsOnLeader). Only the leader answers them for clients.
 */
import { ErrorCode } from "../common/index.js";
import { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP } from "../storage/index.js";
import type { Partition } from "./partition.driver.js";
import type {
  DeleteRecordsOutcome,
  EpochEndOffset,
  IsolationLevel,
  OffsetLookup,
} from "./partition-results.js";

/** ListOffsets' EARLIEST_LOCAL_TIMESTAMP (KIP-405): the local log start, as -2 without tiers. */
const EARLIEST_LOCAL_TIMESTAMP = -4;

/**
 * ListOffsets' LATEST_TIERED_TIMESTAMP (v9, KIP-1005): the highest offset in remote storage.
 * Without tiered storage nothing is tiered, and Kafka answers offset -1 and epoch -1.
 */
const LATEST_TIERED_TIMESTAMP = -5;

/**
 * ListOffsets: -2 earliest, -1 latest (the high watermark for read_uncommitted, the last stable
 * offset for read_committed, the log end for a replica), -3 the max timestamp, -4 the local log
 * start, -5 nothing (no tiered storage), or the first record at or after a timestamp. A client's
 * lookup fails with OFFSET_NOT_AVAILABLE while a new leader's high watermark is below its epoch
 * start offset (KIP-207), and finds nothing at or past the last fetchable offset.
 */
export async function fetchOffsetForTimestamp(
  partition: Partition,
  timestamp: number,
  options: { readonly isolation: IsolationLevel | undefined; readonly currentLeaderEpoch: number },
): Promise<OffsetLookup> {
  const { state, log } = partition;
  const checked = state.checkLeaderEpoch(options.currentLeaderEpoch, { requireLeader: true });
  if (checked !== ErrorCode.NONE) return { kind: "error", errorCode: checked };
  const role = state.role;
  const lastFetchableOffset =
    options.isolation === undefined ? log.logEndOffset : state.highWatermark;
  const isHighWatermarkLagging =
    options.isolation !== undefined &&
    role.kind === "leader" &&
    role.leaderEpochStartOffset > state.highWatermark;
  const offsetNotAvailable = { kind: "error", errorCode: ErrorCode.OFFSET_NOT_AVAILABLE } as const;
  if (timestamp === LATEST_TIMESTAMP) {
    if (isHighWatermarkLagging) return offsetNotAvailable;
    return {
      kind: "found",
      offset: lastFetchableOffset,
      timestamp: -1,
      leaderEpoch: state.leaderEpoch,
    };
  }
  if (timestamp === LATEST_TIERED_TIMESTAMP) return { kind: "notFound" };
  const asked = timestamp === EARLIEST_LOCAL_TIMESTAMP ? EARLIEST_TIMESTAMP : timestamp;
  const found = await log.fetchOffsetByTimestamp(asked);
  if (asked === EARLIEST_TIMESTAMP) {
    return found === undefined ? { kind: "notFound" } : { kind: "found", ...found };
  }
  if (
    found !== undefined &&
    (options.isolation === undefined || found.offset < lastFetchableOffset)
  ) {
    return { kind: "found", ...found };
  }
  return isHighWatermarkLagging ? offsetNotAvailable : { kind: "notFound" };
}

/**
 * OffsetForLeaderEpoch: the largest epoch at most `leaderEpoch` in the log and where it ends.
 * A leader that has not yet appended in its epoch answers its epoch with the log end offset,
 * which is where Kafka's leader records the epoch's start at election.
 */
export function lastOffsetForLeaderEpoch(
  partition: Partition,
  leaderEpoch: number,
  options: { readonly currentLeaderEpoch: number; readonly requireLeader: boolean },
): EpochEndOffset {
  const { state, log } = partition;
  const checked = state.checkLeaderEpoch(options.currentLeaderEpoch, options);
  if (checked !== ErrorCode.NONE) return { errorCode: checked, leaderEpoch: -1, endOffset: -1 };
  const latest = log.latestEpoch ?? -1;
  if (state.isLeader && leaderEpoch >= state.leaderEpoch && latest < state.leaderEpoch) {
    return {
      errorCode: ErrorCode.NONE,
      leaderEpoch: state.leaderEpoch,
      endOffset: log.logEndOffset,
    };
  }
  const end = log.endOffsetForEpoch(leaderEpoch);
  return { errorCode: ErrorCode.NONE, leaderEpoch: end.epoch, endOffset: end.endOffset };
}

/**
 * DeleteRecords: moves the log start offset up to `offset` (-1: the high watermark), never past
 * the high watermark (OFFSET_OUT_OF_RANGE), and only where `cleanup.policy` includes delete
 * (POLICY_VIOLATION). Answers the low watermark: the smallest log start offset of the replicas.
 */
export async function deleteRecordsOnLeader(
  partition: Partition,
  offset: number,
): Promise<DeleteRecordsOutcome> {
  const { state, log } = partition;
  if (state.role.kind === "offline")
    return { kind: "error", errorCode: ErrorCode.KAFKA_STORAGE_ERROR };
  if (!state.isLeader) return { kind: "error", errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER };
  if (!partition.options.config().log.cleanupPolicy.delete) {
    return { kind: "error", errorCode: ErrorCode.POLICY_VIOLATION };
  }
  const requested = offset === -1 ? state.highWatermark : offset;
  if (requested < 0 || requested > state.highWatermark) {
    return { kind: "error", errorCode: ErrorCode.OFFSET_OUT_OF_RANGE };
  }
  await log.maybeIncrementLogStartOffset(requested);
  state.recordLogStartOffset(log.logStartOffset);
  return { kind: "deleted", lowWatermark: lowWatermarkOf(partition) };
}

/** Kafka's lowWatermarkIfLeader: the smallest log start offset over the leader and followers. */
function lowWatermarkOf(partition: Partition): number {
  const role = partition.state.role;
  let lowWatermark = partition.log.logStartOffset;
  if (role.kind !== "leader") return lowWatermark;
  for (const follower of role.followers.values()) {
    lowWatermark = Math.min(lowWatermark, follower.logStartOffset);
  }
  return lowWatermark;
}
