/**
 * The segments of a log in base offset order, with the lookups the log makes: the segment that
 * holds an offset (the last one whose base offset is not above it), the active (last) one, and
 * the run of segments a cleaned group may replace. A log always has at least one segment. Pure
 * and generic so that it is tested without files.
 */
import { assert } from "../../common/index.js";

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

  /**
   * The segments based at `baseOffsets` when they are consecutive in the list, in that order,
   * and the active segment is not among them; else undefined.
   */
  inactiveRunAt(baseOffsets: readonly number[]): S[] | undefined {
    const first = this.items.findIndex((segment) => segment.baseOffset === baseOffsets[0]);
    if (first < 0 || baseOffsets.length === 0) return undefined;
    const run = this.items.slice(first, first + baseOffsets.length);
    const isSame =
      run.length === baseOffsets.length &&
      run.every((segment, index) => segment.baseOffset === baseOffsets[index]);
    if (!isSame || run.includes(this.active)) return undefined;
    return run;
  }

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

/**
 * Whether `newSegments` (sorted) start where `old` do and end no later: a truncation inside the
 * old segments since the new ones were made from them would otherwise bring removed batches back.
 */
export function isCoveredBy(
  newSegments: readonly (HasBaseOffset & { readonly nextOffset: number })[],
  old: readonly (HasBaseOffset & { readonly nextOffset: number })[],
): boolean {
  const firstNew = newSegments[0];
  const lastNew = newSegments[newSegments.length - 1];
  const firstOld = old[0];
  const lastOld = old[old.length - 1];
  if (firstNew === undefined || lastNew === undefined) return false;
  if (firstOld === undefined || lastOld === undefined) return false;
  return firstNew.baseOffset === firstOld.baseOffset && lastNew.nextOffset <= lastOld.nextOffset;
}
