/**
 * What a leader tracks in its epoch (KRaft's LeaderState): each voter's and observer's log end
 * offset and fetch times, the high watermark, which voters fetched since the last check-quorum
 * reset, which voters acknowledged BeginQuorumEpoch, and the pending voter change.
 */
import { assert } from "../common/index.js";
import { AppendAccumulator } from "./append-accumulator.js";
import { computeHighWatermark } from "./high-watermark.js";
import type { ReplicaKey } from "./types.js";
import type { VoterSet } from "./voter-set.js";

/** A replica's progress as the leader saw it in this epoch. */
export interface ReplicaProgress {
  key: ReplicaKey;
  /** The offset up to which the replica holds the log, undefined until it fetches. */
  endOffset: number | undefined;
  /** -1 until it fetches. */
  lastFetchTimestamp: number;
  /** The high watermark in the leader's last Fetch answer to it, -1 before the first. */
  sentHighWatermark: number;
  /** The last time its log reached the leader's end offset, -1 if never. */
  lastCaughtUpTimestamp: number;
  lastFetchLeaderEndOffset: number;
}

/** A voter change (KIP-853) appended and waiting for its commit. */
export interface PendingVoterChange {
  readonly api: "addRaftVoter" | "removeRaftVoter" | "updateRaftVoter";
  /** The inbound request to answer once the VotersRecord commits. */
  readonly requestId: number;
  /** The offset of the VotersRecord. */
  readonly offset: number;
  readonly deadlineMs: number;
  /** The removed voter, for a removal (a removed leader resigns after the commit). */
  readonly removedId: number | null;
}

/** A Fetch the leader holds until new data, a high-watermark move, or its deadline. */
export interface ParkedFetch {
  readonly requestId: number;
  readonly replicaKey: ReplicaKey;
  readonly fetchOffset: number;
  readonly maxBytes: number;
  readonly deadlineMs: number;
}

function newProgress(key: ReplicaKey): ReplicaProgress {
  return {
    key,
    endOffset: undefined,
    lastFetchTimestamp: -1,
    sentHighWatermark: -1,
    lastCaughtUpTimestamp: -1,
    lastFetchLeaderEndOffset: -1,
  };
}

/** The leader's bookkeeping for one epoch. */
export class LeaderState {
  /** The offset of the epoch's LeaderChange record: nothing is exposed before one past it. */
  readonly epochStartOffset: number;
  highWatermark: number | undefined = undefined;
  checkQuorumDeadlineMs: number;
  readonly accumulator: AppendAccumulator;
  readonly acknowledged = new Set<number>();
  readonly parkedFetches: ParkedFetch[] = [];
  voterChange: PendingVoterChange | null = null;
  private voters = new Map<number, ReplicaProgress>();
  private readonly observers = new Map<number, ReplicaProgress>();
  private readonly fetchedVoters = new Set<number>();
  private readonly localId: number;

  constructor(options: {
    readonly localKey: ReplicaKey;
    readonly epochStartOffset: number;
    readonly voterSet: VoterSet;
    readonly checkQuorumDeadlineMs: number;
    readonly accumulator: AppendAccumulator;
  }) {
    this.localId = options.localKey.id;
    this.epochStartOffset = options.epochStartOffset;
    this.checkQuorumDeadlineMs = options.checkQuorumDeadlineMs;
    this.accumulator = options.accumulator;
    this.acknowledged.add(this.localId);
    this.setVoters(options.voterSet);
  }

  /** Re-sorts replicas into voters and observers after the voter set changed. */
  setVoters(voterSet: VoterSet): void {
    const previous = this.voters;
    this.voters = new Map();
    for (const voter of voterSet.voters()) {
      const known = previous.get(voter.key.id) ?? this.observers.get(voter.key.id);
      this.observers.delete(voter.key.id);
      this.voters.set(voter.key.id, known ?? newProgress(voter.key));
    }
    for (const [id, progress] of previous) {
      if (!this.voters.has(id) && id !== this.localId) this.observers.set(id, progress);
    }
  }

  /** True when the id is a voter of the set in force. */
  isVoter(id: number): boolean {
    return this.voters.has(id);
  }

