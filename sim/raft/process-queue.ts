/**
 * The event queue of one simulated process. Events run one at a time in arrival order; none runs
 * while the process is paused (a GC pause) or blocked (an output waits for its fsync, and the
 * driver gives the node no input before the output is applied completely). Fsync completions
 * are what unblock, so they wait out only a pause.
 */

/** A process's events: messages, timers, proposals. */
export class ProcessQueue {
  private pending: (() => void)[] = [];
  private held: (() => void)[] = [];
  private isDraining = false;
  private paused = false;
  private blocked = false;

  /** True during a pause. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Runs `event` once everything before it ran and the process is neither paused nor blocked. */
  enqueue(event: () => void): void {
    this.pending.push(event);
    this.drain();
  }

  /** Puts events first in line: what an fsync made durable is told before later inputs. */
  enqueueFirst(events: readonly (() => void)[]): void {
    this.pending.unshift(...events);
  }

  /** Runs an unblocking event (an fsync completion) now, or when a pause ends. */
  runUnlessPaused(event: () => void): void {
    if (this.paused) this.held.push(event);
    else event();
  }

  /** Blocks or unblocks the queue; unblocking runs what waited. */
  setBlocked(isBlocked: boolean): void {
    this.blocked = isBlocked;
    if (!isBlocked) this.drain();
  }

  pause(): void {
    this.paused = true;
  }

  /** Ends a pause: held fsync completions first, then the queued events, in order. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    const held = this.held;
    this.held = [];
    for (const event of held) event();
    this.drain();
  }

  /** Forgets everything (the process crashed). */
  reset(): void {
    this.pending = [];
    this.held = [];
    this.paused = false;
    this.blocked = false;
  }

  private drain(): void {
    if (this.isDraining) return;
    this.isDraining = true;
    try {
      while (!this.paused && !this.blocked && this.pending.length > 0) {
        const next = this.pending.shift() as () => void;
        next();
      }
    } finally {
      this.isDraining = false;
    }
  }
}
