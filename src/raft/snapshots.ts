/**
 * Snapshots (KIP-630): creating one at a committed offset, deleting the log before it once it
 * is written, downloading one from the leader with FetchSnapshot, and resetting the log to it.
 */
import { ErrorCode } from "../common/index.js";
import { BatchLayout, type FetchSnapshotResponse } from "../protocol/index.js";
import { controlRecordsOf, snapshotHeaderBatch } from "./control-records.js";
import type { SnapshotDownload } from "./epoch-state.js";
import { maybeFollowNamedLeader } from "./follower-fetch.js";
import type { InflightRequest, NodeCore } from "./node-core.js";
import { VoterSet } from "./voter-set.js";
import type { SnapshotId, SnapshotInfo } from "./types.js";

export type CreateSnapshotResult =
  | {
      readonly ok: true;
      readonly snapshotId: SnapshotId;
      /**
       * The snapshot's first batch (offset 0): SnapshotHeader, then KRaftVersion and Voters
       * under kraft.version 1. The state's batches follow it with offsets counting on.
       */
      readonly headerBatch: Uint8Array;
    }
  | { readonly ok: false; readonly reason: "notCommitted" | "notNewer" };

/** Checks that a snapshot may be taken at `endOffset` and describes its id and header. */
export function createSnapshot(
  core: NodeCore,
  options: { readonly endOffset: number; readonly lastContainedLogTimestamp: number },
): CreateSnapshotResult {
  const { endOffset } = options;
  if (endOffset > (core.highWatermark ?? 0) || endOffset > core.log.endOffset || endOffset <= 0) {
    return { ok: false, reason: "notCommitted" };
  }
  if (
    endOffset <= (core.log.latestSnapshot()?.snapshotId.endOffset ?? 0) ||
    endOffset <= core.log.logStartOffset
  ) {
    return { ok: false, reason: "notNewer" };
  }
  const snapshotId = { endOffset, epoch: core.log.epochOfOffset(endOffset - 1) };
  const headerBatch = snapshotHeaderBatch({
    epoch: snapshotId.epoch,
    lastContainedLogTimestamp: options.lastContainedLogTimestamp,
    kraftVersion: core.kraftVersion.atEndOffset(endOffset),
    voters: core.voters.atEndOffset(endOffset),
  });
  return { ok: true, snapshotId, headerBatch };
}

/**
 * A snapshot is complete on disk: the log before it and the older snapshots can go, and the
 * log start offset moves to the snapshot's end offset.
 */
export function snapshotWritten(core: NodeCore, info: SnapshotInfo): void {
  core.log.addSnapshot(info);
  const before = core.log.logStartOffset;
  const deleted = core.log.deleteBeforeLatestSnapshot();
  if (core.log.logStartOffset > before) {
    core.out.snapshot({ kind: "deleteLogBefore", offset: core.log.logStartOffset });
    core.voters.dropBefore(core.log.logStartOffset);
    core.kraftVersion.dropBefore(core.log.logStartOffset);
  }
  for (const snapshotId of deleted) core.out.snapshot({ kind: "deleteSnapshot", snapshotId });
}

function sameId(left: SnapshotId, right: { endOffset: number; epoch: number }): boolean {
  return left.endOffset === right.endOffset && left.epoch === right.epoch;
}

/** The follower writes a downloaded chunk and asks for the next, or installs the whole. */
export function handleFetchSnapshotResponse(
  core: NodeCore,
  inflight: InflightRequest,
  body: FetchSnapshotResponse,
): void {
  const state = core.state.kind === "follower" ? core.state : null;
  if (state?.inflightRequestId === inflight.requestId) state.inflightRequestId = null;
  const partition = body.topics[0]?.partitions[0];
  const download = core.download;
  if (state === null || body.errorCode !== ErrorCode.NONE || partition === undefined) return;
  if (
    maybeFollowNamedLeader(
      core,
      partition.currentLeader.leaderId,
      partition.currentLeader.leaderEpoch,
    )
  )
    return;
  if (inflight.epoch !== state.epoch || download === null || download.isInstalling) return;
  // Only the bytes of the download's own leader and epoch continue its file.
  if (inflight.destinationId !== download.leaderId || inflight.epoch !== download.epoch) return;
  if (partition.errorCode !== ErrorCode.NONE) {
    // The snapshot is gone or the position wrong: start over from a Fetch, which names the
    // leader's current snapshot.
    core.out.snapshot({ kind: "abandonSnapshotDownload", snapshotId: download.snapshotId });
    core.download = null;
    state.nextFetchAtMs = core.nowMs + core.config.timings.retryBackoffMs;
    return;
  }
  if (
    !sameId(download.snapshotId, partition.snapshotId) ||
    partition.position !== download.position
  )
    return;
  state.fetchDeadlineMs = core.nowMs + core.config.timings.fetchTimeoutMs;
  state.hasFetchedFromLeader = true;
  const bytes = partition.unalignedRecords ?? new Uint8Array(0);
  writeChunk(core, download, bytes);
  if (download.position >= partition.size) {
    download.isInstalling = true;
    core.out.snapshot({
      kind: "installSnapshot",
      snapshotId: download.snapshotId,
      sizeBytes: partition.size,
    });
  }
}

function writeChunk(core: NodeCore, download: SnapshotDownload, bytes: Uint8Array): void {
  if (bytes.length === 0) return;
  core.out.snapshot({
    kind: "writeSnapshotChunk",
    snapshotId: download.snapshotId,
    position: download.position,
    bytes,
  });
  download.position += bytes.length;
  if (firstBatchLength(download.head) === undefined) {
    const head = new Uint8Array(download.head.length + bytes.length);
    head.set(download.head);
    head.set(bytes, download.head.length);
    download.head = head;
  }
}

/** The size of the first batch of `bytes` once it is whole, else undefined. */
function firstBatchLength(bytes: Uint8Array): number | undefined {
  if (bytes.length < BatchLayout.LOG_OVERHEAD) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = BatchLayout.LOG_OVERHEAD + view.getInt32(BatchLayout.BATCH_LENGTH);
  return bytes.length >= size ? size : undefined;
}

/**
 * The driver installed the downloaded snapshot and reset the log to start at its end: the
 * voter set and kraft.version come from its first batch, and fetching resumes after it.
 */
export function snapshotLoaded(core: NodeCore, info: SnapshotInfo): void {
  const download = core.download;
  if (download === null || !sameId(download.snapshotId, info.snapshotId) || !download.isInstalling)
    return;
  core.download = null;
  const endOffset = info.snapshotId.endOffset;
  const firstLength = firstBatchLength(download.head);
  const records =
    firstLength === undefined ? [] : controlRecordsOf(download.head.subarray(0, firstLength));
  let voters = core.voters.atEndOffset(0);
  let kraftVersion = core.kraftVersion.atEndOffset(0);
  for (const record of records) {
    if (record.value.type === "kraftVoters") voters = VoterSet.fromVotersRecord(record.value.data);
    if (record.value.type === "kraftVersion") kraftVersion = record.value.data.kRaftVersion;
  }
  core.log.resetToSnapshot(info);
  core.voters.resetTo(endOffset, voters);
  core.kraftVersion.resetTo(endOffset, kraftVersion);
  core.persistedEndOffset = endOffset;
  core.publishHighWatermark(endOffset);
  if (core.state.kind === "follower") core.state.nextFetchAtMs = core.nowMs;
}
