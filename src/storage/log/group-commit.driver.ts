/**
 * Flushes with group commit. One flush runs at a time; callers that need their offsets durable
 * wait for the first flush that covers them. While a flush runs, appends go on writing (they do
 * not hold the log's queue while they wait), and the next flush covers everything written by
 * then, so N concurrent appends share far fewer than N fsyncs.
 *
 * States: idle, flushing (one round under way), paused (an operation that removes or renames
 * segments holds it via `exclusive`; no round starts), failed (a flush threw: every waiter and
 * every later caller gets the error). Failed is final.
 */
import { assert } from "../../common/index.js";

interface Waiter {
  readonly target: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** What the group commit drives. */
export interface FlushTarget {
  /** The offset after the last batch whose write has completed: the most a flush can cover. */
  writtenEndOffset(): number;
  /** Makes every batch below `endOffset` durable. */
  flushTo(endOffset: number): Promise<void>;
  /** True while an operation of the log's queue runs: a new round waits for it to settle. */
  isWriting(): boolean;
  /** Told of a failed round that no caller was waiting for (a background flush). */
  onBackgroundFailure(error: unknown): void;
}

export class GroupCommit {
  private waiters: Waiter[] = [];
  private backgroundTarget = 0;
  private round: Promise<void> | undefined;
  private pauseCount = 0;
  private failure: { readonly error: unknown } | undefined;
  /** Flush rounds run so far (each is one fsync of each file it touches). */
  roundCount = 0;

  constructor(
    private readonly target: FlushTarget,
    private flushed: number,
  ) {}

  /** The offset below which everything is durable: the log's recovery point. */
  get flushedOffset(): number {
    return this.flushed;
  }

  /** Resolves once everything below `endOffset` is durable (or was truncated away). */
  flushTo(endOffset: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure.error);
    if (endOffset <= this.flushed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ target: endOffset, resolve, reject });
      this.maybeStartRound();
    });
  }

  /** Asks for a flush to `endOffset` that nobody waits for (Kafka's flush after a roll). */
  requestFlushTo(endOffset: number): void {
    if (this.failure !== undefined || endOffset <= this.flushed) return;
    this.backgroundTarget = Math.max(this.backgroundTarget, endOffset);
    this.maybeStartRound();
  }

  /**
   * Runs `operation` with no flush under way and none starting until it ends: truncations,
   * deletions and swaps change the segments a flush would touch.
   */
  async exclusive<T>(operation: () => Promise<T>): Promise<T> {
    this.pauseCount++;
    try {
      while (this.round !== undefined) await this.round;
      return await operation();
    } finally {
      this.pauseCount--;
      this.maybeStartRound();
    }
  }

  /**
   * Lowers the flushed offset after a truncation to `endOffset` (call inside `exclusive`).
   * Waiters for offsets above it are released: what they waited for no longer exists.
   */
  truncatedTo(endOffset: number): void {
    assert(this.round === undefined, "a truncation never overlaps a flush round");
    this.flushed = Math.min(this.flushed, endOffset);
    this.backgroundTarget = Math.min(this.backgroundTarget, endOffset);
    this.releaseWaiters((waiter) => waiter.target > endOffset);
  }

  /** Moves the flushed offset up without a flush (a recovery or a swap made it durable). */
  markFlushed(endOffset: number): void {
    this.flushed = Math.max(this.flushed, endOffset);
    this.releaseWaiters((waiter) => waiter.target <= this.flushed);
  }

  /** Resolves when no round runs. */
  async idle(): Promise<void> {
    while (this.round !== undefined) await this.round;
  }

  /**
   * Called when an operation of the log's queue settled: a round deferred for the writes under
   * way starts now. Deferring by one operation at most lets concurrent appends share the fsync
   * and never holds a waiter back behind a stream of appends.
   */
  onWriteSettled(): void {
    this.startRound({ isDeferrable: false });
  }

  private maybeStartRound(): void {
    this.startRound({ isDeferrable: true });
  }

  /** Starts a round when one is wanted and none runs or is held back. */
  private startRound(options: { readonly isDeferrable: boolean }): void {
    if (this.round !== undefined || this.pauseCount > 0 || this.failure !== undefined) return;
    if (options.isDeferrable && this.target.isWriting()) return;
    let wanted = this.backgroundTarget;
    for (const waiter of this.waiters) wanted = Math.max(wanted, waiter.target);
    // A round can only cover completed writes; asking for more would spin.
    if (Math.min(wanted, this.target.writtenEndOffset()) <= this.flushed) return;
    const round = this.runRound();
    this.round = round;
    // runRound settles every waiter itself and never rejects; this only starts the next round.
    void round.then(() => {
      this.round = undefined;
      this.startRound({ isDeferrable: false });
    });
  }

  private async runRound(): Promise<void> {
    const endOffset = this.target.writtenEndOffset();
    this.roundCount++;
    try {
      await this.target.flushTo(endOffset);
    } catch (error) {
      this.failure = { error };
      const hadWaiters = this.waiters.length > 0;
      for (const waiter of this.waiters.splice(0)) waiter.reject(error);
      if (!hadWaiters) this.target.onBackgroundFailure(error);
      return;
    }
    this.flushed = Math.max(this.flushed, endOffset);
    this.releaseWaiters((waiter) => waiter.target <= this.flushed);
  }

  private releaseWaiters(isReleased: (waiter: Waiter) => boolean): void {
    const kept: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (isReleased(waiter)) waiter.resolve();
      else kept.push(waiter);
    }
    this.waiters = kept;
  }
}
