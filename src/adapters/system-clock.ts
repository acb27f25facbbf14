import type { Clock } from "../ports/index.js";

/** The real clock: wall time from Date.now, monotonic time from performance.now. */
export class SystemClock implements Clock {
  nowMs(): number {
    return Date.now();
  }

  monotonicMs(): number {
    // performance.now counts from process start and never goes backwards, unlike Date.now,
    // which moves when the system clock is set.
    return performance.now();
  }
}
