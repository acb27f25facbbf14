/**
 * An in-memory stand-in for a Raft driver's disk: the quorum-state file, the metadata log as a
 * list of batches, and snapshot files. It applies a RaftOutput's disk parts exactly as
 * src/raft/README.md tells a driver to, and reads log and snapshot data into responses.
 */
import assert from "node:assert/strict";
import { RecordBatchHeader } from "../../../src/protocol/index.js";
import type { OutboundMessage, RaftResponse } from "../../../src/raft/index.js";
import {
  EMPTY_ELECTION_STATE,
  controlRecordsOf,
  snapshotName,
  type LoggedControlRecord,
  type LogShape,
  type PersistedElectionState,
  type SnapshotId,
  type SnapshotInfo,
} from "../../../src/raft/index.js";

interface StoredBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  readonly isControl: boolean;
  readonly bytes: Uint8Array;
}

/** One node's disk. */
export class FakeDisk {
  electionState: PersistedElectionState = EMPTY_ELECTION_STATE;
  logStartOffset = 0;
  private batches: StoredBatch[] = [];
  private readonly snapshots = new Map<string, { id: SnapshotId; bytes: Uint8Array }>();
  private readonly partial = new Map<string, Uint8Array>();

  /** The offset after the last record. */
  endOffset(): number {
    return this.batches.at(-1)?.lastOffset !== undefined
      ? (this.batches.at(-1) as StoredBatch).lastOffset + 1
      : this.logStartOffset;
  }

  /** Appends complete batches, which must continue the log. */
  append(batches: readonly Uint8Array[]): void {
    for (const bytes of batches) {
      const header = new RecordBatchHeader(bytes);
      assert.equal(header.baseOffset, this.endOffset(), "appends continue the log");
      const { baseOffset, lastOffset, partitionLeaderEpoch: epoch, isControl } = header;
      this.batches.push({ baseOffset, lastOffset, epoch, isControl, bytes: bytes.slice() });
    }
  }

  /** Removes every batch at or past `endOffset`; truncation points are batch boundaries. */
  truncate(endOffset: number): void {
    this.batches = this.batches.filter((batch) => batch.lastOffset < endOffset);
    assert.equal(
      this.endOffset(),
      Math.max(endOffset, this.logStartOffset),
      "truncation falls on a batch boundary",
    );
  }

  /** Whole batches from `fromOffset`: at least one when any exists, then as many as fit. */
  read(fromOffset: number, maxBytes: number): Uint8Array {
    const chosen: Uint8Array[] = [];
    let size = 0;
    for (const batch of this.batches) {
      if (batch.lastOffset < fromOffset) continue;
      if (chosen.length > 0 && size + batch.bytes.length > maxBytes) break;
      chosen.push(batch.bytes);
      size += batch.bytes.length;
    }
    return concat(chosen);
  }

  /** Deletes the batches wholly below `offset`, which becomes the log start. */
  deleteBefore(offset: number): void {
    this.batches = this.batches.filter((batch) => batch.lastOffset >= offset);
    this.logStartOffset = offset;
  }

  /** Writes a complete snapshot file and returns its description. */
  writeSnapshot(id: SnapshotId, batches: readonly Uint8Array[]): SnapshotInfo {
    const bytes = concat([...batches]);
    this.snapshots.set(snapshotName(id), { id, bytes });
    return { snapshotId: id, sizeBytes: bytes.length };
  }

  /** Reads part of a complete snapshot. */
  readSnapshot(id: SnapshotId, position: number, maxBytes: number): Uint8Array {
    const snapshot = this.snapshots.get(snapshotName(id));
    assert.ok(snapshot !== undefined, `snapshot ${snapshotName(id)} exists`);
    return snapshot.bytes.slice(position, position + maxBytes);
  }

  /** Writes a downloaded chunk at its position. */
  writeChunk(id: SnapshotId, position: number, bytes: Uint8Array): void {
    const current = this.partial.get(snapshotName(id)) ?? new Uint8Array(0);
    assert.equal(position, current.length, "chunks arrive in order");
    this.partial.set(snapshotName(id), concat([current, bytes]));
  }

  /** Makes a downloaded snapshot final and replaces the log with an empty one after it. */
  install(id: SnapshotId, sizeBytes: number): SnapshotInfo {
    const bytes = this.partial.get(snapshotName(id));
    assert.ok(bytes !== undefined && bytes.length === sizeBytes, "the download is complete");
    this.partial.delete(snapshotName(id));
    this.snapshots.set(snapshotName(id), { id, bytes });
    this.batches = [];
    this.logStartOffset = id.endOffset;
    return { snapshotId: id, sizeBytes };
  }

  /** Drops a partial download. */
  abandon(id: SnapshotId): void {
    this.partial.delete(snapshotName(id));
  }

  /** Deletes a complete snapshot. */
  deleteSnapshot(id: SnapshotId): void {
    this.snapshots.delete(snapshotName(id));
  }

  /** The names of the complete snapshots, sorted. */
  snapshotNames(): string[] {
    return [...this.snapshots.keys()].sort();
  }

  /** The log as a node is built from it after a restart. */
  shape(): LogShape & { controlRecords: LoggedControlRecord[] } {
    const epochs: { epoch: number; startOffset: number }[] = [];
    const controlRecords: LoggedControlRecord[] = [];
    for (const batch of this.batches) {
      if (epochs.at(-1)?.epoch !== batch.epoch)
        epochs.push({ epoch: batch.epoch, startOffset: batch.baseOffset });
      if (batch.isControl) controlRecords.push(...controlRecordsOf(batch.bytes));
    }
    const snapshots = [...this.snapshots.values()].map(({ id, bytes }) => ({
      snapshotId: id,
      sizeBytes: bytes.length,
    }));
    return {
      logStartOffset: this.logStartOffset,
      endOffset: this.endOffset(),
      epochs,
      snapshots,
      controlRecords,
    };
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Reads log or snapshot data into a response from `disk`, as a driver must. */
export function fillResponse(
  disk: FakeDisk,
  message: Extract<OutboundMessage, { kind: "response" }>,
): RaftResponse {
  const { read, response } = message;
  if (read === null) return response;
  if (read.kind === "log" && response.api === "fetch") {
    const partition = response.body.responses[0]?.partitions[0];
    assert.ok(partition !== undefined);
    partition.records = disk.read(read.fromOffset, read.maxBytes);
  } else if (read.kind === "snapshot" && response.api === "fetchSnapshot") {
    const partition = response.body.topics[0]?.partitions[0];
    assert.ok(partition !== undefined);
    partition.unalignedRecords = disk.readSnapshot(read.snapshotId, read.position, read.maxBytes);
  }
  return response;
}
