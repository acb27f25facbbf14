/**
 * The node's bookkeeping view of the metadata log: start and end offsets, the epoch of each
 * range (the leader-epoch cache), and the complete snapshots. It holds no records; the driver
 * owns the bytes. It answers the questions KRaft asks of its log: is a follower's position
 * valid, where does a follower diverge, and how far must a follower truncate.
 */
import { assert, leaderEpoch, offset as toOffset } from "../common/index.js";
import { LeaderEpochCache } from "../storage/index.js";
import {
  compareSnapshotIds,
  type OffsetAndEpoch,
  type SnapshotId,
  type SnapshotInfo,
} from "./types.js";

/** The answer to a follower's Fetch position (fetchOffset, lastFetchedEpoch). */
export type FetchValidation =
  | { readonly kind: "valid" }
  /** The follower's log differs from `divergingEpoch.offset` on; it must truncate. */
  | { readonly kind: "diverging"; readonly divergingEpoch: OffsetAndEpoch }
  /** The follower needs records the log no longer has; it must fetch this snapshot. */
  | { readonly kind: "snapshot"; readonly snapshotId: SnapshotId };

/** What the driver tells a node about its log when it builds one. */
export interface LogShape {
  readonly logStartOffset: number;
  readonly endOffset: number;
  /** The epoch cache entries: the first offset each epoch wrote, oldest first. */
  readonly epochs: readonly { readonly epoch: number; readonly startOffset: number }[];
  /** The complete snapshots on disk, in any order. */
  readonly snapshots: readonly SnapshotInfo[];
}

export class LogView {
  private startOffset: number;
  private end: number;
  private readonly epochs: LeaderEpochCache;
  private snapshotList: SnapshotInfo[];

  constructor(shape: LogShape) {
    assert(shape.logStartOffset <= shape.endOffset, "log start offset is not past the end");
    this.startOffset = shape.logStartOffset;
    this.end = shape.endOffset;
    this.epochs = new LeaderEpochCache(
      shape.epochs
        .filter((entry) => entry.startOffset < shape.endOffset)
        .map((entry) => ({
          epoch: leaderEpoch(entry.epoch),
          startOffset: toOffset(entry.startOffset),
        })),
    );
    this.snapshotList = [...shape.snapshots].sort((left, right) =>
      compareSnapshotIds(left.snapshotId, right.snapshotId),
    );
    const latest = this.latestSnapshot();
    assert(
      this.startOffset === 0 ||
        (latest !== undefined && latest.snapshotId.endOffset >= this.startOffset),
      "a log that starts past 0 has a snapshot that covers its start",
    );
  }

  get logStartOffset(): number {
    return this.startOffset;
  }

  /** The offset the next appended record will have. */
  get endOffset(): number {
    return this.end;
  }

  /** The latest complete snapshot, if any. */
  latestSnapshot(): SnapshotInfo | undefined {
    return this.snapshotList[this.snapshotList.length - 1];
  }

  /** The complete snapshot with this id, if the node has it. */
  snapshot(snapshotId: SnapshotId): SnapshotInfo | undefined {
    return this.snapshotList.find((info) => compareSnapshotIds(info.snapshotId, snapshotId) === 0);
  }

  /** The epoch of the last record (or of the snapshot the log starts at), 0 for an empty log. */
  lastFetchedEpoch(): number {
    const latest = this.epochs.latestEpoch();
    if (latest !== undefined) return latest;
    return this.latestSnapshot()?.snapshotId.epoch ?? 0;
  }

  /** The end offset and the epoch of the last record, the log's "up to date" measure. */
  endOffsetAndEpoch(): OffsetAndEpoch {
    return { offset: this.end, epoch: this.lastFetchedEpoch() };
  }

  /** The epoch that wrote the record at `offset`, falling back to the covering snapshot. */
  epochOfOffset(offset: number): number {
    assert(offset < this.end, "the offset is in the log");
    const epoch = this.epochs.epochForOffset(offset);
    if (epoch !== undefined) return epoch;
    const snapshot = this.snapshotList.find((info) => info.snapshotId.endOffset > offset);
    return snapshot?.snapshotId.epoch ?? 0;
  }

  /**
   * Where `epoch` ends in this log: the start of the first larger epoch (or the log end for the
   * latest epoch), with the largest epoch <= `epoch` that the log holds. An epoch below every
   * entry answers the log start with the epoch of the snapshot there (or 0).
   */
  endOffsetForEpoch(epoch: number): OffsetAndEpoch {
    const latest = this.epochs.latestEntry();
    if (latest === undefined) return { offset: this.end, epoch: this.lastFetchedEpoch() };
    if (epoch >= latest.epoch) return { offset: this.end, epoch: latest.epoch };
    const earliest = this.epochs.earliestEntry() as { epoch: number; startOffset: number };
    if (epoch < earliest.epoch) {
      const startEpoch = this.startOffset > 0 ? this.latestSnapshotAtStart() : 0;
      return { offset: earliest.startOffset, epoch: startEpoch };
    }
    const answer = this.epochs.endOffsetFor(epoch, this.end);
    return { offset: answer.endOffset, epoch: answer.leaderEpoch };
  }

