import { assert } from "../../common/index.js";

/** An item with a deadline; `sequence` breaks ties so equal deadlines leave in insertion order. */
export interface DeadlineItem {
  readonly deadlineMs: number;
  readonly sequence: number;
}

/**
 * A binary min-heap of items ordered by (deadlineMs, sequence): the purgatory's single timer only
 * needs the earliest deadline, and expiry takes items in deadline order. Removal of an item that
 * completed early is lazy (the caller skips it when it reaches the top) with `rebuild` to purge
 * such items in bulk.
 */
export class DeadlineHeap<Item extends DeadlineItem> {
  private items: Item[] = [];

  /** How many items the heap holds, stale ones included. */
  get size(): number {
    return this.items.length;
  }

  /** The earliest item, or undefined when the heap is empty. */
  peek(): Item | undefined {
    return this.items[0];
  }

  push(item: Item): void {
    assert(Number.isFinite(item.deadlineMs), "a deadline is a finite number");
    this.items.push(item);
    this.siftUp(this.items.length - 1);
  }

  /** Removes and returns the earliest item, or undefined when the heap is empty. */
  pop(): Item | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (top === undefined || last === undefined) return undefined;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Keeps only the items `keep` accepts, in O(n). */
  rebuild(keep: (item: Item) => boolean): void {
    this.items = this.items.filter(keep);
    for (let index = (this.items.length >> 1) - 1; index >= 0; index--) this.siftDown(index);
  }

  private siftUp(start: number): void {
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.isBefore(index, parent)) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private siftDown(start: number): void {
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < this.items.length && this.isBefore(left, smallest)) smallest = left;
      if (right < this.items.length && this.isBefore(right, smallest)) smallest = right;
      if (smallest === index) return;
      this.swap(index, smallest);
      index = smallest;
    }
  }

  private isBefore(a: number, b: number): boolean {
    const first = this.items[a] as Item;
    const second = this.items[b] as Item;
    if (first.deadlineMs !== second.deadlineMs) return first.deadlineMs < second.deadlineMs;
    return first.sequence < second.sequence;
  }

  private swap(a: number, b: number): void {
    const first = this.items[a] as Item;
    this.items[a] = this.items[b] as Item;
    this.items[b] = first;
  }
}