  /** The progress of a replica, voter or observer, if it has fetched or votes. */
  progress(id: number): ReplicaProgress | undefined {
    return this.voters.get(id) ?? this.observers.get(id);
  }

  /** The voters' and observers' progress, each ordered by id. */
  replicas(): { voters: ReplicaProgress[]; observers: ReplicaProgress[] } {
    const byId = (left: ReplicaProgress, right: ReplicaProgress): number =>
      left.key.id - right.key.id;
    return {
      voters: [...this.voters.values()].sort(byId),
      observers: [...this.observers.values()].sort(byId),
    };
  }

  /** Notes the leader's own durable log end offset; says whether the high watermark moved. */
  updateLocalEndOffset(endOffset: number, nowMs: number): boolean {
    const local = this.voters.get(this.localId);
    if (local === undefined) return this.maybeAdvanceHighWatermark();
    assert(local.endOffset === undefined || endOffset >= local.endOffset, "the leader's log grows");
    local.endOffset = endOffset;
    local.lastFetchTimestamp = nowMs;
    local.lastCaughtUpTimestamp = nowMs;
    return this.maybeAdvanceHighWatermark();
  }

  /**
   * Notes a valid Fetch from a replica at `fetchOffset`, as Kafka's updateFollowerState (the
   * caught-up time uses the previous fetch when this one reached that fetch's leader end);
   * says whether the high watermark moved. An unknown replica becomes an observer.
   */
  updateReplica(options: {
    readonly key: ReplicaKey;
    readonly fetchOffset: number;
    readonly nowMs: number;
    readonly leaderEndOffset: number;
  }): boolean {
    const { key, fetchOffset, nowMs, leaderEndOffset } = options;
    let progress = this.progress(key.id);
    if (progress === undefined) {
      progress = newProgress(key);
      this.observers.set(key.id, progress);
    }
    if (fetchOffset >= leaderEndOffset) {
      progress.lastCaughtUpTimestamp = Math.max(progress.lastCaughtUpTimestamp, nowMs);
    } else if (
      progress.lastFetchLeaderEndOffset > 0 &&
      fetchOffset >= progress.lastFetchLeaderEndOffset
    ) {
      progress.lastCaughtUpTimestamp = Math.max(
        progress.lastCaughtUpTimestamp,
        progress.lastFetchTimestamp,
      );
    }
    progress.lastFetchLeaderEndOffset = leaderEndOffset;
    progress.lastFetchTimestamp = Math.max(progress.lastFetchTimestamp, nowMs);
    progress.key = key;
    progress.endOffset = fetchOffset;
    return this.voters.has(key.id) ? this.maybeAdvanceHighWatermark() : false;
  }

  /** Moves the high watermark by the majority rule; says whether it moved. */
  maybeAdvanceHighWatermark(): boolean {
    const next = computeHighWatermark({
      voterEndOffsets: [...this.voters.values()].map((progress) => progress.endOffset),
      epochStartOffset: this.epochStartOffset,
      highWatermark: this.highWatermark,
    });
    if (next === undefined) return false;
    this.highWatermark = next;
    return true;
  }

  /**
   * Notes that a voter fetched (check quorum); once the voters heard from, the leader
   * included, form a majority, the check-quorum deadline moves to `nextDeadlineMs`.
   */
  noteVoterFetch(options: {
    readonly id: number;
    readonly voterSet: VoterSet;
    readonly nextDeadlineMs: number;
  }): void {
    if (!this.voters.has(options.id)) return;
    this.fetchedVoters.add(options.id);
    if (options.voterSet.isMajority([...this.fetchedVoters, this.localId])) {
      this.fetchedVoters.clear();
      this.checkQuorumDeadlineMs = options.nextDeadlineMs;
    }
  }

  /** The other voters, most caught up first (ties by id): the preferred successors. */
  preferredSuccessors(): number[] {
    return [...this.voters.values()]
      .filter((progress) => progress.key.id !== this.localId)
      .sort(
        (left, right) =>
          (right.endOffset ?? -1) - (left.endOffset ?? -1) || left.key.id - right.key.id,
      )
      .map((progress) => progress.key.id);
  }
}
