/**
 * The leader's side of replication by pull (KIP-595, KIP-630): validating a replica's Fetch
 * position, answering with log data, a diverging epoch or a snapshot id, holding a Fetch until
 * there is something new (long poll), and serving FetchSnapshot chunks.
 */
import { ErrorCode } from "../common/index.js";
import type { FetchRequest, FetchSnapshotRequest } from "../protocol/index.js";
import type { LeaderState, ParkedFetch, ReplicaProgress } from "./leader-state.js";
import type { NodeCore } from "./node-core.js";
import { buildFetchResponse, buildFetchSnapshotResponse } from "./response-builders.js";
import { checkQuorumTimeoutMs } from "./transitions.js";
import type { Endpoint, OffsetAndEpoch, ReplicaKey, SnapshotId } from "./types.js";
import { directoryOrNull } from "./voter-set.js";

interface FetchAnswer {
  readonly errorCode?: number;
  readonly partitionErrorCode?: number;
  readonly divergingEpoch?: OffsetAndEpoch;
  readonly snapshotId?: SnapshotId;
  readonly read?: { readonly fromOffset: number; readonly maxBytes: number };
  /** The replica answered, whose progress notes the high watermark sent to it. */
  readonly to?: ReplicaProgress;
}

function answerFetch(core: NodeCore, requestId: number, answer: FetchAnswer): void {
  const leaderEndpoint = leaderEndpointOf(core);
  if (answer.to !== undefined) answer.to.sentHighWatermark = core.highWatermark ?? -1;
  const body = buildFetchResponse({
    ...(leaderEndpoint === undefined ? {} : { leaderEndpoint }),
    errorCode: answer.errorCode ?? ErrorCode.NONE,
    partitionErrorCode: answer.partitionErrorCode ?? ErrorCode.NONE,
    leader: core.leaderAndEpoch(),
    highWatermark: core.highWatermark ?? -1,
    logStartOffset: core.log.logStartOffset,
    ...(answer.divergingEpoch === undefined ? {} : { divergingEpoch: answer.divergingEpoch }),
    ...(answer.snapshotId === undefined ? {} : { snapshotId: answer.snapshotId }),
  });
  const read = answer.read === undefined ? null : ({ kind: "log", ...answer.read } as const);
  core.respond(requestId, { api: "fetch", body }, read);
}

function clusterIdMatches(core: NodeCore, clusterId: string | null): boolean {
  return (
    core.config.clusterId === null || clusterId === null || clusterId === core.config.clusterId
  );
}

/**
 * The partition error for a request that only the leader of `epoch` serves, as Kafka's
 * validateLeaderOnlyRequest: an older epoch is fenced, a newer one unknown, and a node that is
 * not the leader says so (with the leader it knows, in the response).
 */
export function leaderOnlyError(core: NodeCore, epoch: number): number {
  if (epoch < core.epoch()) return ErrorCode.FENCED_LEADER_EPOCH;
  if (epoch > core.epoch()) return ErrorCode.UNKNOWN_LEADER_EPOCH;
  if (core.state.kind !== "leader") return ErrorCode.NOT_LEADER_OR_FOLLOWER;
  return ErrorCode.NONE;
}

/** The first endpoint of the leader this node knows: its own when it leads, else the voter's. */
function leaderEndpointOf(core: NodeCore): Endpoint | undefined {
  const { leaderId } = core.leaderAndEpoch();
  if (leaderId < 0) return undefined;
  if (leaderId === core.config.nodeId) return core.config.listeners[0];
  return core.voters.latest().voter(leaderId)?.endpoints[0];
}

/** Notes that a voter reached the leader: it counts for check quorum and acknowledges it. */
function noteContact(core: NodeCore, leader: LeaderState, replicaId: number): void {
  leader.noteVoterFetch({
    id: replicaId,
    voterSet: core.voters.latest(),
    nextDeadlineMs: core.nowMs + checkQuorumTimeoutMs(core),
  });
  if (leader.isVoter(replicaId)) leader.acknowledged.add(replicaId);
}

/** Answers (or parks) a replica's Fetch. */
export function handleFetchRequest(core: NodeCore, requestId: number, body: FetchRequest): void {
  const partition = body.topics[0]?.partitions[0];
  if (!clusterIdMatches(core, body.clusterId)) {
    return answerFetch(core, requestId, { errorCode: ErrorCode.INCONSISTENT_CLUSTER_ID });
  }
  if (partition === undefined || partition.fetchOffset < 0 || partition.lastFetchedEpoch < 0) {
    return answerFetch(core, requestId, { errorCode: ErrorCode.INVALID_REQUEST });
  }
  const error = leaderOnlyError(core, partition.currentLeaderEpoch);
  const state = core.state;
  if (error !== ErrorCode.NONE || state.kind !== "leader") {
    return answerFetch(core, requestId, { partitionErrorCode: error });
  }
  const replicaId = body.replicaState.replicaId >= 0 ? body.replicaState.replicaId : body.replicaId;
  const key = { id: replicaId, directoryId: directoryOrNull(partition.replicaDirectoryId) };
  noteContact(core, state.leader, replicaId);
  const validation = core.log.validateFetch(partition.fetchOffset, partition.lastFetchedEpoch);
  if (validation.kind === "diverging") {
    return answerFetch(core, requestId, { divergingEpoch: validation.divergingEpoch });
  }
  if (validation.kind === "snapshot") {
    return answerFetch(core, requestId, { snapshotId: validation.snapshotId });
  }
  const hasMovedHighWatermark =
    replicaId >= 0 && updateReplica(core, state.leader, key, partition.fetchOffset);
  const maxBytes = Math.min(body.maxBytes, partition.partitionMaxBytes);
  const to = replicaId >= 0 ? state.leader.progress(replicaId) : undefined;
  // As Kafka, a Fetch that moved the high watermark is answered at once to carry it; so is one
  // from a replica last told an older high watermark than this, which it would otherwise learn
  // only when the long poll ends (the lag Kafka's KIP-1166 removes): a broker that does not
  // know a commit yet serves the metadata before it.
  const isToldOlderHighWatermark =
    to !== undefined && to.sentHighWatermark < (core.highWatermark ?? -1);
  if (
    partition.fetchOffset < core.log.endOffset ||
    body.maxWaitMs <= 0 ||
    hasMovedHighWatermark ||
    isToldOlderHighWatermark
  ) {
    const read = { fromOffset: partition.fetchOffset, maxBytes };
    return answerFetch(core, requestId, { read, ...(to === undefined ? {} : { to }) });
  }
  // Nothing new: hold the Fetch until the log grows, the high watermark moves, or maxWaitMs.
  const deadlineMs = core.nowMs + body.maxWaitMs;
  const fetchOffset = partition.fetchOffset;
  state.leader.parkedFetches.push({
    requestId,
    replicaKey: key,
    fetchOffset,
    maxBytes,
    deadlineMs,
  });
}

