/** One scheduled event, ordered by time, then by a seeded tie-break, then by insertion. */
export interface QueuedEvent {
  readonly timeMs: number;
  readonly tieBreak: number;
  readonly sequence: number;
}

function isBefore(left: QueuedEvent, right: QueuedEvent): boolean {
  if (left.timeMs !== right.timeMs) return left.timeMs < right.timeMs;
  if (left.tieBreak !== right.tieBreak) return left.tieBreak < right.tieBreak;
  return left.sequence < right.sequence;
}

/** A binary min-heap of events. */
export class EventQueue<T extends QueuedEvent> {
  private readonly heap: T[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(event: T): void {
    const heap = this.heap;
    heap.push(event);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!isBefore(event, heap[parent] as T)) break;
      heap[index] = heap[parent] as T;
      index = parent;
    }
    heap[index] = event;
  }

  peek(): T | undefined {
    return this.heap[0];
  }

  pop(): T | undefined {
    const heap = this.heap;
    const first = heap[0];
    const last = heap.pop();
    if (first === undefined || last === undefined || heap.length === 0) return first;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && isBefore(heap[right] as T, heap[left] as T) ? right : left;
      if (!isBefore(heap[child] as T, last)) break;
      heap[index] = heap[child] as T;
      index = child;
    }
    heap[index] = last;
    return first;
  }
}
