/**
 * Elections (KIP-595) with pre-vote (KIP-996): sending Vote requests, deciding whether to grant
 * a vote, and counting the answers. A real vote is cast once per epoch and persisted before
 * its response is sent; a pre-vote casts nothing, but a newer epoch in it moves the voter up.
 */
import { ErrorCode } from "../common/index.js";
import type { VoteRequest, VoteResponse } from "../protocol/index.js";
import type { EpochState } from "./epoch-state.js";
import type { InflightRequest, NodeCore } from "./node-core.js";
import { buildVoteRequest } from "./request-builders.js";
import { buildVoteResponse } from "./response-builders.js";
import { becomeAttachedOrUnattached, becomeFollower, becomeUnattached } from "./transitions.js";
import { sameReplica, type OffsetAndEpoch, type ReplicaKey } from "./types.js";
import { directoryOrNull } from "./voter-set.js";

/** True when the candidate's log (last epoch, then end offset) is at least as new as ours. */
export function isLogUpToDate(candidate: OffsetAndEpoch, local: OffsetAndEpoch): boolean {
  if (candidate.epoch !== local.epoch) return candidate.epoch > local.epoch;
  return candidate.offset >= local.offset;
}

/**
 * Whether this node's state lets it grant the vote, as KRaft's EpochState.canGrantVote. A
 * follower grants a pre-vote only before it has fetched from its leader in the epoch: a voter
 * with a live leader refuses, so a rejoining partitioned voter cannot disrupt it. A resigned
 * leader grants pre-votes to up-to-date voters, so its successor can win at once.
 */
export function canGrantVote(
  state: EpochState,
  candidate: {
    readonly key: ReplicaKey;
    readonly isLogUpToDate: boolean;
    readonly isPreVote: boolean;
  },
): boolean {
  const { key, isLogUpToDate: upToDate, isPreVote } = candidate;
  switch (state.kind) {
    case "unattached":
    case "prospective":
      if (isPreVote) return upToDate;
      return state.votedKey !== null ? sameReplica(state.votedKey, key) : upToDate;
    case "candidate":
      return isPreVote && upToDate;
    case "follower":
      return isPreVote && !state.hasFetchedFromLeader && upToDate;
    case "resigned":
      return isPreVote && upToDate;
    case "leader":
      return false;
  }
}

function clusterIdMatches(core: NodeCore, clusterId: string | null): boolean {
  return (
    core.config.clusterId === null || clusterId === null || clusterId === core.config.clusterId
  );
}

/** Answers a Vote request (real or pre-vote). */
export function handleVoteRequest(core: NodeCore, requestId: number, body: VoteRequest): void {
  const reply = (errorCode: number, partitionErrorCode: number, isGranted: boolean): void => {
    const leader = core.leaderAndEpoch();
    core.respond(requestId, {
      api: "vote",
      body: buildVoteResponse({ errorCode, partitionErrorCode, leader, isGranted }),
    });
  };
  const partition = body.topics[0]?.partitions[0];
  if (partition === undefined) return reply(ErrorCode.INVALID_REQUEST, ErrorCode.NONE, false);
  if (!clusterIdMatches(core, body.clusterId)) {
    return reply(ErrorCode.INCONSISTENT_CLUSTER_ID, ErrorCode.NONE, false);
  }
  // A candidate bumps its epoch before asking, so its log cannot hold that epoch yet; a
  // prospective asks in its own epoch, which its log may hold (Kafka's raft client checks both).
  const epoch = partition.candidateEpoch;
  const lastEpoch = partition.lastOffsetEpoch;
  const isIllegalEpoch = partition.preVote ? lastEpoch > epoch : lastEpoch >= epoch;
  if (partition.lastOffset < 0 || lastEpoch < 0 || isIllegalEpoch) {
    return reply(ErrorCode.NONE, ErrorCode.INVALID_REQUEST, false);
  }
  if (partition.candidateEpoch < core.epoch()) {
    return reply(ErrorCode.NONE, ErrorCode.FENCED_LEADER_EPOCH, false);
  }
  const voterKey = { id: body.voterId, directoryId: directoryOrNull(partition.voterDirectoryId) };
  if (voterKey.id >= 0 && !sameReplica(voterKey, core.localKey())) {
    return reply(ErrorCode.NONE, ErrorCode.INVALID_VOTER_KEY, false);
  }
  const isPreVote = partition.preVote;
  // A newer epoch moves this node to it first, for a pre-vote too, as in Kafka's raft client: a
  // pre-vote carries the prospective's own epoch, so a voter left alone in a newer epoch by a
  // lost election brings the others up to it, rather than asking, refused, forever.
  if (partition.candidateEpoch > core.epoch()) {
    becomeUnattached(core, partition.candidateEpoch, null);
  }
  const key = {
    id: partition.candidateId,
    directoryId: directoryOrNull(partition.candidateDirectoryId),
  };
  const candidateLog = { offset: partition.lastOffset, epoch: partition.lastOffsetEpoch };
  const upToDate = isLogUpToDate(candidateLog, core.log.endOffsetAndEpoch());
  const isGranted = canGrantVote(core.state, { key, isLogUpToDate: upToDate, isPreVote });
  const state = core.state;
  if (isGranted && !isPreVote && state.kind !== "unattached") {
    becomeUnattached(core, state.epoch, key);
  } else if (isGranted && !isPreVote && state.kind === "unattached" && state.votedKey === null) {
    // The vote is persisted by this transition, before the response below is sent.
    becomeUnattached(core, state.epoch, key);
  }
  reply(ErrorCode.NONE, ErrorCode.NONE, isGranted);
}

