/**
 * Which connection has been quiet longest. Every connection shares one idle limit, so the order
 * of last activity is also the order of idle deadlines: a Map kept in activity order (a touch
 * moves the key to the end) gives the next deadline in O(1), as Kafka's Selector does with its
 * LRU map. One timer for the oldest serves every connection.
 */
export class IdleConnections<Id> {
  private readonly lastActiveMs = new Map<Id, number>();

  constructor(readonly idleMs: number) {}

  get size(): number {
    return this.lastActiveMs.size;
  }

  /** Records activity on `id` (added when new). */
  touch(id: Id, nowMs: number): void {
    this.lastActiveMs.delete(id);
    this.lastActiveMs.set(id, nowMs);
  }

  remove(id: Id): void {
    this.lastActiveMs.delete(id);
  }

  /** When the quietest connection turns idle, or undefined when none is tracked. */
  nextDeadlineMs(): number | undefined {
    for (const lastMs of this.lastActiveMs.values()) return lastMs + this.idleMs;
    return undefined;
  }

  /** The connections idle at `nowMs`, quietest first; they stay tracked until removed. */
  idleAt(nowMs: number): Id[] {
    const idle: Id[] = [];
    for (const [id, lastMs] of this.lastActiveMs) {
      if (lastMs + this.idleMs > nowMs) break;
      idle.push(id);
    }
    return idle;
  }
}
