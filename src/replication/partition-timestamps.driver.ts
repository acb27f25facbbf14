/**
 * ListOffsets on one partition's log: -2 earliest, -1 latest (the high watermark for
 * read_uncommitted, the last stable offset for read_committed, the log end for a replica), -3
 * the max timestamp, -4 the local log start, -5 nothing (no tiered storage), or the first record
 * at or after a timestamp, with KIP-207's OFFSET_NOT_AVAILABLE while a new leader's high
 * watermark is below its epoch start offset.
 */
import { ErrorCode } from "../common/index.js";
import { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, type PartitionLog } from "../storage/index.js";
import {
  lastStableOffsetOf,
  type OffsetLookup,
  type OffsetLookupOptions,
} from "./partition-results.js";
import type { PartitionState } from "./partition-state.js";

/** ListOffsets' EARLIEST_LOCAL_TIMESTAMP (KIP-405): the local log start, as -2 without tiers. */
const EARLIEST_LOCAL_TIMESTAMP = -4;

/**
 * ListOffsets' LATEST_TIERED_TIMESTAMP (v9, KIP-1005): the highest offset in remote storage.
 * Without tiered storage nothing is tiered, and Kafka answers offset -1 and epoch -1.
 */
const LATEST_TIERED_TIMESTAMP = -5;

/** The answer of a ListOffsets lookup of `timestamp` (Partition.fetchOffsetForTimestamp). */
export async function offsetForTimestamp(
  state: PartitionState,
  log: PartitionLog,
  timestamp: number,
  options: OffsetLookupOptions,
): Promise<OffsetLookup> {
  const requireLeader = options.fetchOnlyFromLeader;
  const checked = state.checkLeaderEpoch(options.currentLeaderEpoch, { requireLeader });
  if (checked !== ErrorCode.NONE) return { kind: "error", errorCode: checked };
  const role = state.role;
  // Kafka's lastFetchableOffset: the log end for a replica, the LSO for read_committed.
  const lastFetchableOffset =
    options.isolation === undefined
      ? log.logEndOffset
      : options.isolation === "read_committed"
        ? lastStableOffsetOf(state.highWatermark, log.transactions)
        : state.highWatermark;
  const isHighWatermarkLagging =
    options.isolation !== undefined &&
    role.kind === "leader" &&
    role.leaderEpochStartOffset > state.highWatermark;
  const offsetNotAvailable: OffsetLookup = {
    kind: "error",
    errorCode: ErrorCode.OFFSET_NOT_AVAILABLE,
  };
  if (timestamp === LATEST_TIMESTAMP) {
    if (isHighWatermarkLagging) return offsetNotAvailable;
    const found = { offset: lastFetchableOffset, timestamp: -1, leaderEpoch: state.leaderEpoch };
    return { kind: "found", ...found };
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
