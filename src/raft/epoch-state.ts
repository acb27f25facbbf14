/**
 * The per-epoch states of a Raft node, as KRaft's EpochState classes: what the node knows and
 * waits for in its current role. The transitions between them live in transitions.ts.
 */
import type { LeaderState } from "./leader-state.js";
import type { ReplicaKey, SnapshotId } from "./types.js";

/** No leader known in the epoch; a voter waits for its election timeout, an observer looks. */
export interface UnattachedState {
  readonly kind: "unattached";
  readonly epoch: number;
  /** The candidate this node voted for in the epoch, if any (durable). */
  readonly votedKey: ReplicaKey | null;
  electionDeadlineMs: number;
}

/** A voter asking for pre-votes (KIP-996) without bumping the epoch or voting. */
export interface ProspectiveState {
  readonly kind: "prospective";
  readonly epoch: number;
  readonly votedKey: ReplicaKey | null;
  /** The leader this node followed in the epoch, if any; it returns to it after a loss. */
  readonly leaderId: number | null;
  readonly granted: Set<number>;
  readonly rejected: Set<number>;
  /** How many elections this node has lost in a row, for the backoff. */
  readonly retries: number;
  electionDeadlineMs: number;
}

/** A voter that bumped the epoch, voted for itself and asks for votes. */
export interface CandidateState {
  readonly kind: "candidate";
  readonly epoch: number;
  readonly granted: Set<number>;
  readonly rejected: Set<number>;
  readonly retries: number;
  electionDeadlineMs: number;
  /** Set once the election is lost: the time the node may try again (as prospective). */
  backoffUntilMs: number | null;
}

/** The elected leader of the epoch. */
export interface LeaderStateHolder {
  readonly kind: "leader";
  readonly epoch: number;
  readonly leader: LeaderState;
}

/**
 * A snapshot download in progress (KIP-630). It belongs to the follower state of one leader in
 * one epoch: another leader's file for the same id holds other bytes (its own header
 * timestamp, possibly a header of another length), so resuming from it would splice two files.
 */
export interface SnapshotDownload {
  readonly snapshotId: SnapshotId;
  /** The leader the bytes come from. */
  readonly leaderId: number;
  /** The epoch in which that leader serves them. */
  readonly epoch: number;
  /** The bytes written so far; the next FetchSnapshot asks from here. */
  position: number;
  /** The first bytes of the file, kept until its first batch (the control records) is whole. */
  head: Uint8Array;
  /** Set once every byte is written and the driver was told to install it. */
  isInstalling: boolean;
}

/** A replica that knows the epoch's leader and fetches from it. */
export interface FollowerState {
  readonly kind: "follower";
  readonly epoch: number;
  readonly leaderId: number;
  /** A voter elects, an observer forgets the leader, when nothing is heard by then. */
  fetchDeadlineMs: number;
  /** Whether a fetch succeeded in this state; a voter then refuses pre-votes (KIP-996). */
  hasFetchedFromLeader: boolean;
  /** The id of the Fetch or FetchSnapshot in flight, if any. */
  inflightRequestId: number | null;
  /** When the next Fetch may be sent (after a failure, or once appends are durable). */
  nextFetchAtMs: number;
  /** The log end offset the driver must confirm before the next fetch, if any. */
  awaitingEndOffset: number | null;
}

/** A leader that gave up its epoch and waits for a successor (graceful shutdown, check quorum). */
export interface ResignedState {
  readonly kind: "resigned";
  readonly epoch: number;
  readonly preferredSuccessors: readonly number[];
  /** Voters that have not acknowledged EndQuorumEpoch yet. */
  readonly unacknowledged: Set<number>;
  electionDeadlineMs: number;
  retryAtMs: number;
}

export type EpochState =
  | UnattachedState
  | ProspectiveState
  | CandidateState
  | LeaderStateHolder
  | FollowerState
  | ResignedState;

/**
 * The leader id a state vouches for in its epoch, or null. A prospective node has stopped
 * trusting the leader it followed, so it names none (naming it would send other prospective
 * voters back to a dead leader).
 */
export function knownLeaderId(state: EpochState, localId: number): number | null {
  switch (state.kind) {
    case "leader":
      return localId;
    case "follower":
      return state.leaderId;
    case "prospective":
    case "unattached":
    case "candidate":
    case "resigned":
      return null;
  }
}
