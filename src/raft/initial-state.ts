/**
 * The state a node starts in, from its persisted election state and its log, as KRaft's
 * QuorumState.initialize: a log with a newer epoch than the file wins; a node that led the
 * epoch cannot lead it again (resigned); one that voted for itself stands again; one that
 * voted for another keeps that vote; one that knew a leader follows it.
 */
import { ZERO_UUID } from "../common/index.js";
import type { RaftConfig } from "./config.js";
import type { EpochState } from "./epoch-state.js";
import type { QuorumStateToPersist } from "./output.js";
import type { ReplicaKey } from "./types.js";
import { directoryOrNull } from "./voter-set.js";

/** The election state as read from the quorum-state file (QuorumStateData). */
export interface PersistedElectionState {
  readonly leaderId: number;
  readonly leaderEpoch: number;
  readonly votedId: number;
  /** The zero UUID (or an empty string) when unknown. */
  readonly votedDirectoryId: string;
}

/** The election state of a node that never wrote one. */
export const EMPTY_ELECTION_STATE: PersistedElectionState = {
  leaderId: -1,
  leaderEpoch: 0,
  votedId: -1,
  votedDirectoryId: ZERO_UUID,
};

/** The starting state and what is on disk, computed for a node about to start at `nowMs`. */
export function initialState(options: {
  readonly config: RaftConfig;
  readonly persisted: PersistedElectionState;
  readonly logLastEpoch: number;
  readonly isVoter: boolean;
  readonly nowMs: number;
  readonly electionTimeoutMs: number;
}): { state: EpochState; persisted: QuorumStateToPersist } {
  const { config, persisted, nowMs } = options;
  const onDisk: QuorumStateToPersist = {
    leaderId: persisted.leaderId,
    leaderEpoch: persisted.leaderEpoch,
    votedId: persisted.votedId,
    votedDirectoryId: directoryOrNull(persisted.votedDirectoryId || ZERO_UUID) ?? ZERO_UUID,
  };
  const electionDeadlineMs = nowMs + options.electionTimeoutMs;
  const epoch = Math.max(persisted.leaderEpoch, options.logLastEpoch);
  const unattached = (votedKey: ReplicaKey | null): EpochState => ({
    kind: "unattached",
    epoch,
    votedKey,
    electionDeadlineMs,
  });
  if (options.logLastEpoch > persisted.leaderEpoch)
    return { state: unattached(null), persisted: onDisk };
  if (persisted.leaderId === config.nodeId) {
    return { state: resignedAtStart(epoch, electionDeadlineMs, nowMs), persisted: onDisk };
  }
  if (persisted.leaderId >= 0) {
    const state: EpochState = {
      kind: "follower",
      epoch,
      leaderId: persisted.leaderId,
      fetchDeadlineMs: nowMs + config.timings.fetchTimeoutMs,
      hasFetchedFromLeader: false,
      inflightRequestId: null,
      nextFetchAtMs: nowMs,
      awaitingEndOffset: null,
    };
    return { state, persisted: onDisk };
  }
  if (persisted.votedId >= 0) {
    const votedKey = {
      id: persisted.votedId,
      directoryId: directoryOrNull(persisted.votedDirectoryId || ZERO_UUID),
    };
    if (votedKey.id === config.nodeId && options.isVoter) {
      // It voted for itself: it stands again in the same epoch, where no other vote is possible.
      const state: EpochState = {
        kind: "candidate",
        epoch,
        granted: new Set([config.nodeId]),
        rejected: new Set(),
        retries: 1,
        electionDeadlineMs,
        backoffUntilMs: null,
      };
      return { state, persisted: onDisk };
    }
    return { state: unattached(votedKey), persisted: onDisk };
  }
  return { state: unattached(null), persisted: onDisk };
}

/** A node that led its epoch before a restart may not lead it again: it starts resigned. */
function resignedAtStart(epoch: number, electionDeadlineMs: number, nowMs: number): EpochState {
  return {
    kind: "resigned",
    epoch,
    preferredSuccessors: [],
    unacknowledged: new Set(),
    electionDeadlineMs,
    retryAtMs: nowMs,
  };
}
