/**
 * A follower's fetch state per partition and the decisions on it (Kafka's PartitionFetchState
 * and the pure parts of AbstractFetcherThread), as values and pure functions; the replica
 * fetcher applies them.
 *
 * States: `truncating` (the log may hold records the leader does not have: find where it
 * diverges first) → `fetching` (fetch from `fetchOffset` on). A partition returns to truncating
 * when the leader reports a divergence that needs another round. `delayedUntilMs` holds a
 * partition back after an error (`replica.fetch.backoff.ms`).
 */
import { ErrorCode } from "../common/index.js";

/** One partition's fetch state on its follower. */
export interface PartitionFetchState {
  /** The offset the next fetch starts at: the local log end offset after truncation. */
  readonly fetchOffset: number;
  /** The leader epoch this follower believes in (Fetch's CurrentLeaderEpoch). */
  readonly currentLeaderEpoch: number;
  readonly state: "truncating" | "fetching";
  /** The epoch of the last fetched batch (Fetch v12+ LastFetchedEpoch); undefined: none. */
  readonly lastFetchedEpoch: number | undefined;
  /** How far behind the leader's high watermark the last fetch left it; undefined: unknown. */
  readonly lag: number | undefined;
  /** Not fetched before this time, after an error. */
  readonly delayedUntilMs: number | undefined;
}

/** The local log's facts a fetch state is made from. */
export interface LocalLogFacts {
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly latestEpoch: number | undefined;
}

/**
 * The state of a partition a follower starts fetching in `currentLeaderEpoch` (Kafka's
 * initialFetchOffset and addPartitions, with truncation on fetch): a log with epochs fetches
 * from its end and lets the leader's divergence check tell it where to truncate; a log without
 * epochs first truncates to its high watermark, the only offset it knows to be committed.
 */
export function initialFetchState(
  log: LocalLogFacts,
  currentLeaderEpoch: number,
): PartitionFetchState {
  const hasEpochs = log.latestEpoch !== undefined;
  return {
    fetchOffset: hasEpochs ? log.logEndOffset : log.highWatermark,
    currentLeaderEpoch,
    state: hasEpochs ? "fetching" : "truncating",
    lastFetchedEpoch: log.latestEpoch,
    lag: undefined,
    delayedUntilMs: undefined,
  };
}

/** Whether the partition may go into the next fetch request at `nowMs`. */
export function isReadyForFetch(state: PartitionFetchState, nowMs: number): boolean {
  return state.state === "fetching" && !isDelayed(state, nowMs);
}

export function isDelayed(state: PartitionFetchState, nowMs: number): boolean {
  return state.delayedUntilMs !== undefined && state.delayedUntilMs > nowMs;
}

/** The state held back until `nowMs + backoffMs`. */
export function delayed(
  state: PartitionFetchState,
  at: { readonly nowMs: number; readonly backoffMs: number },
): PartitionFetchState {
  return { ...state, delayedUntilMs: at.nowMs + at.backoffMs };
}

/** The leader's answer about an epoch: where its largest epoch at most the asked one ends. */
export interface LeaderEpochEnd {
  /** -1 when the leader knows no such epoch. */
  readonly epoch: number;
  /** -1 when the leader knows no such epoch. */
  readonly endOffset: number;
}

/** Where to truncate, and whether the follower then agrees with the leader up to there. */
export interface TruncationDecision {
  readonly offset: number;
  /** False when another round with the leader is needed (the follower lacks its epoch). */
  readonly isComplete: boolean;
}

/**
 * Where a follower truncates given the leader's epoch end (a Fetch DivergingEpoch or an
 * OffsetsForLeaderEpoch answer), Kafka's getOffsetTruncationState (KIP-101, KIP-279):
 * - the leader knows nothing of our epoch: stay at the current offset (an old leader's answer);
 * - we have the leader's epoch: truncate to the smaller of the two ends of it;
 * - we lack the leader's epoch: truncate to the end of our largest epoch below it and ask again,
 *   which converges in rounds when both logs diverge over several epochs (KIP-279);
 * - we know no epoch that old: truncate to the leader's end of it.
 * Never past the local log end.
 */
