/**
 * BeginQuorumEpoch (a new leader announces itself to the voters) and EndQuorumEpoch (a leader
 * resigns and names its preferred successors), on both sides (KIP-595).
 */
import { ErrorCode } from "../common/index.js";
import type {
  BeginQuorumEpochRequest,
  BeginQuorumEpochResponse,
  EndQuorumEpochRequest,
  EndQuorumEpochResponse,
} from "../protocol/index.js";
import { strictExponentialBackoffMs } from "./election-timing.js";
import type { InflightRequest, NodeCore } from "./node-core.js";
import { buildBeginQuorumEpochRequest, buildEndQuorumEpochRequest } from "./request-builders.js";
import { buildQuorumEpochResponse } from "./response-builders.js";
import { becomeAttachedOrUnattached, becomeFollower } from "./transitions.js";
import { sameReplica } from "./types.js";
import { directoryOrNull } from "./voter-set.js";

type QuorumEpochApi = "beginQuorumEpoch" | "endQuorumEpoch";

function replyWith(core: NodeCore, api: QuorumEpochApi, requestId: number) {
  return (errorCode: number, partitionErrorCode: number): void => {
    const body = buildQuorumEpochResponse({
      errorCode,
      partitionErrorCode,
      leader: core.leaderAndEpoch(),
    });
    core.respond(requestId, api === "beginQuorumEpoch" ? { api, body } : { api, body });
  };
}

function clusterIdMatches(core: NodeCore, clusterId: string | null): boolean {
  return (
    core.config.clusterId === null || clusterId === null || clusterId === core.config.clusterId
  );
}

/**
 * Follows the leader a BeginQuorumEpoch or EndQuorumEpoch names, when its epoch is newer or
 * this node knows no leader in it; says false when the request contradicts what this node
 * knows (another leader in the same epoch), which is answered INVALID_REQUEST.
 */
function maybeFollow(core: NodeCore, leaderId: number, epoch: number): boolean {
  const state = core.state;
  if (epoch > state.epoch) {
    becomeAttachedOrUnattached(core, epoch, leaderId);
    return true;
  }
  if (state.kind === "follower") return state.leaderId === leaderId;
  if (state.kind === "leader" || state.kind === "resigned") return leaderId === core.config.nodeId;
  if (leaderId === core.config.nodeId) return false;
  becomeFollower(core, epoch, leaderId);
  return true;
}

/** A voter learns of the epoch's leader. */
export function handleBeginQuorumEpochRequest(
  core: NodeCore,
  requestId: number,
  body: BeginQuorumEpochRequest,
): void {
  const reply = replyWith(core, "beginQuorumEpoch", requestId);
  const partition = body.topics[0]?.partitions[0];
  if (partition === undefined) return reply(ErrorCode.INVALID_REQUEST, ErrorCode.NONE);
  if (!clusterIdMatches(core, body.clusterId))
    return reply(ErrorCode.INCONSISTENT_CLUSTER_ID, ErrorCode.NONE);
  if (partition.leaderEpoch < core.epoch())
    return reply(ErrorCode.NONE, ErrorCode.FENCED_LEADER_EPOCH);
  const voterKey = { id: body.voterId, directoryId: directoryOrNull(partition.voterDirectoryId) };
  if (voterKey.id >= 0 && !sameReplica(voterKey, core.localKey())) {
    return reply(ErrorCode.NONE, ErrorCode.INVALID_VOTER_KEY);
  }
  if (!maybeFollow(core, partition.leaderId, partition.leaderEpoch)) {
    return reply(ErrorCode.NONE, ErrorCode.INVALID_REQUEST);
  }
  reply(ErrorCode.NONE, ErrorCode.NONE);
}

/**
 * A voter learns that its leader resigned. It stops trusting the leader (so it grants
 * pre-votes) and shortens its election timeout by its place among the preferred successors.
 */
