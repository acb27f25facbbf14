import { assert } from "../../common/index.js";

/** A connection that can be told to try taking up requests again. */
export interface RequestTaker {
  resumeTakingUp(): void;
}

/**
 * The requests of every connection of one server taken up and not yet handled, bounded by
 * `queued.max.requests` as Kafka bounds its RequestChannel queue. At the bound a connection
 * leaves its frames queued (so it stops reading) and waits here; each handled request lets the
 * waiting connections, oldest first, take up again. A connection with nothing in flight may
 * always take up one request: Kafka handles one request per connection at a time and its queue
 * holds none that waits in a purgatory, so a request parked there (a long fetch, a produce
 * waiting for replication, a JoinGroup) must never keep out the request it waits for.
 */
export class QueuedRequests {
  private count = 0;
  private readonly waiting = new Set<RequestTaker>();

  constructor(readonly max: number) {
    assert(Number.isInteger(max) && max >= 1, "queued.max.requests is a positive integer");
  }

  /** Requests taken up and not yet handled, over every connection. */
  get size(): number {
    return this.count;
  }

  /**
   * Takes a place for one request of `taker`, or, when the queue is full, makes it wait;
   * `isOnlyRequest` (its connection has nothing else in flight) takes one past the bound.
   */
  tryTake(taker: RequestTaker, isOnlyRequest: boolean): boolean {
    if (this.count >= this.max && !isOnlyRequest) {
      this.waiting.add(taker);
      return false;
    }
    this.count++;
    return true;
  }

  /** A request was handled: its place goes to the connections waiting, in their order. */
  release(): void {
    assert(this.count > 0, "a request is released only after it was taken");
    this.count--;
    for (const taker of [...this.waiting]) {
      if (this.count >= this.max) return;
      this.waiting.delete(taker);
      taker.resumeTakingUp();
    }
  }

  /** `taker` closed: it waits no longer. */
  forget(taker: RequestTaker): void {
    this.waiting.delete(taker);
  }
}
