/**
 * Dynamic voters (KIP-853): AddRaftVoter, RemoveRaftVoter and UpdateRaftVoter at the leader.
 * One change at a time: the new VotersRecord is in force once appended and the request is
 * answered once it commits (or REQUEST_TIMED_OUT at its deadline). A leader that removed
 * itself resigns after the commit.
 */
import { ErrorCode, type Uuid } from "../common/index.js";
import type {
  AddRaftVoterRequest,
  RemoveRaftVoterRequest,
  UpdateRaftVoterRequest,
} from "../protocol/index.js";
import { votersBatch } from "./control-records.js";
import type { LeaderStateHolder } from "./epoch-state.js";
import type { PendingVoterChange } from "./leader-state.js";
import type { NodeCore } from "./node-core.js";
import { buildVoterChangeResponse } from "./response-builders.js";
import { appendAsLeader, becomeResigned } from "./transitions.js";
import { directoryOrNull, SUPPORTED_KRAFT_VERSIONS, type VoterSet } from "./voter-set.js";
import type { ReplicaKey } from "./types.js";

type VoterApi = PendingVoterChange["api"];

/** Answers a voter-change request with an error code (NONE once committed). */
export function answerVoterChange(
  core: NodeCore,
  api: VoterApi,
  requestId: number,
  errorCode: number,
  errorMessage: string | null = null,
): void {
  if (api === "updateRaftVoter") {
    const leader = core.leaderAndEpoch();
    const endpoint = core.config.listeners[0];
    const body = {
      throttleTimeMs: 0,
      errorCode,
      currentLeader: {
        leaderId: leader.leaderId,
        leaderEpoch: leader.epoch,
        host: endpoint?.host ?? "",
        port: endpoint?.port ?? 0,
      },
    };
    core.respond(requestId, { api, body });
    return;
  }
  const body = buildVoterChangeResponse({ errorCode, errorMessage });
  core.respond(requestId, api === "addRaftVoter" ? { api, body } : { api, body });
}

/** The refusal every voter change shares, or null when a change may start now. */
function precheck(core: NodeCore): { errorCode: number; message: string } | null {
  const state = core.state;
  if (state.kind !== "leader")
    return { errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER, message: "not the leader" };
  if (core.kraftVersion.latest() < 1) {
    return {
      errorCode: ErrorCode.UNSUPPORTED_VERSION,
      message: "kraft.version 0 has static voters",
    };
  }
  const highWatermark = state.leader.highWatermark;
  if (highWatermark === undefined) {
    return {
      errorCode: ErrorCode.REQUEST_TIMED_OUT,
      message: "the leader has not committed its epoch yet",
    };
  }
  if (state.leader.voterChange !== null || core.voters.latestOffset() >= highWatermark) {
    return {
      errorCode: ErrorCode.REQUEST_TIMED_OUT,
      message: "a voter change is not committed yet",
    };
  }
  return null;
}

function appendVoters(core: NodeCore, state: LeaderStateHolder, voters: VoterSet): number {
  let offset = -1;
  const batches = state.leader.accumulator.appendControl((baseOffset) => {
    offset = baseOffset;
    return votersBatch({ baseOffset, epoch: state.epoch, voters, timestamp: core.nowMs });
  });
  appendAsLeader(core, batches);
  return offset;
}

function startChange(
  core: NodeCore,
  change: {
    api: VoterApi;
    requestId: number;
    voters: VoterSet;
    timeoutMs: number;
    removedId: number | null;
  },
): void {
  const state = core.state as LeaderStateHolder;
  const offset = appendVoters(core, state, change.voters);
  state.leader.voterChange = {
    api: change.api,
    requestId: change.requestId,
    offset,
    deadlineMs: core.nowMs + change.timeoutMs,
    removedId: change.removedId,
  };
}

/** Adds a voter that has caught up as an observer. */
export function handleAddRaftVoter(
  core: NodeCore,
  requestId: number,
  body: AddRaftVoterRequest,
): void {
  const refuse = (errorCode: number, message: string): void =>
    answerVoterChange(core, "addRaftVoter", requestId, errorCode, message);
  const refusal = precheck(core);
  if (refusal !== null) return refuse(refusal.errorCode, refusal.message);
  const state = core.state as LeaderStateHolder;
  const voters = core.voters.latest();
  if (voters.voter(body.voterId) !== undefined)
    return refuse(ErrorCode.DUPLICATE_VOTER, `${body.voterId} is a voter`);
  const key: ReplicaKey = { id: body.voterId, directoryId: directoryOrNull(body.voterDirectoryId) };
  if (!isCaughtUp(core, state, key)) {
    return refuse(ErrorCode.REQUEST_TIMED_OUT, `${body.voterId} has not caught up as an observer`);
  }
  const endpoints = body.listeners.map(({ name, host, port }) => ({ name, host, port }));
  const voter = {
    key,
    endpoints,
    kraftVersionMin: SUPPORTED_KRAFT_VERSIONS.min,
    kraftVersionMax: SUPPORTED_KRAFT_VERSIONS.max,
  };
  const timeoutMs = body.timeoutMs > 0 ? body.timeoutMs : core.config.timings.fetchTimeoutMs;
  startChange(core, {
    api: "addRaftVoter",
    requestId,
    voters: voters.withVoter(voter),
    timeoutMs,
    removedId: null,
  });
}