export function handleEndQuorumEpochRequest(
  core: NodeCore,
  requestId: number,
  body: EndQuorumEpochRequest,
): void {
  const reply = replyWith(core, "endQuorumEpoch", requestId);
  const partition = body.topics[0]?.partitions[0];
  if (partition === undefined) return reply(ErrorCode.INVALID_REQUEST, ErrorCode.NONE);
  if (!clusterIdMatches(core, body.clusterId))
    return reply(ErrorCode.INCONSISTENT_CLUSTER_ID, ErrorCode.NONE);
  if (partition.leaderEpoch < core.epoch())
    return reply(ErrorCode.NONE, ErrorCode.FENCED_LEADER_EPOCH);
  if (!maybeFollow(core, partition.leaderId, partition.leaderEpoch)) {
    return reply(ErrorCode.NONE, ErrorCode.INVALID_REQUEST);
  }
  const state = core.state;
  if (state.kind === "follower" && core.isLocalVoter()) {
    const successors =
      partition.preferredCandidates.length > 0
        ? partition.preferredCandidates.map((candidate) => candidate.candidateId)
        : partition.preferredSuccessors;
    const backoffMs = strictExponentialBackoffMs({
      position: successors.indexOf(core.config.nodeId),
      successorCount: successors.length,
      electionBackoffMaxMs: core.config.timings.electionBackoffMaxMs,
    });
    state.hasFetchedFromLeader = false;
    state.fetchDeadlineMs = Math.min(state.fetchDeadlineMs, core.nowMs + backoffMs);
  }
  reply(ErrorCode.NONE, ErrorCode.NONE);
}

/** The leader notes a voter's acknowledgement of BeginQuorumEpoch, or a newer epoch. */
export function handleBeginQuorumEpochResponse(
  core: NodeCore,
  inflight: InflightRequest,
  body: BeginQuorumEpochResponse,
): void {
  const partition = body.topics[0]?.partitions[0];
  if (partition !== undefined && partition.leaderEpoch > core.epoch()) {
    becomeAttachedOrUnattached(core, partition.leaderEpoch, partition.leaderId);
    return;
  }
  const state = core.state;
  const isAcknowledged =
    body.errorCode === ErrorCode.NONE && partition?.errorCode === ErrorCode.NONE;
  if (state.kind === "leader" && inflight.epoch === state.epoch && isAcknowledged) {
    state.leader.acknowledged.add(inflight.destinationId);
  } else {
    core.retryAtMs.set(inflight.destinationId, core.nowMs + core.config.timings.retryBackoffMs);
  }
}

/** The resigned leader notes a voter's acknowledgement of EndQuorumEpoch, or a newer epoch. */
export function handleEndQuorumEpochResponse(
  core: NodeCore,
  inflight: InflightRequest,
  body: EndQuorumEpochResponse,
): void {
  const partition = body.topics[0]?.partitions[0];
  if (partition !== undefined && partition.leaderEpoch > core.epoch()) {
    becomeAttachedOrUnattached(core, partition.leaderEpoch, partition.leaderId);
    return;
  }
  const state = core.state;
  if (
    state.kind === "resigned" &&
    inflight.epoch === state.epoch &&
    body.errorCode === ErrorCode.NONE
  ) {
    state.unacknowledged.delete(inflight.destinationId);
  }
}

/** A leader announces itself to each voter that has not acknowledged it yet. */
export function sendBeginQuorumEpochRequests(core: NodeCore): void {
  const state = core.state;
  if (state.kind !== "leader") return;
  for (const voter of core.voters.latest().voters()) {
    const id = voter.key.id;
    if (state.leader.acknowledged.has(id) || core.hasInflight("beginQuorumEpoch", id)) continue;
    if (!core.mayContact(id)) continue;
    const body = buildBeginQuorumEpochRequest({
      clusterId: core.config.clusterId,
      epoch: state.epoch,
      leaderId: core.config.nodeId,
      voterKey: voter.key,
      leaderEndpoints: core.config.listeners,
    });
    core.sendRequest(id, { api: "beginQuorumEpoch", body });
  }
}

/** A resigned leader tells each voter that has not acknowledged it that it resigned. */
export function sendEndQuorumEpochRequests(core: NodeCore): void {
  const state = core.state;
  if (state.kind !== "resigned") return;
  const voterSet = core.voters.latest();
  const successors = state.preferredSuccessors
    .map((id) => voterSet.voter(id)?.key)
    .filter((key) => key !== undefined);
  for (const id of state.unacknowledged) {
    if (core.hasInflight("endQuorumEpoch", id) || !core.mayContact(id)) continue;
    const body = buildEndQuorumEpochRequest({
      clusterId: core.config.clusterId,
      epoch: state.epoch,
      leaderId: core.config.nodeId,
      preferredSuccessors: successors,
      leaderEndpoints: core.config.listeners,
    });
    core.sendRequest(id, { api: "endQuorumEpoch", body });
  }
}
