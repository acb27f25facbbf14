/**
 * What src/raft's driver does for its listeners, done over a simulated process's disk: when the
 * node's high watermark moves, every whole batch below it not delivered yet goes to the
 * listener in log order (KRaft control batches left out), and when the log no longer holds the
 * next offset (or a newer snapshot is there) the latest snapshot is loaded first.
 *
 * The Raft simulation's snapshot files hold a digest of the history below them (sim/raft's
 * state-digest.ts), not metadata records, and its checker proves that digest equal to the
 * committed history's. So loading a snapshot at offset E gives the listener the records of the
 * image of the committed history below E, as the cluster checker recorded it: the image a
 * correct snapshot at E holds.
 */
import { assert } from "../../src/common/index.js";
import type { CommittedBatch, LoadedSnapshot, MetadataListener } from "../../src/metadata/index.js";
import { decodeRecords } from "../../src/protocol/index.js";
import type { DiskState, StoredBatch } from "../raft/disk-state.js";

/** Where snapshot contents come from, and who sees every delivery. */
export interface CommitWitness {
  /** The records of the committed image below `endOffset`. */
  snapshotAt(endOffset: number): LoadedSnapshot;
  /**
   * Called for every committed batch a member passes, before its listener gets it; control
   * batches too (with no records), so the witness sees every offset.
   */
  delivered(member: string, batch: CommittedBatch & { readonly isControl: boolean }): void;
}

/** The most bytes one metadata batch may decompress to (src/raft's limit). */
const decompressedBytesMax = 64 * 1024 * 1024;

/** The record values of a stored batch. */
export function recordValuesOf(batch: StoredBatch): Uint8Array[] {
  const decoded = decodeRecords(batch.bytes, { maxDecompressedBytes: decompressedBytesMax });
  assert(decoded.ok, "a committed metadata batch decodes");
  return decoded.records.map((record) => {
    assert(record.value !== null, "a metadata record has a value");
    return record.value;
  });
}

/** Delivers one process incarnation's committed batches to its listener. */
export class CommitFeed {
  private nextOffset = 0;

  constructor(
    private readonly member: string,
    private readonly listener: MetadataListener,
    private readonly witness: CommitWitness,
  ) {}

  /** The offset of the next record the listener gets; everything below was delivered. */
  get deliveredEndOffset(): number {
    return this.nextOffset;
  }

  /** Delivers what the disk holds below `highWatermark` and the listener has not seen. */
  deliverTo(disk: DiskState, highWatermark: number): void {
    this.maybeLoadSnapshot(disk, highWatermark);
    // A log that starts past what was delivered waits for a snapshot at or below the high
    // watermark (one being installed is not counted before the node knows the watermark).
    if (this.nextOffset < disk.logStartOffset) return;
    for (let index = disk.firstBatchAtOrAfter(this.nextOffset); ; index++) {
      const batch = disk.batches[index];
      if (batch === undefined || batch.lastOffset >= highWatermark) return;
      if (batch.baseOffset < this.nextOffset) continue;
      assert(batch.baseOffset === this.nextOffset, "committed batches are delivered without gaps");
      const committed: CommittedBatch = {
        baseOffset: batch.baseOffset,
        lastOffset: batch.lastOffset,
        epoch: batch.epoch,
        records: batch.isControl ? [] : recordValuesOf(batch),
      };
      this.witness.delivered(this.member, { ...committed, isControl: batch.isControl });
      if (!batch.isControl) this.listener.handleCommit(committed);
      this.nextOffset = batch.lastOffset + 1;
    }
  }

  /**
   * Loads the latest snapshot at or below the high watermark when it is ahead of what was
   * delivered, as the driver does at start and after an install; returns whether it did.
   */
  private maybeLoadSnapshot(disk: DiskState, highWatermark: number): boolean {
    let endOffset = -1;
    for (const snapshot of disk.snapshots.values()) {
      const end = snapshot.snapshotId.endOffset;
      if (end <= highWatermark && end > endOffset) endOffset = end;
    }
    if (endOffset <= this.nextOffset) return false;
    this.listener.handleLoadSnapshot(this.witness.snapshotAt(endOffset));
    this.nextOffset = endOffset;
    return true;
  }
}
