/**
 * Hands what the quorum committed to the node's listeners (the metadata loader, the
 * controller), in log order: the latest snapshot when the log no longer holds the next offset
 * to deliver, then every committed data batch; KRaft control batches are left out.
 */
import type { LeaderChange } from "../output.js";
import type { SnapshotId, SnapshotInfo } from "../types.js";
import { recordValues, wholeBatches } from "./log-batches.js";
import type { MetadataLog } from "./metadata-log.driver.js";
import type { SnapshotStore } from "./snapshot-store.driver.js";

/** A committed batch of metadata records (the shape of src/metadata's CommittedBatch). */
export interface CommittedRecords {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly epoch: number;
  /** Each record's value, as it is in the log. */
  readonly records: readonly Uint8Array[];
}

/** A snapshot to load, control records left out (src/metadata's LoadedSnapshot). */
export interface SnapshotRecords {
  readonly snapshotId: SnapshotId;
  readonly records: readonly Uint8Array[];
}

/**
 * What the Raft driver calls, in log order, on the node's event loop. src/metadata's
 * MetadataListener is one; `handleLeaderChange` is for the controller.
 */
export interface RaftListener {
  handleCommit(batch: CommittedRecords): void;
  handleLoadSnapshot(snapshot: SnapshotRecords): void;
  handleLeaderChange?(change: LeaderChange): void;
}

/** Delivers committed records to listeners; one per driver. */
export class CommitDelivery {
  private nextOffset = 0;

  constructor(
    private readonly log: MetadataLog,
    private readonly snapshots: SnapshotStore,
    private readonly listeners: readonly RaftListener[],
  ) {}

  /** The offset of the next record listeners will get; everything below it was delivered. */
  get deliveredEndOffset(): number {
    return this.nextOffset;
  }

  /** Loads the latest snapshot into the listeners, when one is ahead of what they have. */
  async loadLatestSnapshot(): Promise<void> {
    const latest = this.snapshots.latest();
    if (latest === undefined || latest.snapshotId.endOffset <= this.nextOffset) return;
    await this.load(latest);
  }

  /** Loads `info` (a snapshot just installed) into the listeners. */
  async load(info: SnapshotInfo): Promise<void> {
    const bytes = await this.snapshots.read(info.snapshotId, 0, info.sizeBytes);
    const records: Uint8Array[] = [];
    for (const batch of wholeBatches(bytes)) {
      if (!batch.isControl) records.push(...recordValues(batch));
    }
    const snapshot = { snapshotId: info.snapshotId, records };
    for (const listener of this.listeners) listener.handleLoadSnapshot(snapshot);
    this.nextOffset = info.snapshotId.endOffset;
  }

  /** Delivers every whole batch below `highWatermark` not delivered yet. */
  async deliverTo(highWatermark: number): Promise<void> {
    if (this.nextOffset < this.log.logStartOffset) await this.loadLatestSnapshot();
    await this.log.forEachBatch(this.nextOffset, highWatermark, (batch) => {
      if (batch.lastOffset < this.nextOffset || batch.lastOffset >= highWatermark) return;
      if (!batch.isControl) {
        const committed = {
          baseOffset: batch.baseOffset,
          lastOffset: batch.lastOffset,
          epoch: batch.epoch,
          records: recordValues(batch),
        };
        for (const listener of this.listeners) listener.handleCommit(committed);
      }
      this.nextOffset = batch.lastOffset + 1;
    });
  }

  /** Tells the listeners of a new leader or epoch. */
  leaderChanged(change: LeaderChange): void {
    for (const listener of this.listeners) listener.handleLeaderChange?.(change);
  }
}
