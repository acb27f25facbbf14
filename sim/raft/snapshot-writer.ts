/**
 * Snapshots taken by the simulated state machine now and then: at the last batch boundary at or
 * below the node's high watermark, holding the state digest of everything below it. The file
 * becomes durable with the next flush, and only then does the node hear `snapshotWritten`.
 */
import type { RaftChecker } from "./checker.js";
import type { RaftProcess } from "./raft-process.js";
import type { StoredBatch } from "./disk-state.js";
import { digestOfLog, snapshotFile } from "./state-digest.js";

/** A snapshot is taken only once this many offsets were committed since the latest one. */
const offsetsBetweenSnapshotsMin = 4;

/** Takes a snapshot on `process` if it is useful now; says whether it did. */
export function maybeWriteSnapshot(
  process: RaftProcess,
  checker: RaftChecker,
  nowMs: number,
): boolean {
  const node = process.node;
  const highWatermark = node?.highWatermark ?? null;
  if (node === null || highWatermark === null || process.isWritingSnapshot) return false;
  const state = process.visibleDisk;
  const below = state.firstBatchAtOrAfter(highWatermark);
  const last = state.batches[below - 1] as StoredBatch | undefined;
  if (last === undefined) return false;
  const endOffset = last.lastOffset + 1;
  const latestEnd = state.latestSnapshot()?.snapshotId.endOffset ?? 0;
  if (endOffset - latestEnd < offsetsBetweenSnapshotsMin) return false;
  const digest = digestOfLog(state, endOffset);
  if (digest === undefined) return false;
  const result = node.createSnapshot({ endOffset, lastContainedLogTimestamp: nowMs });
  if (!result.ok) return false;
  const bytes = snapshotFile({
    snapshotId: result.snapshotId,
    headerBatch: result.headerBatch,
    digest,
    timestamp: nowMs,
  });
  const snapshot = { snapshotId: result.snapshotId, bytes };
  process.disk.write({ kind: "writeSnapshot", snapshot });
  checker.snapshotAppeared(process, snapshot);
  process.isWritingSnapshot = true;
  process.maybeFlush();
  return true;
}
