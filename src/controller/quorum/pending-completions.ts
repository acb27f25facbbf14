/**
 * The answers that wait for the metadata log to commit: each waits for one offset (the last
 * offset of its own batch, or for an operation that wrote nothing, the last offset written
 * before it) and completes once a batch of the controller's epoch commits at or past it. Kept in
 * offset order, which is queue order, so answers leave in the order the operations came.
 */
import { assert } from "../../common/index.js";

export interface PendingCompletion {
  /** The offset that must commit. */
  readonly offset: number;
  /** Sends the answer; called once. */
  complete(): void;
  /** Sends the refusal instead; called once. */
  fail(): void;
}

/** The waiting answers of one controller, in offset order. */
export class PendingCompletions {
  private readonly waiting: PendingCompletion[] = [];

  get size(): number {
    return this.waiting.length;
  }

  /** Adds an answer; offsets never go down, as the controller writes in queue order. */
  add(completion: PendingCompletion): void {
    const last = this.waiting[this.waiting.length - 1];
    assert(last === undefined || last.offset <= completion.offset, "answers wait in offset order");
    this.waiting.push(completion);
  }

  /** Completes every answer whose offset is at or below `committedOffset`; returns how many. */
  completeThrough(committedOffset: number): number {
    let count = 0;
    while (this.waiting.length > 0 && (this.waiting[0]?.offset ?? Infinity) <= committedOffset) {
      const completion = this.waiting.shift();
      completion?.complete();
      count += 1;
    }
    return count;
  }

  /** Fails every waiting answer (leadership lost); returns how many. */
  failAll(): number {
    const failed = this.waiting.splice(0, this.waiting.length);
    for (const completion of failed) completion.fail();
    return failed.length;
  }
}