/** Counts a Vote response for the election it belongs to, or learns a newer epoch from it. */
export function handleVoteResponse(
  core: NodeCore,
  inflight: InflightRequest,
  body: VoteResponse,
): void {
  const partition = body.topics[0]?.partitions[0];
  if (body.errorCode !== ErrorCode.NONE || partition === undefined) {
    core.retryAtMs.set(inflight.destinationId, core.nowMs + core.config.timings.retryBackoffMs);
    return;
  }
  if (partition.leaderEpoch > core.epoch()) {
    becomeAttachedOrUnattached(core, partition.leaderEpoch, partition.leaderId);
    return;
  }
  const state = core.state;
  if (inflight.epoch !== state.epoch) return;
  if (state.kind !== "prospective" && state.kind !== "candidate") return;
  const knowsLeader = partition.leaderId >= 0 && partition.leaderId !== core.config.nodeId;
  const isRefusal = !partition.voteGranted;
  if (
    state.kind === "prospective" &&
    knowsLeader &&
    isRefusal &&
    partition.leaderEpoch === state.epoch
  ) {
    // A voter refuses because it still follows the epoch's leader: follow it instead of running.
    becomeFollower(core, state.epoch, partition.leaderId);
    return;
  }
  if (partition.errorCode !== ErrorCode.NONE) {
    core.retryAtMs.set(inflight.destinationId, core.nowMs + core.config.timings.retryBackoffMs);
    return;
  }
  if (partition.voteGranted) state.granted.add(inflight.destinationId);
  else state.rejected.add(inflight.destinationId);
}

/** Sends the election's Vote requests to the voters not yet asked, answered or backing off. */
export function sendVoteRequests(core: NodeCore): void {
  const state = core.state;
  if (state.kind !== "prospective" && state.kind !== "candidate") return;
  const isPreVote = state.kind === "prospective";
  const local = core.log.endOffsetAndEpoch();
  for (const voter of core.voters.latest().voters()) {
    const id = voter.key.id;
    if (id === core.config.nodeId || state.granted.has(id) || state.rejected.has(id)) continue;
    if (core.hasInflight("vote", id) || !core.mayContact(id)) continue;
    const body = buildVoteRequest({
      clusterId: core.config.clusterId,
      // A pre-vote carries the prospective's own epoch (KIP-996's ReplicaEpoch), unbumped.
      epoch: state.epoch,
      candidateKey: core.localKey(),
      voterKey: voter.key,
      lastOffsetEpoch: local.epoch,
      lastOffset: local.offset,
      isPreVote,
    });
    core.sendRequest(id, { api: "vote", body });
  }
}
