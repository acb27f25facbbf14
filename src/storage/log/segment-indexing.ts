/**
 * Kafka's indexing rule for a segment, as the append and the recovery both follow it: per batch,
 * the largest timestamp so far moves up when the batch's maxTimestamp passes it; once more than
 * `index.interval.bytes` were written since the last entry, the batch gets an offset index entry
 * (its last offset and position) and the time index an entry for the largest timestamp so far.
 * Kafka writes time entries at the offset index's pace rather than per batch, which keeps the
 * time index as sparse as the offset index and costs no write per batch. Pure.
 */
import type { OffsetIndex } from "../offset-index.js";
import type { TimeIndex } from "../time-index.js";

/** The header facts of a batch being appended or recovered. */
export interface AppendedBatch {
  /** Where the batch starts in the bytes written with it (0 for the first). */
  readonly offsetInInput: number;
  readonly sizeInBytes: number;
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly maxTimestamp: number;
}

/** One pair of index entries to add. */
export interface IndexEntryPlan {
  /** The last offset of the indexed batch, and where that batch starts in the log file. */
  readonly lastOffset: number;
  readonly position: number;
  /** The time index entry: the largest timestamp so far and the batch offset that holds it. */
  readonly maxTimestamp: number;
  readonly offsetOfMaxTimestamp: number;
}

/** The running state of the indexing rule for one segment. */
export class SegmentIndexing {
  /** The largest batch maxTimestamp seen, or -1. */
  maxTimestampSoFar = -1;
  /** The last offset of the batch holding maxTimestampSoFar, when there is one. */
  offsetOfMaxTimestampSoFar: number | undefined;
  private bytesSinceLastIndexEntry = 0;

  constructor(private readonly indexIntervalBytes: number) {}

  /** The bytes written since the last offset index entry. */
  get bytesSinceLastEntry(): number {
    return this.bytesSinceLastIndexEntry;
  }

  /**
   * Takes `batches`, written from `startPosition` of the log file, into the running state and
   * returns the index entries they earn, in order.
   */
  entriesFor(batches: readonly AppendedBatch[], startPosition: number): IndexEntryPlan[] {
    const entries: IndexEntryPlan[] = [];
    for (const batch of batches) {
      this.observeTimestamp(batch);
      if (this.bytesSinceLastIndexEntry > this.indexIntervalBytes) {
        entries.push({
          lastOffset: batch.lastOffset,
          position: startPosition + batch.offsetInInput,
          maxTimestamp: this.maxTimestampSoFar,
          offsetOfMaxTimestamp: this.offsetOfMaxTimestampSoFar ?? batch.lastOffset,
        });
        this.bytesSinceLastIndexEntry = 0;
      }
      this.bytesSinceLastIndexEntry += batch.sizeInBytes;
    }
    return entries;
  }

  /** Moves the largest timestamp up to the batch's when it passes it. */
  observeTimestamp(batch: { readonly maxTimestamp: number; readonly lastOffset: number }): void {
    if (batch.maxTimestamp > this.maxTimestampSoFar) {
      this.maxTimestampSoFar = batch.maxTimestamp;
      this.offsetOfMaxTimestampSoFar = batch.lastOffset;
    }
  }

  /** Sets the largest timestamp (from a time index entry, or -1 for none). */
  resetMaxTimestamp(maxTimestamp: number, offsetOfMaxTimestamp: number | undefined): void {
    this.maxTimestampSoFar = maxTimestamp;
    this.offsetOfMaxTimestampSoFar = maxTimestamp < 0 ? undefined : offsetOfMaxTimestamp;
  }

  /**
   * Adds `entries` to the indexes in memory. An index that fills up within one append just
   * stays sparser; the next append rolls.
   */
  static addEntries(
    offsetIndex: OffsetIndex,
    timeIndex: TimeIndex,
    entries: readonly IndexEntryPlan[],
  ): void {
    for (const entry of entries) {
      if (!offsetIndex.isFull()) offsetIndex.append(entry.lastOffset, entry.position);
      if (!timeIndex.isFull())
        timeIndex.maybeAppend(entry.maxTimestamp, entry.offsetOfMaxTimestamp);
    }
  }

  /**
   * Puts the largest timestamp in the time index's reserved last slot, as Kafka does when a
   * segment stops being active, so that a restart reads it without a scan.
   */
  addFinalTimeEntry(timeIndex: TimeIndex): void {
    const offset = this.offsetOfMaxTimestampSoFar;
    if (this.maxTimestampSoFar < 0 || offset === undefined) return;
    timeIndex.maybeAppend(this.maxTimestampSoFar, offset, { skipFullCheck: true });
  }

  /** Sets the bytes written since the last entry (0 after a truncation, as Kafka does). */
  resetBytesSinceLastEntry(bytes = 0): void {
    this.bytesSinceLastIndexEntry = bytes;
  }
}

/** What a recovery rebuilt: the indexes in memory and the facts of the valid batches. */
export interface RebuiltSegment {
  readonly offsetIndex: OffsetIndex;
  readonly timeIndex: TimeIndex;
  readonly sizeInBytes: number;
  readonly nextOffset: number;
  readonly firstBatchTimestamp: number;
  readonly maxTimestamp: number;
  readonly offsetOfMaxTimestamp: number | undefined;
  readonly bytesSinceLastIndexEntry: number;
}
