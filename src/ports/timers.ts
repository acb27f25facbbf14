/** A scheduled callback that can be cancelled; cancelling a fired or cancelled timer is a no-op. */
export interface Timer {
  cancel(): void;
}

/** The source of delayed execution. Domain drivers schedule work only through this port. */
export interface Timers {
  /** Runs `callback` once, `delayMs` milliseconds from now on the monotonic clock. */
  schedule(delayMs: number, callback: () => void): Timer;
}
