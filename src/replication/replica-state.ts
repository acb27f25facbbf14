/**
 * What a leader knows about one follower replica from its fetches (Kafka's Replica and
 * ReplicaState): the follower's log start and end offsets, when it last fetched and when it was
 * last caught up with the leader. Pure values and functions; the partition state owns them.
 */
import type { BrokerId } from "../common/index.js";

/** The offset Kafka writes for "not known yet" (UnifiedLog.UnknownOffset). */
export const UNKNOWN_OFFSET = -1;

/** One follower as its leader sees it. */
export interface FollowerReplicaState {
  readonly replicaId: BrokerId;
  /** The follower's log start offset from its last fetch, or UNKNOWN_OFFSET. */
  readonly logStartOffset: number;
  /** The follower's log end offset (its last fetch offset), or UNKNOWN_OFFSET. */
  readonly logEndOffset: number;
  /** The leader's log end offset when the previous fetch arrived. */
  readonly lastFetchLeaderLogEndOffset: number;
  /** When the leader received the follower's last fetch (0 before any). */
  readonly lastFetchTimeMs: number;
  /**
   * The latest time at which the follower had fetched up to the leader's log end offset of that
   * time; its distance from now is the follower's lag (replica.lag.time.max.ms).
   */
  readonly lastCaughtUpTimeMs: number;
  /** The broker epoch the follower's last fetch carried; undefined before any fetch. */
  readonly brokerEpoch: number | undefined;
}

/** A follower the leader has heard nothing from. */
export function emptyReplicaState(replicaId: BrokerId): FollowerReplicaState {
  return {
    replicaId,
    logStartOffset: UNKNOWN_OFFSET,
    logEndOffset: UNKNOWN_OFFSET,
    lastFetchLeaderLogEndOffset: 0,
    lastFetchTimeMs: 0,
    lastCaughtUpTimeMs: 0,
    brokerEpoch: undefined,
  };
}

/** What one follower fetch tells the leader. */
export interface FollowerFetch {
  readonly fetchOffset: number;
  readonly logStartOffset: number;
  readonly fetchTimeMs: number;
  /** The leader's log end offset before the fetch read, as Kafka takes it. */
  readonly leaderEndOffset: number;
  readonly brokerEpoch: number;
}

/**
 * The follower's state after a fetch. It was caught up at the fetch time when it fetched from the
 * leader's end; else at the previous fetch time when it fetched past the leader's end of then.
 * So a follower fed by many small produces still counts as caught up (Kafka's rule).
 */
export function updateFetchState(
  state: FollowerReplicaState,
  fetch: FollowerFetch,
): FollowerReplicaState {
  let lastCaughtUpTimeMs = state.lastCaughtUpTimeMs;
  if (fetch.fetchOffset >= fetch.leaderEndOffset) {
    lastCaughtUpTimeMs = Math.max(lastCaughtUpTimeMs, fetch.fetchTimeMs);
  } else if (fetch.fetchOffset >= state.lastFetchLeaderLogEndOffset) {
    lastCaughtUpTimeMs = Math.max(lastCaughtUpTimeMs, state.lastFetchTimeMs);
  }
  return {
    replicaId: state.replicaId,
    logStartOffset: fetch.logStartOffset,
    logEndOffset: fetch.fetchOffset,
    lastFetchLeaderLogEndOffset: Math.max(fetch.leaderEndOffset, state.lastFetchLeaderLogEndOffset),
    lastFetchTimeMs: fetch.fetchTimeMs,
    lastCaughtUpTimeMs,
    brokerEpoch: fetch.brokerEpoch,
  };
}

/**
 * The follower's state when this broker is elected or re-elected leader. A new leader forgets the
 * follower's offsets: they were learnt under another leader, and a follower must fetch (and so
 * truncate any divergence) before it can hold the high watermark or join the ISR. An ISR member
 * counts as caught up now, others not, so that the ISR is not shrunk at once and the high
 * watermark is not held back by replicas outside it.
 */
export function resetReplicaState(
  state: FollowerReplicaState,
  options: {
    readonly nowMs: number;
    readonly leaderEndOffset: number;
    readonly isNewLeader: boolean;
    readonly isInSync: boolean;
  },
): FollowerReplicaState {
  const lastCaughtUpTimeMs = options.isInSync ? options.nowMs : 0;
  if (options.isNewLeader) {
    return {
      ...emptyReplicaState(state.replicaId),
      lastFetchLeaderLogEndOffset: UNKNOWN_OFFSET,
      lastCaughtUpTimeMs,
    };
  }
  return {
    ...state,
    lastFetchLeaderLogEndOffset: options.leaderEndOffset,
    // A follower outside the ISR must fetch again before it may rejoin.
    lastFetchTimeMs: options.isInSync ? options.nowMs : 0,
    lastCaughtUpTimeMs,
  };
}

/**
 * Whether the follower is caught up: at the leader's log end offset, or caught up within the
 * last `replicaLagTimeMaxMs`.
 */
export function isCaughtUp(
  state: FollowerReplicaState,
  at: {
    readonly leaderEndOffset: number;
    readonly nowMs: number;
    readonly replicaLagTimeMaxMs: number;
  },
): boolean {
  return (
    state.logEndOffset === at.leaderEndOffset ||
    at.nowMs - state.lastCaughtUpTimeMs <= at.replicaLagTimeMaxMs
  );
}
