/**
 * What a node does at the end of every input, as KafkaRaftClient's poll: move on when a timer
 * has passed (elections, fetch timeout, check quorum, linger, long-poll deadlines, backoff),
 * send the requests its state calls for, and say when it next needs a tick.
 */
import { ErrorCode } from "../common/index.js";
import type {
  CandidateState,
  FollowerState,
  LeaderStateHolder,
  ProspectiveState,
} from "./epoch-state.js";
import { maybeDiscoverLeader, maybeSendFetch } from "./follower-fetch.js";
import { completeParkedFetches, releaseParkedFetches } from "./leader-fetch.js";
import type { NodeCore } from "./node-core.js";
import {
  sendBeginQuorumEpochRequests,
  sendEndQuorumEpochRequests,
} from "./quorum-epoch-handling.js";
import {
  abandonPreVote,
  appendAsLeader,
  becomeCandidate,
  becomeLeader,
  becomeProspective,
  becomeResigned,
  becomeUnattached,
  checkQuorumTimeoutMs,
  startElectionBackoff,
} from "./transitions.js";
import { answerVoterChange, maybeCompleteVoterChange } from "./voter-changes.js";
import { sendVoteRequests } from "./vote-handling.js";

/** A bound on the transitions one poll may chain (prospective, candidate, leader at most). */
const TRANSITIONS_PER_POLL_MAX = 8;

/** Runs the node's timers and sends what its state calls for, until the state settles. */
export function poll(core: NodeCore): void {
  for (let round = 0; round < TRANSITIONS_PER_POLL_MAX; round++) {
    releaseFormerLeader(core);
    const before = core.state;
    pollState(core);
    if (core.state === before) break;
  }
  releaseFormerLeader(core);
}

function releaseFormerLeader(core: NodeCore): void {
  const leader = core.formerLeader;
  if (leader === null) return;
  core.formerLeader = null;
  releaseParkedFetches(core, leader);
  const change = leader.voterChange;
  if (change !== null)
    answerVoterChange(core, change.api, change.requestId, ErrorCode.NOT_LEADER_OR_FOLLOWER);
  leader.voterChange = null;
}

function pollState(core: NodeCore): void {
  const state = core.state;
  switch (state.kind) {
    case "unattached":
      if (!core.isLocalVoter()) return maybeDiscoverLeader(core);
      if (core.nowMs >= state.electionDeadlineMs) becomeProspective(core, 0);
      return;
    case "prospective":
      return pollProspective(core, state);
    case "candidate":
      return pollCandidate(core, state);
    case "leader":
      return pollLeader(core, state);
    case "follower":
      return pollFollower(core, state);
    case "resigned":
      if (core.nowMs < state.electionDeadlineMs) return sendEndQuorumEpochRequests(core);
      if (core.isLocalVoter()) becomeProspective(core, 0);
      else becomeUnattached(core, state.epoch + 1, null);
      return;
  }
}

/** True when the rejections leave too few voters to reach a majority. */
function hasLost(core: NodeCore, rejected: ReadonlySet<number>): boolean {
  const voters = core.voters.latest();
  return (
    voters.size - [...rejected].filter((id) => voters.voter(id) !== undefined).length <
    voters.majoritySize()
  );
}

function pollProspective(core: NodeCore, state: ProspectiveState): void {
  if (!core.isLocalVoter()) return becomeUnattached(core, state.epoch, state.votedKey);
  if (core.voters.latest().isMajority(state.granted)) return becomeCandidate(core, state.retries);
  if (hasLost(core, state.rejected) || core.nowMs >= state.electionDeadlineMs)
    return abandonPreVote(core);
  sendVoteRequests(core);
}

function pollCandidate(core: NodeCore, state: CandidateState): void {
  if (core.voters.latest().isMajority(state.granted)) return becomeLeader(core);
  if (state.backoffUntilMs !== null) {
    if (core.nowMs >= state.backoffUntilMs) becomeProspective(core, state.retries + 1);
    return;
  }
  if (hasLost(core, state.rejected) || core.nowMs >= state.electionDeadlineMs)
    return startElectionBackoff(core);
  sendVoteRequests(core);
}

function pollLeader(core: NodeCore, state: LeaderStateHolder): void {
  const leader = state.leader;
  // A leader that is a majority on its own (one voter) always has its quorum.
  if (core.voters.latest().isMajority([core.config.nodeId])) {
    leader.checkQuorumDeadlineMs = core.nowMs + checkQuorumTimeoutMs(core);
  }
  if (core.nowMs >= leader.checkQuorumDeadlineMs) return becomeResigned(core);
  appendAsLeader(core, leader.accumulator.drain(core.nowMs, false));
  completeParkedFetches(core, leader, false);
  maybeCompleteVoterChange(core);
  if (core.state !== state) return;
  sendBeginQuorumEpochRequests(core);
}

function pollFollower(core: NodeCore, state: FollowerState): void {
  if (core.nowMs >= state.fetchDeadlineMs) {
    if (core.isLocalVoter()) becomeProspective(core, 0);
    else becomeUnattached(core, state.epoch, null);
    return;
  }
  maybeSendFetch(core);
}

/** The earliest time a timer of the node passes: the driver calls tick by then. */
export function nextWakeupMs(core: NodeCore): number {
  const times: number[] = [...core.retryAtMs.values()].filter((time) => time > core.nowMs);
  const state = core.state;
  switch (state.kind) {
    case "unattached":
      times.push(
        core.isLocalVoter()
          ? state.electionDeadlineMs
          : Math.max(core.discoveryAtMs, core.nowMs + core.config.timings.retryBackoffMs),
      );
      break;
    case "prospective":
      times.push(state.electionDeadlineMs);
      break;
    case "candidate":
      times.push(state.backoffUntilMs ?? state.electionDeadlineMs);
      break;
    case "leader":
      times.push(
        state.leader.checkQuorumDeadlineMs,
        ...state.leader.parkedFetches.map((parked) => parked.deadlineMs),
      );
      times.push(
        state.leader.accumulator.lingerDeadlineMs() ?? Infinity,
        state.leader.voterChange?.deadlineMs ?? Infinity,
      );
      break;
    case "follower":
      times.push(state.fetchDeadlineMs);
      if (state.nextFetchAtMs > core.nowMs) times.push(state.nextFetchAtMs);
      break;
    case "resigned":
      times.push(state.electionDeadlineMs);
      break;
  }
  return Math.min(...times);
}