  /**
   * Validates a follower's fetch position as Kafka's validateOffsetAndEpoch: below the log
   * start (or at it with another epoch) the follower needs the snapshot; otherwise the position
   * is valid when the leader's log holds `lastFetchedEpoch` up to at least `fetchOffset`.
   */
  validateFetch(fetchOffset: number, lastFetchedEpoch: number): FetchValidation {
    if (fetchOffset === 0 && this.startOffset === 0) return { kind: "valid" };
    const latest = this.latestSnapshot();
    if (this.startOffset > 0 && latest !== undefined) {
      const atStart = fetchOffset === this.startOffset;
      const snapshotEpoch = this.latestSnapshotAtStart();
      // As Kafka's validateOffsetAndEpoch, a last fetched epoch older than the snapshot's also
      // needs the snapshot: the log holds no entry of that epoch to find a divergence with, and
      // a diverging answer past the follower's end would make it truncate nothing, forever.
      if (
        fetchOffset < this.startOffset ||
        (atStart && lastFetchedEpoch !== snapshotEpoch) ||
        lastFetchedEpoch < snapshotEpoch
      ) {
        return { kind: "snapshot", snapshotId: latest.snapshotId };
      }
      if (atStart) return { kind: "valid" };
    }
    const end = this.endOffsetForEpoch(lastFetchedEpoch);
    if (end.epoch === lastFetchedEpoch && end.offset >= fetchOffset) return { kind: "valid" };
    return { kind: "diverging", divergingEpoch: end };
  }

  /**
   * Where a follower truncates for a diverging epoch from its leader, as Kafka's
   * truncateToEndOffset: the smaller of the two end offsets of that epoch when this log holds
   * the epoch, otherwise the end of the largest smaller epoch this log holds.
   */
  truncationOffsetFor(diverging: OffsetAndEpoch): number {
    if (diverging.epoch === 0) return Math.min(diverging.offset, this.end);
    const local = this.endOffsetForEpoch(diverging.epoch);
    if (local.epoch === diverging.epoch) return Math.min(local.offset, diverging.offset);
    return local.offset;
  }

  /** Notes an appended batch of `epoch` holding offsets baseOffset..lastOffset. */
  appendBatch(batch: { baseOffset: number; lastOffset: number; epoch: number }): void {
    assert(batch.baseOffset === this.end, "appends are contiguous");
    assert(batch.lastOffset >= batch.baseOffset, "a batch holds an offset");
    assert(batch.epoch >= this.lastFetchedEpoch(), "epochs never go back in the log");
    this.epochs.assign(batch.epoch, batch.baseOffset);
    this.end = batch.lastOffset + 1;
  }

  /** Notes that the log was truncated to `endOffset`. */
  truncateTo(endOffset: number): void {
    assert(endOffset >= this.startOffset, "truncation stays at or above the log start");
    assert(endOffset <= this.end, "truncation does not extend the log");
    this.epochs.truncateFromEnd(endOffset);
    this.end = endOffset;
  }

  /** Notes a new complete snapshot (written here or downloaded). */
  addSnapshot(info: SnapshotInfo): void {
    if (this.snapshot(info.snapshotId) !== undefined) return;
    this.snapshotList.push(info);
    this.snapshotList.sort((left, right) => compareSnapshotIds(left.snapshotId, right.snapshotId));
  }

  /** Notes that the log was replaced by the snapshot: empty, starting at its end offset. */
  resetToSnapshot(info: SnapshotInfo): void {
    this.addSnapshot(info);
    this.epochs.clear();
    this.startOffset = info.snapshotId.endOffset;
    this.end = info.snapshotId.endOffset;
  }

  /**
   * Notes that the records below the latest snapshot were deleted and the older snapshots with
   * them; returns the ids of the snapshots deleted.
   */
  deleteBeforeLatestSnapshot(): SnapshotId[] {
    const latest = this.latestSnapshot();
    if (latest === undefined) return [];
    const newStart = Math.min(latest.snapshotId.endOffset, this.end);
    if (newStart > this.startOffset) {
      this.epochs.truncateFromStart(newStart);
      this.startOffset = newStart;
    }
    const deleted = this.snapshotList.slice(0, -1).map((info) => info.snapshotId);
    this.snapshotList = [latest];
    return deleted;
  }

  private latestSnapshotAtStart(): number {
    const atStart = this.snapshotList.find(
      (info) => info.snapshotId.endOffset === this.startOffset,
    );
    return atStart?.snapshotId.epoch ?? this.latestSnapshot()?.snapshotId.epoch ?? 0;
  }
}