/**
 * Whether an observer may join: it fetched within the fetch timeout, and within it its log
 * reached the leader's end offset (Kafka's lastCaughtUpTimestamp).
 */
function isCaughtUp(core: NodeCore, state: LeaderStateHolder, key: ReplicaKey): boolean {
  const progress = state.leader.progress(key.id);
  if (progress === undefined || state.leader.isVoter(key.id)) return false;
  if (key.directoryId !== null && progress.key.directoryId !== key.directoryId) return false;
  const since = core.nowMs - core.config.timings.fetchTimeoutMs;
  return progress.lastFetchTimestamp >= since && progress.lastCaughtUpTimestamp >= since;
}

/** Removes a voter (possibly the leader itself, which then resigns after the commit). */
export function handleRemoveRaftVoter(
  core: NodeCore,
  requestId: number,
  body: RemoveRaftVoterRequest,
): void {
  const refuse = (errorCode: number, message: string): void =>
    answerVoterChange(core, "removeRaftVoter", requestId, errorCode, message);
  const refusal = precheck(core);
  if (refusal !== null) return refuse(refusal.errorCode, refusal.message);
  const voters = core.voters.latest();
  const key: ReplicaKey = { id: body.voterId, directoryId: directoryOrNull(body.voterDirectoryId) };
  if (!voters.isVoter(key))
    return refuse(ErrorCode.VOTER_NOT_FOUND, `${body.voterId} is not a voter`);
  if (voters.size === 1)
    return refuse(ErrorCode.INVALID_REQUEST, "the last voter cannot be removed");
  const timeoutMs = core.config.timings.fetchTimeoutMs;
  startChange(core, {
    api: "removeRaftVoter",
    requestId,
    voters: voters.withoutVoter(key),
    timeoutMs,
    removedId: key.id,
  });
}

/** Updates a voter's listeners and supported kraft.version range. */
export function handleUpdateRaftVoter(
  core: NodeCore,
  requestId: number,
  body: UpdateRaftVoterRequest,
): void {
  const refuse = (errorCode: number): void =>
    answerVoterChange(core, "updateRaftVoter", requestId, errorCode);
  if (body.currentLeaderEpoch < core.epoch()) return refuse(ErrorCode.FENCED_LEADER_EPOCH);
  if (body.currentLeaderEpoch > core.epoch()) return refuse(ErrorCode.UNKNOWN_LEADER_EPOCH);
  const refusal = precheck(core);
  if (refusal !== null) return refuse(refusal.errorCode);
  const voters = core.voters.latest();
  const key: ReplicaKey = {
    id: body.voterId,
    directoryId: directoryOrNull(body.voterDirectoryId) as Uuid | null,
  };
  if (!voters.isVoter(key)) return refuse(ErrorCode.VOTER_NOT_FOUND);
  const feature = body.kRaftVersionFeature;
  const current = core.kraftVersion.latest();
  if (feature.minSupportedVersion > current || feature.maxSupportedVersion < current)
    return refuse(ErrorCode.INVALID_REQUEST);
  const endpoints = body.listeners.map(({ name, host, port }) => ({ name, host, port }));
  const voter = {
    key,
    endpoints,
    kraftVersionMin: feature.minSupportedVersion,
    kraftVersionMax: feature.maxSupportedVersion,
  };
  const updated = voters.withUpdatedVoter(voter);
  if (updated.equals(voters)) return refuse(ErrorCode.NONE);
  startChange(core, {
    api: "updateRaftVoter",
    requestId,
    voters: updated,
    timeoutMs: core.config.timings.fetchTimeoutMs,
    removedId: null,
  });
}

/** Answers the pending change once committed (a removed leader resigns), or at its deadline. */
export function maybeCompleteVoterChange(core: NodeCore): void {
  const state = core.state;
  if (state.kind !== "leader") return;
  const change = state.leader.voterChange;
  if (change === null) return;
  if ((state.leader.highWatermark ?? -1) > change.offset) {
    state.leader.voterChange = null;
    answerVoterChange(core, change.api, change.requestId, ErrorCode.NONE);
    if (change.removedId === core.config.nodeId) becomeResigned(core);
  } else if (change.deadlineMs <= core.nowMs) {
    state.leader.voterChange = null;
    answerVoterChange(
      core,
      change.api,
      change.requestId,
      ErrorCode.REQUEST_TIMED_OUT,
      "the change did not commit in time",
    );
  }
}
