/**
 * What one simulated controller keeps on disk: the quorum-state file, the metadata log as a list
 * of whole batches, complete snapshot files and partial snapshot downloads. A DiskState is plain
 * data changed only by `apply(operation)`, so the modelled disk can keep a durable copy and a
 * visible copy and replay the same operations on both.
 */
import { assert } from "../../src/common/index.js";
import { RecordBatchHeader } from "../../src/protocol/index.js";
import {
  EMPTY_ELECTION_STATE,
  controlRecordsOf,
  snapshotName,
  type LoggedControlRecord,
  type LogShape,
  type PersistedElectionState,
  type SnapshotId,
} from "../../src/raft/index.js";

/** A batch of the log with the header facts the simulation looks at. */
export interface StoredBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  readonly isControl: boolean;
  readonly bytes: Uint8Array;
}

/** A complete snapshot file. */
export interface StoredSnapshot {
  readonly snapshotId: SnapshotId;
  readonly bytes: Uint8Array;
}

/** One change to a disk, in the order the driver makes them (see src/raft/README.md). */
export type DiskOperation =
  | { readonly kind: "electionState"; readonly state: PersistedElectionState }
  | { readonly kind: "truncate"; readonly endOffset: number }
  | {
      readonly kind: "append";
      readonly batches: readonly StoredBatch[];
      readonly generation: number;
    }
  | {
      readonly kind: "writeSnapshotChunk";
      readonly snapshotId: SnapshotId;
      readonly position: number;
      readonly bytes: Uint8Array;
    }
  | {
      readonly kind: "installSnapshot";
      readonly snapshotId: SnapshotId;
      readonly sizeBytes: number;
    }
  | { readonly kind: "abandonSnapshotDownload"; readonly snapshotId: SnapshotId }
  | { readonly kind: "deleteLogBefore"; readonly offset: number }
  | { readonly kind: "deleteSnapshot"; readonly snapshotId: SnapshotId }
  /** A snapshot this node wrote itself (a temporary file renamed once complete, as Kafka). */
  | { readonly kind: "writeSnapshot"; readonly snapshot: StoredSnapshot };

