/**
 * The offset index of one segment, in memory: a sparse map from offsets to byte positions in the
 * segment's log file, stored in the file as 8-byte entries (offset relative to the segment's base
 * offset, int32 big-endian; position, int32 big-endian). Entries strictly increase in both
 * fields. Pure: offset-index.driver.ts persists it.
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

export const OFFSET_INDEX_ENTRY_BYTES = 8;

const INT32_MAX = 0x7fffffff;

/** A log offset and the byte position in the segment's log file where its batch starts. */
export interface OffsetPosition {
  readonly offset: Offset;
  readonly position: number;
}

/** True when `target` can be stored in an index of a segment based at `baseOffset`. */
export function isRelativeOffsetInRange(baseOffset: number, target: number): boolean {
  const relative = target - baseOffset;
  return relative >= 0 && relative <= INT32_MAX;
}

/** The sparse offset-to-position index of one segment. */
export class OffsetIndex {
  readonly baseOffset: Offset;
  /** How many entries fit in `segment.index.bytes`. */
  readonly maxEntries: number;
  private relativeOffsets: Int32Array = new Int32Array(0);
  private positions: Int32Array = new Int32Array(0);
  private count = 0;

  constructor(options: IndexOptions) {
    ({ baseOffset: this.baseOffset, maxEntries: this.maxEntries } = indexCapacity(
      options,
      OFFSET_INDEX_ENTRY_BYTES,
    ));
  }

  /**
   * The index held in `bytes` (an index file's content). Decoding stops at the first entry that
   * is zero padding (Kafka preallocates index files) or does not increase on the previous one;
   * the verdict says whether the whole file was valid.
   */
  static decode(
    bytes: Uint8Array,
    options: IndexOptions,
  ): { index: OffsetIndex; sanity: IndexSanity } {
    const index = new OffsetIndex(options);
    const layout = { entrySizeBytes: OFFSET_INDEX_ENTRY_BYTES, maxEntries: index.maxEntries };
    const sanity = decodeIndexEntries(bytes, layout, (view, at) => {
      const relativeOffset = view.getInt32(at);
      const position = view.getInt32(at + 4);
      const reason = index.rejectionOf(relativeOffset, position);
      if (reason === undefined) index.push(relativeOffset, position);
      return reason;
    });
    return { index, sanity };
  }

  get entryCount(): number {
    return this.count;
  }

  /** The bytes the entries take in the file. */
  get sizeInBytes(): number {
    return this.count * OFFSET_INDEX_ENTRY_BYTES;
  }

  /** True when no entry can be added; the log then rolls to a new segment. */
  isFull(): boolean {
    return this.count >= this.maxEntries;
  }

  /** The offset of the last entry, or the base offset when the index is empty. */
  lastOffset(): Offset {
    if (this.count === 0) return this.baseOffset;
    return offset(this.baseOffset + (this.relativeOffsets[this.count - 1] as number));
  }

  entry(slot: number): OffsetPosition {
    assert(Number.isInteger(slot) && slot >= 0, "an index slot is a non-negative integer");
    assert(slot < this.count, "an index slot is below the entry count");
    return {
      offset: offset(this.baseOffset + (this.relativeOffsets[slot] as number)),
      position: this.positions[slot] as number,
    };
  }

  /**
   * Adds an entry: `target` is the last offset of a batch and `position` where that batch starts.
   * Both must exceed the last entry's; the index must not be full.
   */
  append(target: number, position: number): void {
    assert(!this.isFull(), "no append to a full offset index");
    assert(isRelativeOffsetInRange(this.baseOffset, target), "the offset fits the segment");
    assert(Number.isInteger(position), "a position is an integer");
    const reason = this.rejectionOf(target - this.baseOffset, position);
    assert(reason === undefined, `offset index entry ${target}@${position}: ${reason}`);
    this.push(target - this.baseOffset, position);
  }

  /**
   * The entry with the largest offset <= `target`, or the base offset at position 0 when there
   * is none: where a read for `target` starts scanning the log file.
   */
  lookup(target: number): OffsetPosition {
    const slot = largestLowerBoundSlot(
      this.count,
      (index) => this.relativeOffsets[index] as number,
      target - this.baseOffset,
    );
    if (slot < 0) return { offset: this.baseOffset, position: 0 };
    return this.entry(slot);
  }

  /**
   * The first entry whose position is at least `fetchPosition + fetchSizeBytes`, or undefined:
   * a bound on how far a read of that many bytes can reach.
   */
  fetchUpperBoundOffset(fetchPosition: number, fetchSizeBytes: number): OffsetPosition | undefined {
    const slot = smallestUpperBoundSlot(
      this.count,
      (index) => this.positions[index] as number,
      fetchPosition + fetchSizeBytes,
    );
    return slot < this.count ? this.entry(slot) : undefined;
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
    return encodeIndexEntries(range, OFFSET_INDEX_ENTRY_BYTES, (view, at, slot) => {
      view.setInt32(at, this.relativeOffsets[slot] as number);
      view.setInt32(at + 4, this.positions[slot] as number);
    });
  }

  /** Why an entry cannot follow the current last entry, or undefined when it can. */
  private rejectionOf(relativeOffset: number, position: number): string | undefined {
    // The first batch of a segment starts at position 0 and is never indexed (an entry is added
    // only after index.interval.bytes of log), so an all-zero entry is always padding.
    if (relativeOffset === 0 && position === 0) return "zero padding";
    if (relativeOffset < 0) return "an offset below the base offset";
    if (position < 0 || position > INT32_MAX) return "a negative position";
    if (this.count === 0) return undefined;
    if (relativeOffset <= (this.relativeOffsets[this.count - 1] as number)) {
      return "an offset that does not increase";
    }
    if (position <= (this.positions[this.count - 1] as number)) {
      return "a position that does not increase";
    }
    return undefined;
  }

  private push(relativeOffset: number, position: number): void {
    const make = (length: number): Int32Array => new Int32Array(length);
    this.relativeOffsets = grownColumn(this.relativeOffsets, this.count + 1, this.maxEntries, make);
    this.positions = grownColumn(this.positions, this.count + 1, this.maxEntries, make);
    this.relativeOffsets[this.count] = relativeOffset;
    this.positions[this.count] = position;
    this.count++;
  }
}
