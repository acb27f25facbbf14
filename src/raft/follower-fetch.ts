/**
 * The follower's side of replication by pull: sending Fetch (or FetchSnapshot while a snapshot
 * downloads), truncating on a diverging epoch, appending what the leader sent, following the
 * leader's high watermark, and finding the leader as an observer that knows none.
 */
import { assert, ErrorCode } from "../common/index.js";
import { completeBatches, type FetchResponse } from "../protocol/index.js";
import type { FollowerState } from "./epoch-state.js";
import { appendedBatchOf, type InflightRequest, type NodeCore } from "./node-core.js";
import { buildFetchRequest, buildFetchSnapshotRequest } from "./request-builders.js";
import { becomeAttachedOrUnattached, becomeFollower } from "./transitions.js";

function fetchRequestTo(core: NodeCore, destinationId: number, maxWaitMs: number): number {
  const body = buildFetchRequest({
    clusterId: core.config.clusterId,
    replicaKey: core.localKey(),
    epoch: core.epoch(),
    fetchOffset: core.log.endOffset,
    lastFetchedEpoch: core.log.lastFetchedEpoch(),
    maxWaitMs,
    maxBytes: core.config.timings.fetchMaxBytes,
  });
  return core.sendRequest(destinationId, { api: "fetch", body });
}

/** A follower sends its next Fetch (or FetchSnapshot) once none is in flight and all is durable. */
export function maybeSendFetch(core: NodeCore): void {
  const state = core.state;
  if (state.kind !== "follower" || state.inflightRequestId !== null) return;
  if (state.awaitingEndOffset !== null || state.nextFetchAtMs > core.nowMs) return;
  const download = core.download;
  if (download !== null && download.isInstalling) return;
  if (download !== null) {
    assert(download.leaderId === state.leaderId, "a download continues from its own leader");
    assert(download.epoch === state.epoch, "a download continues in its own epoch");
  }
  if (download === null) {
    state.inflightRequestId = fetchRequestTo(
      core,
      state.leaderId,
      core.config.timings.fetchMaxWaitMs,
    );
    return;
  }
  const body = buildFetchSnapshotRequest({
    clusterId: core.config.clusterId,
    replicaKey: core.localKey(),
    epoch: state.epoch,
    snapshotId: download.snapshotId,
    position: download.position,
    maxBytes: core.config.timings.snapshotChunkBytes,
  });
  state.inflightRequestId = core.sendRequest(state.leaderId, { api: "fetchSnapshot", body });
}

/**
 * An observer that knows no leader asks a random voter, whose answer names the leader; one that
 * knows no other voter (formatted with --no-initial-controllers) asks a random bootstrap server.
 */
export function maybeDiscoverLeader(core: NodeCore): void {
  const state = core.state;
  if (state.kind !== "unattached" || core.isLocalVoter() || core.discoveryAtMs > core.nowMs) return;
  for (const request of core.inflight.values()) if (request.api === "fetch") return;
  const others = core.voters
    .latest()
    .ids()
    .filter((id) => id !== core.config.nodeId);
  const bootstrapCount = core.config.bootstrapServerCount ?? 0;
  const candidates =
    others.length > 0 ? others : Array.from({ length: bootstrapCount }, (_, index) => -(index + 1));
  const destinationId = candidates[core.random.nextInt(Math.max(1, candidates.length))];
  if (destinationId === undefined) return;
  core.discoveryAtMs = core.nowMs + core.config.timings.retryBackoffMs;
  fetchRequestTo(core, destinationId, 0);
}

/**
 * Learns from a response's current leader, as Kafka's maybeHandleCommonResponse: a newer epoch
 * is followed, and a leader named in this epoch is followed by a node that knew none. Says
 * whether the node changed state.
 */
export function maybeFollowNamedLeader(core: NodeCore, leaderId: number, epoch: number): boolean {
  if (epoch > core.epoch()) {
    becomeAttachedOrUnattached(core, epoch, leaderId);
    return true;
  }
  const isUnattached = core.state.kind === "unattached";
  if (epoch === core.epoch() && isUnattached && leaderId >= 0 && leaderId !== core.config.nodeId) {
    becomeFollower(core, epoch, leaderId);
    return true;
  }
  return false;
}

