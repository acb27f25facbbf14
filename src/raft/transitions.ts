/**
 * The state machine of a Raft node (KIP-595 with KIP-996 pre-vote):
 *
 *   unattached  -> prospective   a voter's election timeout passes
 *   unattached  -> unattached    it votes in its epoch (durably), or sees a higher epoch
 *   unattached  -> follower      it learns the epoch's leader (BeginQuorumEpoch, a response)
 *   prospective -> candidate     a majority grants the pre-vote (the epoch is bumped only now)
 *   prospective -> follower      the pre-vote is lost or times out and the epoch's leader is known
 *   prospective -> unattached    the pre-vote is lost or times out and no leader is known
 *   candidate   -> leader        a majority grants the vote
 *   candidate   -> prospective   the election is lost or times out, after a random backoff
 *   leader      -> resigned      resign(), check quorum fails, or it left the voter set
 *   resigned    -> prospective   its election timeout passes (a successor should be elected)
 *   any         -> candidate     at start, when it is the only voter (KafkaRaftClient.initialize)
 *   any         -> unattached    a higher epoch without a known leader
 *   any         -> follower      a higher epoch with a known leader
 *
 * Observers (replicas outside the voter set) are only ever unattached or follower. Every
 * transition persists the election state when it changes and reports a leader change, and
 * abandons a snapshot download that belonged to the follower state it left.
 */
import { assert } from "../common/index.js";
import { AppendAccumulator } from "./append-accumulator.js";
import { leaderChangeBatch } from "./control-records.js";
import { binaryExponentialBackoffMs } from "./election-timing.js";
import { knownLeaderId } from "./epoch-state.js";
import { LeaderState } from "./leader-state.js";
import { appendedBatchOf, type NodeCore } from "./node-core.js";
import type { ReplicaKey } from "./types.js";

function reportLeader(core: NodeCore, before: { epoch: number; leaderId: number | null }): void {
  const leaderId = knownLeaderId(core.state, core.config.nodeId);
  if (before.epoch === core.epoch() && before.leaderId === leaderId) return;
  core.out.changeLeader({ leaderId, epoch: core.epoch() });
}

function snapshotOf(core: NodeCore): { epoch: number; leaderId: number | null } {
  // Leaving leadership: poll answers the Fetches and the voter change the leader still holds.
  if (core.state.kind === "leader") core.formerLeader = core.state.leader;
  return { epoch: core.epoch(), leaderId: knownLeaderId(core.state, core.config.nodeId) };
}

/** Becomes unattached in `epoch` (>= the current), with the vote it cast in it, if any. */
export function becomeUnattached(core: NodeCore, epoch: number, votedKey: ReplicaKey | null): void {
  assert(epoch >= core.epoch(), "epochs never go back");
  const before = snapshotOf(core);
  core.state = {
    kind: "unattached",
    epoch,
    votedKey,
    electionDeadlineMs: core.randomElectionDeadlineMs(),
  };
  core.maybeAbandonDownload();
  core.persistElectionState();
  reportLeader(core, before);
}

/** Becomes a follower of `leaderId` in `epoch` (>= the current). */
export function becomeFollower(core: NodeCore, epoch: number, leaderId: number): void {
  assert(epoch >= core.epoch(), "epochs never go back");
  assert(leaderId !== core.config.nodeId, "a node does not follow itself");
  const before = snapshotOf(core);
  core.state = {
    kind: "follower",
    epoch,
    leaderId,
    fetchDeadlineMs: core.nowMs + core.config.timings.fetchTimeoutMs,
    hasFetchedFromLeader: false,
    inflightRequestId: null,
    nextFetchAtMs: core.nowMs,
    awaitingEndOffset: null,
  };
  core.maybeAbandonDownload();
  core.persistElectionState();
  reportLeader(core, before);
}

/** Moves to a higher epoch: following its leader when known, else unattached. */
export function becomeAttachedOrUnattached(core: NodeCore, epoch: number, leaderId: number): void {
  if (leaderId >= 0 && leaderId !== core.config.nodeId) becomeFollower(core, epoch, leaderId);
  else becomeUnattached(core, epoch, null);
}

/** Starts a pre-vote in the current epoch (KIP-996): no epoch bump, no durable vote. */
export function becomeProspective(core: NodeCore, retries: number): void {
  assert(core.isLocalVoter(), "only a voter runs for leader");
  const state = core.state;
  // A vote cast in the epoch stays on record (a candidate voted for itself), so it is never
  // given twice in one epoch.
  let votedKey =
    state.kind === "unattached" || state.kind === "prospective" ? state.votedKey : null;
  if (state.kind === "candidate") votedKey = core.localKey();
  const leaderId = state.kind === "follower" ? state.leaderId : null;
  core.state = {
    kind: "prospective",
    epoch: state.epoch,
    votedKey,
    leaderId,
    granted: new Set([core.config.nodeId]),
    rejected: new Set(),
    retries,
    electionDeadlineMs: core.randomElectionDeadlineMs(),
  };
  core.maybeAbandonDownload();
  core.persistElectionState();
}

/** Starts an election in the next epoch, voting for itself (durably). */
export function becomeCandidate(core: NodeCore, retries: number): void {
  assert(core.isLocalVoter(), "only a voter runs for leader");
  const before = snapshotOf(core);
  core.state = {
    kind: "candidate",
    epoch: core.epoch() + 1,
    granted: new Set([core.config.nodeId]),
    rejected: new Set(),
    retries,
    electionDeadlineMs: core.randomElectionDeadlineMs(),
    backoffUntilMs: null,
  };
  core.maybeAbandonDownload();
  core.persistElectionState();
  reportLeader(core, before);
}