export function truncationFor(
  leader: LeaderEpochEnd,
  local: {
    readonly logEndOffset: number;
    readonly fetchOffset: number;
    readonly endOffsetForEpoch: (epoch: number) => LeaderEpochEnd | undefined;
  },
): TruncationDecision {
  if (leader.endOffset < 0) return { offset: local.fetchOffset, isComplete: true };
  if (leader.epoch < 0) {
    return { offset: Math.min(leader.endOffset, local.logEndOffset), isComplete: true };
  }
  const mine = local.endOffsetForEpoch(leader.epoch);
  if (mine === undefined) {
    return { offset: Math.min(leader.endOffset, local.logEndOffset), isComplete: true };
  }
  if (mine.epoch !== leader.epoch) {
    return { offset: Math.min(mine.endOffset, local.logEndOffset), isComplete: false };
  }
  const offset = Math.min(mine.endOffset, leader.endOffset, local.logEndOffset);
  return { offset, isComplete: true };
}

/** The state after a truncation to `decision.offset` left the log with `latestEpoch`. */
export function afterTruncation(
  state: PartitionFetchState,
  decision: TruncationDecision,
  latestEpoch: number | undefined,
): PartitionFetchState {
  return {
    ...state,
    fetchOffset: decision.offset,
    state: decision.isComplete ? "fetching" : "truncating",
    lastFetchedEpoch: latestEpoch,
    delayedUntilMs: undefined,
  };
}

/** The state after fetched batches were appended (or none came) at the leader's `highWatermark`. */
export function afterFetch(
  state: PartitionFetchState,
  fetched: {
    readonly nextOffset: number;
    readonly leaderHighWatermark: number;
    readonly latestEpoch: number | undefined;
  },
): PartitionFetchState {
  return {
    ...state,
    fetchOffset: fetched.nextOffset,
    lag: Math.max(0, fetched.leaderHighWatermark - fetched.nextOffset),
    lastFetchedEpoch: fetched.latestEpoch ?? state.lastFetchedEpoch,
    state: "fetching",
    delayedUntilMs: undefined,
  };
}

/**
 * Where a follower goes on OFFSET_OUT_OF_RANGE (Kafka's fetchOffsetAndTruncate), knowing the
 * leader's log end and start: a leader that ends before us (an unclean election) makes us
 * truncate to its end; a leader whose log starts after our end (we were away while it deleted
 * old segments) makes us restart empty at its start; otherwise fetch on from our end.
 */
export type OutOfRangeDecision =
  | { readonly kind: "truncateTo"; readonly offset: number }
  | { readonly kind: "startAt"; readonly offset: number }
  | { readonly kind: "fetchFrom"; readonly offset: number };

export function outOfRangeDecision(leader: {
  readonly logEndOffset: number;
  readonly logStartOffset: number;
  readonly replicaLogEndOffset: number;
}): OutOfRangeDecision {
  if (leader.logEndOffset < leader.replicaLogEndOffset) {
    return { kind: "truncateTo", offset: leader.logEndOffset };
  }
  if (leader.logStartOffset > leader.replicaLogEndOffset) {
    return { kind: "startAt", offset: leader.logStartOffset };
  }
  return { kind: "fetchFrom", offset: leader.replicaLogEndOffset };
}

/** What a follower does with one partition's error in a Fetch response (Kafka's rules). */
export type FetchErrorAction =
  /** Retry after the backoff. */
  | "backoff"
  /** Ask the leader for its offsets and move the fetch position (see outOfRangeDecision). */
  | "outOfRange"
  /**
   * FENCED_LEADER_EPOCH at the epoch we fetched with: our metadata is behind; stop fetching the
   * partition until new metadata names the leader again (Kafka's onPartitionFenced).
   */
  | "awaitMetadata";

export function fetchErrorAction(errorCode: number): FetchErrorAction {
  if (errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) return "outOfRange";
  if (errorCode === ErrorCode.FENCED_LEADER_EPOCH) return "awaitMetadata";
  return "backoff";
}
