/**
 * The time the Raft node runs on: the wall clock at the start, moved on by the monotonic clock.
 * A wall clock stepped backwards (NTP, an operator) then neither trips the node's rule that time
 * does not go backwards nor stalls its timers, and record timestamps stay near wall time.
 */
import type { Clock } from "../ports/index.js";

export function steadyClock(clock: Clock): Clock {
  const wallAtStartMs = clock.nowMs();
  const monotonicAtStartMs = clock.monotonicMs();
  return {
    // Whole milliseconds, as a wall clock gives them: the monotonic clock may have fractions.
    nowMs: () => Math.floor(wallAtStartMs + (clock.monotonicMs() - monotonicAtStartMs)),
    monotonicMs: () => clock.monotonicMs(),
  };
}
