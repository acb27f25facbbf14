/**
 * The time index of one segment, in memory: a sparse map from timestamps to offsets, stored in the
 * file as 12-byte entries (timestamp, int64 big-endian; offset relative to the segment's base
 * offset, int32 big-endian). An entry (T, O) means every record after O has a timestamp above T
 * or comes after a later entry. Timestamps strictly increase; offsets never decrease. Pure:
 * time-index.driver.ts persists it.
 */
import { assert, offset, type Offset } from "../common/index.js";
import {
  decodeIndexEntries,
  encodeIndexEntries,
  grownColumn,
  indexCapacity,
  largestLowerBoundSlot,
  smallestUpperBoundSlot,
  type IndexOptions,
  type IndexSanity,
} from "./index-common.js";
import { isRelativeOffsetInRange } from "./offset-index.js";

export const TIME_INDEX_ENTRY_BYTES = 12;
/** Kafka's RecordBatch.NO_TIMESTAMP: the timestamp of an empty time index's last entry. */
export const NO_TIMESTAMP = -1;

/** A timestamp and the offset it was recorded at. */
export interface TimestampOffset {
  readonly timestamp: number;
  readonly offset: Offset;
}

/** The sparse timestamp-to-offset index of one segment. */
export class TimeIndex {
  readonly baseOffset: Offset;
  /** How many entries fit in `segment.index.bytes`. */
  readonly maxEntries: number;
  private timestamps: Float64Array = new Float64Array(0);
  private relativeOffsets: Int32Array = new Int32Array(0);
  private count = 0;

  constructor(options: IndexOptions) {
    ({ baseOffset: this.baseOffset, maxEntries: this.maxEntries } = indexCapacity(
      options,
      TIME_INDEX_ENTRY_BYTES,
    ));
  }

  /**
   * The index held in `bytes` (a time index file's content). Decoding stops at the first entry
   * whose timestamp does not increase or whose offset decreases, which is also where zero padding
   * starts; the verdict says whether the whole file was valid.
   */
  static decode(
    bytes: Uint8Array,
    options: IndexOptions,
  ): { index: TimeIndex; sanity: IndexSanity } {
    const index = new TimeIndex(options);
    const layout = { entrySizeBytes: TIME_INDEX_ENTRY_BYTES, maxEntries: index.maxEntries };
    const sanity = decodeIndexEntries(bytes, layout, (view, at) => {
      const timestamp = Number(view.getBigInt64(at));
      const relativeOffset = view.getInt32(at + 8);
      const reason = index.rejectionOf(timestamp, relativeOffset);
      if (reason === undefined) index.push(timestamp, relativeOffset);
      return reason;
    });
    return { index, sanity };
  }

  get entryCount(): number {
    return this.count;
  }

  /** The bytes the entries take in the file. */
  get sizeInBytes(): number {
    return this.count * TIME_INDEX_ENTRY_BYTES;
  }

  /**
   * True when the log must roll. As in Kafka, the last slot stays free for the entry appended
   * when the segment is rolled or closed (`maybeAppend` with `skipFullCheck`).
   */
  isFull(): boolean {
    return this.count >= this.maxEntries - 1;
  }

  /** The last entry, or (NO_TIMESTAMP, base offset) when the index is empty. */
  lastEntry(): TimestampOffset {
    if (this.count === 0) return { timestamp: NO_TIMESTAMP, offset: this.baseOffset };
    return this.entry(this.count - 1);
  }

  entry(slot: number): TimestampOffset {
    assert(Number.isInteger(slot) && slot >= 0, "an index slot is a non-negative integer");
    assert(slot < this.count, "an index slot is below the entry count");
    return {
      timestamp: this.timestamps[slot] as number,
      offset: offset(this.baseOffset + (this.relativeOffsets[slot] as number)),
    };
  }

  /**
   * Adds (timestamp, target) when `timestamp` exceeds the last entry's, and says whether it did.
   * Neither may go below the last entry's. Only the roll and close of a segment may pass
   * `skipFullCheck` to use the reserved last slot.
   */
  maybeAppend(
    timestamp: number,
    target: number,
    options: { skipFullCheck?: boolean } = {},
  ): boolean {
    assert(options.skipFullCheck === true || !this.isFull(), "no append to a full time index");
    assert(this.count < this.maxEntries, "a time index never exceeds its maximum size");
    assert(Number.isSafeInteger(timestamp), "a timestamp is a safe integer");
    assert(isRelativeOffsetInRange(this.baseOffset, target), "the offset fits the segment");
    const last = this.lastEntry();
    assert(this.count === 0 || target >= last.offset, "time index offsets never decrease");
    assert(this.count === 0 || timestamp >= last.timestamp, "time index timestamps never decrease");
    if (timestamp <= last.timestamp) return false;
    this.push(timestamp, target - this.baseOffset);
    return true;
  }

  /**
   * The entry with the largest timestamp <= `targetTimestamp`, or (NO_TIMESTAMP, base offset)
   * when there is none: where a search for the first record at or after that time starts.
   */
  lookup(targetTimestamp: number): TimestampOffset {
    const slot = largestLowerBoundSlot(
      this.count,
      (index) => this.timestamps[index] as number,
      targetTimestamp,
    );
    if (slot < 0) return { timestamp: NO_TIMESTAMP, offset: this.baseOffset };
    return this.entry(slot);
  }

  /** Removes every entry whose offset is >= `target`; returns the new entry count. */
  truncateTo(target: number): number {
    this.count = smallestUpperBoundSlot(
      this.count,
      (index) => this.relativeOffsets[index] as number,
      target - this.baseOffset,
    );
    return this.count;
  }

  /** The file bytes of the entries in slots [fromSlot, toSlot). */
  encode(fromSlot = 0, toSlot = this.count): Uint8Array {
    const range = { fromSlot, toSlot, entryCount: this.count };
    return encodeIndexEntries(range, TIME_INDEX_ENTRY_BYTES, (view, at, slot) => {
      view.setBigInt64(at, BigInt(this.timestamps[slot] as number));
      view.setInt32(at + 8, this.relativeOffsets[slot] as number);
    });
  }

  /** Why an entry cannot follow the current last entry, or undefined when it can. */
  private rejectionOf(timestamp: number, relativeOffset: number): string | undefined {
    if (!Number.isSafeInteger(timestamp)) return "a timestamp beyond 2^53";
    if (timestamp < 0) return "a negative timestamp";
    if (relativeOffset < 0) return "an offset below the base offset";
    if (this.count === 0) return undefined;
    if (timestamp <= (this.timestamps[this.count - 1] as number)) {
      return "a timestamp that does not increase";
    }
    if (relativeOffset < (this.relativeOffsets[this.count - 1] as number)) {
      return "an offset that decreases";
    }
    return undefined;
  }

  private push(timestamp: number, relativeOffset: number): void {
    this.timestamps = grownColumn(
      this.timestamps,
      this.count + 1,
      this.maxEntries,
      (length) => new Float64Array(length),
    );
    this.relativeOffsets = grownColumn(
      this.relativeOffsets,
      this.count + 1,
      this.maxEntries,
      (length) => new Int32Array(length),
    );
    this.timestamps[this.count] = timestamp;
    this.relativeOffsets[this.count] = relativeOffset;
    this.count++;
  }
}
