/**
 * A binary min-heap of deadlines, so that the driver keeps one timer for the earliest instead
 * of one per member. Entries are never removed early: the owner checks, when one comes due,
 * whether it still applies (lazy deletion).
 */
import { assert } from "../common/index.js";

export interface Deadline<Item> {
  readonly atMs: number;
  readonly item: Item;
}

/** The most deadlines a heap holds; past it, the owner has leaked entries (a bug). */
export const DEADLINES_MAX = 10_000_000;

export class DeadlineHeap<Item> {
  private readonly entries: Deadline<Item>[] = [];

  get size(): number {
    return this.entries.length;
  }

  /** The earliest deadline's time, or undefined when empty. */
  peekMs(): number | undefined {
    return this.entries[0]?.atMs;
  }

  push(atMs: number, item: Item): void {
    assert(this.entries.length < DEADLINES_MAX, "deadline heap over its limit");
    this.entries.push({ atMs, item });
    let index = this.entries.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.at(parent).atMs <= this.at(index).atMs) break;
      this.swap(parent, index);
      index = parent;
    }
  }

  /** Removes and returns every deadline at or before `nowMs`, earliest first. */
  popDue(nowMs: number): Deadline<Item>[] {
    const due: Deadline<Item>[] = [];
    while (this.entries.length > 0 && this.at(0).atMs <= nowMs) due.push(this.popFirst());
    return due;
  }

  private popFirst(): Deadline<Item> {
    const first = this.at(0);
    const last = this.entries.pop() as Deadline<Item>;
    if (this.entries.length === 0) return first;
    this.entries[0] = last;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < this.entries.length && this.at(left).atMs < this.at(smallest).atMs) {
        smallest = left;
      }
      if (right < this.entries.length && this.at(right).atMs < this.at(smallest).atMs) {
        smallest = right;
      }
      if (smallest === index) return first;
      this.swap(index, smallest);
      index = smallest;
    }
  }

  private at(index: number): Deadline<Item> {
    const entry = this.entries[index];
    assert(entry !== undefined, "heap index in range");
    return entry;
  }

  private swap(left: number, right: number): void {
    const held = this.at(left);
    this.entries[left] = this.at(right);
    this.entries[right] = held;
  }
}