/** Reads the header facts of a complete batch. */
export function storedBatchOf(bytes: Uint8Array): StoredBatch {
  const header = new RecordBatchHeader(bytes);
  return {
    baseOffset: header.baseOffset,
    lastOffset: header.lastOffset,
    epoch: header.partitionLeaderEpoch,
    isControl: header.isControl,
    bytes,
  };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** The contents of one disk. */
export class DiskState {
  electionState: PersistedElectionState = EMPTY_ELECTION_STATE;
  logStartOffset = 0;
  batches: StoredBatch[] = [];
  readonly snapshots = new Map<string, StoredSnapshot>();
  readonly partial = new Map<string, Uint8Array[]>();

  /** A deep enough copy: batches and files are immutable and shared. */
  clone(): DiskState {
    const copy = new DiskState();
    copy.electionState = this.electionState;
    copy.logStartOffset = this.logStartOffset;
    copy.batches = [...this.batches];
    for (const [name, snapshot] of this.snapshots) copy.snapshots.set(name, snapshot);
    for (const [name, chunks] of this.partial) copy.partial.set(name, [...chunks]);
    return copy;
  }

  /** The offset after the last record of the log. */
  endOffset(): number {
    const last = this.batches.at(-1);
    return last === undefined ? this.logStartOffset : last.lastOffset + 1;
  }

  /** The complete snapshot with the latest id, if any. */
  latestSnapshot(): StoredSnapshot | undefined {
    let latest: StoredSnapshot | undefined;
    for (const snapshot of this.snapshots.values()) {
      if (latest === undefined || snapshot.snapshotId.endOffset > latest.snapshotId.endOffset)
        latest = snapshot;
    }
    return latest;
  }

  /** Applies one operation; the driver only asks for operations that fit the log. */
  apply(operation: DiskOperation): void {
    switch (operation.kind) {
      case "electionState":
        this.electionState = operation.state;
        return;
      case "truncate":
        this.batches = this.batches.filter((batch) => batch.lastOffset < operation.endOffset);
        return;
      case "append":
        for (const batch of operation.batches) {
          assert(batch.baseOffset === this.endOffset(), "appends continue the log");
          this.batches.push(batch);
        }
        return;
      case "writeSnapshotChunk":
        return this.writeChunk(operation.snapshotId, operation.position, operation.bytes);
      case "installSnapshot":
        return this.install(operation.snapshotId, operation.sizeBytes);
      case "abandonSnapshotDownload":
        this.partial.delete(snapshotName(operation.snapshotId));
        return;
      case "deleteLogBefore":
        this.batches = this.batches.filter((batch) => batch.lastOffset >= operation.offset);
        this.logStartOffset = operation.offset;
        return;
      case "deleteSnapshot":
        this.snapshots.delete(snapshotName(operation.snapshotId));
        return;
      case "writeSnapshot":
        this.snapshots.set(snapshotName(operation.snapshot.snapshotId), operation.snapshot);
        return;
    }
  }

  private writeChunk(snapshotId: SnapshotId, position: number, bytes: Uint8Array): void {
    const name = snapshotName(snapshotId);
    // A download that starts again (after a restart) overwrites the partial file from its
    // position on, as a write at that position of the file would.
    const kept = concat(this.partial.get(name) ?? []);
    assert(position <= kept.length, "snapshot chunks are written without holes");
    this.partial.set(name, [kept.subarray(0, position), bytes]);
  }

  private install(snapshotId: SnapshotId, sizeBytes: number): void {
    const name = snapshotName(snapshotId);
    const bytes = concat(this.partial.get(name) ?? []);
    assert(bytes.length === sizeBytes, "an installed snapshot was downloaded completely");
    this.partial.delete(name);
    this.snapshots.set(name, { snapshotId, bytes });
    this.batches = [];
    this.logStartOffset = snapshotId.endOffset;
  }

  /** Whole batches from `fromOffset`: at least one when any exists, then as many as fit. */
  read(fromOffset: number, maxBytes: number): Uint8Array {
    const chosen: Uint8Array[] = [];
    let size = 0;
    for (let index = this.firstBatchAtOrAfter(fromOffset); index < this.batches.length; index++) {
      const batch = this.batches[index] as StoredBatch;
      if (chosen.length > 0 && size + batch.bytes.length > maxBytes) break;
      chosen.push(batch.bytes);
      size += batch.bytes.length;
    }
    return concat(chosen);
  }

  /** The index of the first batch whose last offset is at or past `offset` (binary search). */
  firstBatchAtOrAfter(offset: number): number {
    let low = 0;
    let high = this.batches.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.batches[middle] as StoredBatch).lastOffset < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Part of a complete snapshot file. */
  readSnapshot(snapshotId: SnapshotId, position: number, maxBytes: number): Uint8Array {
    const snapshot = this.snapshots.get(snapshotName(snapshotId));
    assert(snapshot !== undefined, `snapshot ${snapshotName(snapshotId)} exists`);
    return snapshot.bytes.subarray(position, position + maxBytes);
  }

  /** The log as a restarted node is built from it, with the control records it must know. */
  shape(): LogShape & { readonly controlRecords: readonly LoggedControlRecord[] } {
    const epochs: { epoch: number; startOffset: number }[] = [];
    const controlRecords: LoggedControlRecord[] = [];
    const latest = this.latestSnapshot();
    if (latest !== undefined) {
      // The snapshot's KRaftVersion and Voters records count as at its last contained offset.
      const first = storedBatchOf(latest.bytes);
      const records = controlRecordsOf(
        latest.bytes.subarray(0, new RecordBatchHeader(latest.bytes).sizeInBytes),
      );
      const atOffset = latest.snapshotId.endOffset - 1;
      if (first.isControl)
        controlRecords.push(...records.map((record) => ({ ...record, offset: atOffset })));
    }
    for (const batch of this.batches) {
      if (epochs.at(-1)?.epoch !== batch.epoch)
        epochs.push({ epoch: batch.epoch, startOffset: batch.baseOffset });
      if (batch.isControl) controlRecords.push(...controlRecordsOf(batch.bytes));
    }
    const snapshots = [...this.snapshots.values()].map(({ snapshotId, bytes }) => ({
      snapshotId,
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