function updateReplica(
  core: NodeCore,
  leader: LeaderState,
  key: ReplicaKey,
  fetchOffset: number,
): boolean {
  const moved = leader.updateReplica({
    key,
    fetchOffset,
    nowMs: core.nowMs,
    leaderEndOffset: core.log.endOffset,
  });
  if (moved) onHighWatermarkMoved(core, leader);
  return moved;
}

/** Publishes the leader's new high watermark and wakes every parked Fetch to carry it. */
export function onHighWatermarkMoved(core: NodeCore, leader: LeaderState): void {
  if (leader.highWatermark === undefined) return;
  if (core.publishHighWatermark(leader.highWatermark)) completeParkedFetches(core, leader, true);
}

/**
 * Answers the parked Fetches that can be answered: those whose log grew past their offset,
 * those past their deadline, or all of them (`all`, when the high watermark moved).
 */
export function completeParkedFetches(core: NodeCore, leader: LeaderState, all: boolean): void {
  const remaining: ParkedFetch[] = [];
  for (const parked of leader.parkedFetches) {
    const hasData = parked.fetchOffset < core.log.endOffset;
    if (!all && !hasData && parked.deadlineMs > core.nowMs) {
      remaining.push(parked);
      continue;
    }
    const read = hasData
      ? { fromOffset: parked.fetchOffset, maxBytes: parked.maxBytes }
      : undefined;
    const to = parked.replicaKey.id >= 0 ? leader.progress(parked.replicaKey.id) : undefined;
    answerFetch(core, parked.requestId, {
      ...(read === undefined ? {} : { read }),
      ...(to === undefined ? {} : { to }),
    });
  }
  leader.parkedFetches.splice(0, leader.parkedFetches.length, ...remaining);
}

/** Answers the Fetches a former leader still holds: it leads no more, and says who does. */
export function releaseParkedFetches(core: NodeCore, leader: LeaderState): void {
  for (const parked of leader.parkedFetches) {
    answerFetch(core, parked.requestId, { partitionErrorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER });
  }
  leader.parkedFetches.length = 0;
}

/** Serves a chunk of a snapshot to a replica that fetches below the log start (KIP-630). */
export function handleFetchSnapshotRequest(
  core: NodeCore,
  requestId: number,
  body: FetchSnapshotRequest,
): void {
  const partition = body.topics[0]?.partitions[0];
  const reply = (
    errorCode: number,
    partitionErrorCode: number,
    sizeBytes = 0,
    read = false,
  ): void => {
    const snapshotId = partition?.snapshotId ?? { endOffset: -1, epoch: -1 };
    const position = partition?.position ?? 0;
    const response = buildFetchSnapshotResponse({
      errorCode,
      partitionErrorCode,
      leader: core.leaderAndEpoch(),
      snapshotId,
      sizeBytes,
      position,
    });
    const maxBytes = Math.min(body.maxBytes, core.config.timings.snapshotChunkBytes);
    const chunk = read ? ({ kind: "snapshot", snapshotId, position, maxBytes } as const) : null;
    core.respond(requestId, { api: "fetchSnapshot", body: response }, chunk);
  };
  if (!clusterIdMatches(core, body.clusterId)) return reply(ErrorCode.INCONSISTENT_CLUSTER_ID, 0);
  if (partition === undefined) return reply(ErrorCode.INVALID_REQUEST, 0);
  const error = leaderOnlyError(core, partition.currentLeaderEpoch);
  const state = core.state;
  if (error !== ErrorCode.NONE || state.kind !== "leader") return reply(ErrorCode.NONE, error);
  noteContact(core, state.leader, body.replicaId);
  const snapshot = core.log.snapshot(partition.snapshotId);
  if (snapshot === undefined) return reply(ErrorCode.NONE, ErrorCode.SNAPSHOT_NOT_FOUND);
  if (partition.position < 0 || partition.position >= snapshot.sizeBytes) {
    return reply(ErrorCode.NONE, ErrorCode.POSITION_OUT_OF_RANGE);
  }
  reply(ErrorCode.NONE, ErrorCode.NONE, snapshot.sizeBytes, true);
}
