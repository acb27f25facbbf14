/**
 * The segments of a log in base offset order, with the lookups the log makes: the segment that
 * holds an offset (the last one whose base offset is not above it) and the active (last) one.
 * A log always has at least one segment. Pure and generic so that it is tested without files.
 */
import { assert } from "../../common/index.js";

/** Anything with a base offset. */
export interface HasBaseOffset {
  readonly baseOffset: number;
}

/** An ordered, non-empty list of segments with distinct base offsets. */
export class SegmentList<S extends HasBaseOffset> {
  private items: S[];

  constructor(segments: readonly S[]) {
    this.items = [...segments].sort((a, b) => a.baseOffset - b.baseOffset);
    assert(this.items.length > 0, "a log has at least one segment");
    for (let index = 1; index < this.items.length; index++) {
      const previous = (this.items[index - 1] as S).baseOffset;
      assert(previous < (this.items[index] as S).baseOffset, "segment base offsets are distinct");
    }
  }

  get count(): number {
    return this.items.length;
  }

  /** The segments, oldest first; a copy, so that callers may hold it across awaits. */
  all(): readonly S[] {
    return [...this.items];
  }

  get first(): S {
    return this.items[0] as S;
  }

  /** The active segment: the last one, which takes appends. */
  get active(): S {
    return this.items[this.items.length - 1] as S;
  }

  /** The position in the list of the last segment whose base offset is <= `offset`, or -1. */
  floorIndex(offset: number): number {
    let low = 0;
    let high = this.items.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if ((this.items[middle] as S).baseOffset <= offset) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  /** The last segment whose base offset is <= `offset`, if any. */
  floor(offset: number): S | undefined {
    const index = this.floorIndex(offset);
    return index < 0 ? undefined : this.items[index];
  }

  /** The segment after `segment`, if any. */
  next(segment: S): S | undefined {
    const index = this.items.indexOf(segment);
    assert(index >= 0, "the segment is in the list");
    return this.items[index + 1];
  }

  /** The segments from the floor segment of `from` (or the first) up to those based below `to`. */
  range(from: number, to: number): S[] {
    const start = Math.max(0, this.floorIndex(from));
    return this.items.slice(start).filter((segment) => segment.baseOffset < to);
  }

  /** Adds a segment after the active one. */
  push(segment: S): void {
    assert(segment.baseOffset > this.active.baseOffset, "a new segment follows the active one");
    this.items.push(segment);
  }

  /** Removes `segments`; at least one segment must remain. */
  remove(segments: readonly S[]): void {
    const removed = new Set(segments);
    const kept = this.items.filter((segment) => !removed.has(segment));
    assert(kept.length > 0, "a log keeps at least one segment");
    this.items = kept;
  }

  /** Replaces every segment (a full truncation or a swap of cleaned segments). */
  replaceAll(segments: readonly S[]): void {
    const replacement = new SegmentList(segments);
    this.items = replacement.items;
  }
}
