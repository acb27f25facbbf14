import { assert } from "../src/common/index.js";
import type { Clock } from "../src/ports/index.js";

/** The default wall-clock origin of a simulation: 2024-01-01T00:00:00Z. */
export const simulationEpochMs = 1_704_067_200_000;

/**
 * A clock that moves only when told to. The scheduler advances it to each event's time; tests
 * may advance it directly when no scheduler runs.
 */
export class ManualClock implements Clock {
  private elapsedMs = 0;

  constructor(private readonly startWallMs: number = simulationEpochMs) {}

  nowMs(): number {
    return this.startWallMs + this.elapsedMs;
  }

  monotonicMs(): number {
    return this.elapsedMs;
  }

  /** Moves time forward to `monotonicMs`; time never goes backwards. */
  advanceTo(monotonicMs: number): void {
    assert(monotonicMs >= this.elapsedMs, "a manual clock never goes backwards");
    this.elapsedMs = monotonicMs;
  }

  /** Moves time forward by `durationMs`. */
  advanceBy(durationMs: number): void {
    this.advanceTo(this.elapsedMs + durationMs);
  }
}