/**
 * At start, the only voter of the quorum stands at once instead of waiting out an election
 * timeout, as KafkaRaftClient.initialize does: nobody else can vote, so a pre-vote could not
 * tell it anything. Answers whether it stood.
 */
export function maybeStandAsOnlyVoter(core: NodeCore): boolean {
  if (!core.voters.latest().isOnlyVoter(core.localKey())) return false;
  const kind = core.state.kind;
  // A candidate (it voted for itself before a restart) already stands; a leader cannot exist
  // at start.
  if (kind === "candidate" || kind === "leader") return false;
  becomeCandidate(core, 0);
  return true;
}

/** A candidate that lost waits a random, exponentially growing backoff before trying again. */
export function startElectionBackoff(core: NodeCore): void {
  const state = core.state;
  assert(state.kind === "candidate", "only a candidate backs off");
  const backoffMs = binaryExponentialBackoffMs(core.random, {
    retries: state.retries,
    electionBackoffMaxMs: core.config.timings.electionBackoffMaxMs,
  });
  state.backoffUntilMs = core.nowMs + backoffMs;
}

/** A prospective node that lost its pre-vote returns to the epoch's leader, if it knew one. */
export function abandonPreVote(core: NodeCore): void {
  const state = core.state;
  assert(state.kind === "prospective", "only a prospective node abandons a pre-vote");
  if (state.leaderId !== null) {
    becomeFollower(core, state.epoch, state.leaderId);
    return;
  }
  const backoffMs = binaryExponentialBackoffMs(core.random, {
    retries: state.retries + 1,
    electionBackoffMaxMs: core.config.timings.electionBackoffMaxMs,
  });
  core.state = {
    kind: "unattached",
    epoch: state.epoch,
    votedKey: state.votedKey,
    electionDeadlineMs: core.randomElectionDeadlineMs() + backoffMs,
  };
  core.maybeAbandonDownload();
  core.persistElectionState();
}

/**
 * Becomes leader of the candidate's epoch: the LeaderChange record is the first batch of the
 * epoch, and the epoch starts at its offset (nothing is committed before one past it).
 */
export function becomeLeader(core: NodeCore): void {
  const state = core.state;
  assert(state.kind === "candidate", "only a candidate becomes leader");
  const before = snapshotOf(core);
  const epochStartOffset = core.log.endOffset;
  const timings = core.config.timings;
  const accumulator = new AppendAccumulator({
    epoch: state.epoch,
    nextOffset: epochStartOffset,
    lingerMs: timings.appendLingerMs,
    batchBytesMax: timings.appendBatchBytesMax,
  });
  const voterSet = core.voters.latest();
  const leader = new LeaderState({
    localKey: core.localKey(),
    epochStartOffset,
    voterSet,
    checkQuorumDeadlineMs: core.nowMs + checkQuorumTimeoutMs(core),
    accumulator,
  });
  core.state = { kind: "leader", epoch: state.epoch, leader };
  core.maybeAbandonDownload();
  const granting = voterSet.voters().filter((voter) => state.granted.has(voter.key.id));
  const batches = accumulator.appendControl((baseOffset) =>
    leaderChangeBatch({
      baseOffset,
      epoch: state.epoch,
      leaderId: core.config.nodeId,
      voters: voterSet.voters().map((voter) => voter.key),
      grantingVoters: granting.map((voter) => voter.key),
      kraftVersion: core.kraftVersion.latest(),
      timestamp: core.nowMs,
      // Under kraft.version 1 a voter set not yet in the log (from the bootstrap checkpoint or
      // the configuration) is written to it, as Kafka's appendStartOfEpochControlRecords does,
      // so that replicas formatted without it (observers that join later) learn it.
      ...(core.kraftVersion.latest() >= 1 && core.voters.latestOffset() < 0
        ? { bootstrapVoters: voterSet }
        : {}),
    }),
  );
  appendAsLeader(core, batches);
  core.persistElectionState();
  reportLeader(core, before);
}

/** A leader appends batches it built: the driver is asked to, and the log view moves on. */
export function appendAsLeader(
  core: NodeCore,
  batches: readonly { readonly bytes: Uint8Array; readonly endOffset: number }[],
): void {
  const state = core.state;
  assert(state.kind === "leader", "only a leader builds batches");
  for (const batch of batches) {
    core.out.append(batch.bytes, batch.endOffset);
    core.noteAppended([appendedBatchOf(batch.bytes)]);
  }
  state.leader.setVoters(core.voters.latest());
}

/** Leaves leadership (graceful or forced): EndQuorumEpoch goes to the other voters. */
export function becomeResigned(core: NodeCore): void {
  const state = core.state;
  assert(state.kind === "leader", "only a leader resigns");
  const preferredSuccessors = state.leader.preferredSuccessors();
  const before = snapshotOf(core);
  core.state = {
    kind: "resigned",
    epoch: state.epoch,
    preferredSuccessors,
    unacknowledged: new Set(preferredSuccessors),
    electionDeadlineMs: core.randomElectionDeadlineMs(),
    retryAtMs: core.nowMs,
  };
  core.maybeAbandonDownload();
  core.persistElectionState();
  reportLeader(core, before);
}

/** Kafka's check-quorum timeout: 1.5 times the fetch timeout. */
export function checkQuorumTimeoutMs(core: NodeCore): number {
  return Math.floor(core.config.timings.fetchTimeoutMs * 1.5);
}
