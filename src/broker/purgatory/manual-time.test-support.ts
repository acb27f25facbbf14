import type { Clock, Timer, Timers } from "../../ports/index.js";

interface Pending {
  readonly atMs: number;
  readonly sequence: number;
  callback: (() => void) | undefined;
}

/**
 * A clock and timers that move only when a test says so, counting the timers armed at once so
 * that tests can check "one timer, not one per operation".
 */
export class ManualTime implements Clock, Timers {
  private currentMs = 0;
  private sequence = 0;
  private pending: Pending[] = [];
  /** The most timers armed at the same moment so far. */
  maxArmed = 0;
  /** Timers scheduled so far. */
  scheduledCount = 0;

  nowMs(): number {
    return 1_700_000_000_000 + this.currentMs;
  }

  monotonicMs(): number {
    return this.currentMs;
  }

  /** Timers scheduled and neither fired nor cancelled. */
  get armedCount(): number {
    return this.pending.filter((entry) => entry.callback !== undefined).length;
  }

  schedule(delayMs: number, callback: () => void): Timer {
    const entry: Pending = {
      atMs: this.currentMs + Math.max(0, delayMs),
      sequence: this.sequence++,
      callback,
    };
    this.pending.push(entry);
    this.scheduledCount++;
    this.maxArmed = Math.max(this.maxArmed, this.armedCount);
    return { cancel: () => (entry.callback = undefined) };
  }

  /** Moves time forward by `durationMs`, firing due timers in time order on the way. */
  advance(durationMs: number): void {
    const endMs = this.currentMs + durationMs;
    for (;;) {
      this.pending = this.pending.filter((entry) => entry.callback !== undefined);
      this.pending.sort((a, b) => a.atMs - b.atMs || a.sequence - b.sequence);
      const next = this.pending[0];
      if (next === undefined || next.atMs > endMs) break;
      this.pending.shift();
      this.currentMs = Math.max(this.currentMs, next.atMs);
      const callback = next.callback;
      next.callback = undefined;
      callback?.();
    }
    this.currentMs = endMs;
  }
}