export function handleFetchResponse(
  core: NodeCore,
  inflight: InflightRequest,
  body: FetchResponse,
): void {
  const partition = body.responses[0]?.partitions[0];
  const retryLater = (state: FollowerState | null): void => {
    if (state !== null) state.nextFetchAtMs = core.nowMs + core.config.timings.retryBackoffMs;
  };
  const current = core.state.kind === "follower" ? core.state : null;
  if (current?.inflightRequestId === inflight.requestId) current.inflightRequestId = null;
  if (body.errorCode !== ErrorCode.NONE || partition === undefined) return retryLater(current);
  const leader = partition.currentLeader;
  if (maybeFollowNamedLeader(core, leader.leaderId, leader.leaderEpoch)) return;
  const state = core.state;
  if (state.kind !== "follower" || inflight.epoch !== state.epoch) return;
  if (inflight.destinationId !== state.leaderId) return;
  if (partition.errorCode !== ErrorCode.NONE) return retryLater(state);
  state.fetchDeadlineMs = core.nowMs + core.config.timings.fetchTimeoutMs;
  state.hasFetchedFromLeader = true;
  if (partition.divergingEpoch.epoch >= 0) {
    const diverging = {
      offset: partition.divergingEpoch.endOffset,
      epoch: partition.divergingEpoch.epoch,
    };
    truncateTo(core, core.log.truncationOffsetFor(diverging));
    return;
  }
  if (partition.snapshotId.endOffset >= 0) {
    startDownload(core, state, {
      endOffset: partition.snapshotId.endOffset,
      epoch: partition.snapshotId.epoch,
    });
    return;
  }
  appendFetched(core, state, partition.records);
  if (partition.highWatermark >= 0) {
    core.publishHighWatermark(Math.min(partition.highWatermark, core.log.endOffset));
  }
}

/** Truncates the log where it diverges from the leader's; committed records are never cut. */
export function truncateTo(core: NodeCore, endOffset: number): void {
  assert(endOffset >= (core.highWatermark ?? 0), "a follower never truncates committed records");
  if (endOffset >= core.log.endOffset) return;
  core.out.truncate(endOffset);
  core.log.truncateTo(endOffset);
  core.voters.truncateTo(endOffset);
  core.kraftVersion.truncateTo(endOffset);
  core.persistedEndOffset = Math.min(core.persistedEndOffset, endOffset);
}

/**
 * Starts downloading the snapshot the leader named, from position 0. A download of the same id
 * from the same leader in the same epoch goes on where it was; any other is abandoned first
 * (the transitions already drop those of another leader or epoch, KIP-630).
 */
function startDownload(
  core: NodeCore,
  state: FollowerState,
  snapshotId: { endOffset: number; epoch: number },
): void {
  const download = core.download;
  if (download?.isInstalling === true) return;
  const isSameDownload =
    download !== null &&
    download.snapshotId.endOffset === snapshotId.endOffset &&
    download.snapshotId.epoch === snapshotId.epoch &&
    download.leaderId === state.leaderId &&
    download.epoch === state.epoch;
  if (isSameDownload) return;
  if (download !== null)
    core.out.snapshot({ kind: "abandonSnapshotDownload", snapshotId: download.snapshotId });
  core.download = {
    snapshotId,
    leaderId: state.leaderId,
    epoch: state.epoch,
    position: 0,
    head: new Uint8Array(0),
    isInstalling: false,
  };
}

/** Appends the whole batches the leader sent that continue the log; the rest waits. */
function appendFetched(core: NodeCore, state: FollowerState, records: Uint8Array | null): void {
  if (records === null || records.length === 0) return;
  const walk = completeBatches(records, { maxBatchBytes: Math.max(records.length, 1) });
  if (!walk.ok) return;
  for (const header of walk.batches) {
    if (header.lastOffset < core.log.endOffset) continue;
    if (header.baseOffset !== core.log.endOffset) break;
    const bytes = header.bytes.subarray(0, header.sizeInBytes);
    const batch = appendedBatchOf(bytes);
    if (batch.epoch > state.epoch || batch.epoch < core.log.lastFetchedEpoch()) break;
    core.out.append(bytes, batch.lastOffset + 1);
    core.noteAppended([batch]);
    state.awaitingEndOffset = batch.lastOffset + 1;
  }
}
