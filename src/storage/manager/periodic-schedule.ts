/**
 * When the log manager's periodic tasks are due. Kafka schedules each of them first after an
 * initial delay of 30 s and then at a fixed interval; here the caller's clock drives them, so a
 * task that missed several intervals (a slow disk, a paused process) runs once, not once per
 * missed interval. Pure.
 */
import { assert } from "../../common/index.js";

/** Kafka's LogManager.InitialTaskDelayMs: no periodic work in the first 30 s after start. */
export const INITIAL_TASK_DELAY_MS = 30_000;

/** The next due time of each named task. */
export class PeriodicSchedule<TaskName extends string> {
  private readonly nextDueMs = new Map<TaskName, number>();

  /**
   * `intervalsMs` gives each task its period; a period of Number.MAX_SAFE_INTEGER or more (Kafka's
   * Long.MAX_VALUE, "never") keeps the task from ever running.
   */
  constructor(
    private readonly intervalsMs: Readonly<Record<TaskName, number>>,
    startMs: number,
    initialDelayMs: number = INITIAL_TASK_DELAY_MS,
  ) {
    for (const [name, intervalMs] of Object.entries(intervalsMs) as [TaskName, number][]) {
      assert(intervalMs > 0, `the interval of ${name} is positive`);
      this.nextDueMs.set(name, startMs + initialDelayMs);
    }
  }

  /** The tasks due at `nowMs`, in the order of the intervals record; each is moved on a period. */
  takeDue(nowMs: number): TaskName[] {
    const due: TaskName[] = [];
    for (const [name, dueMs] of this.nextDueMs) {
      const intervalMs = this.intervalsMs[name];
      if (intervalMs >= Number.MAX_SAFE_INTEGER || nowMs < dueMs) continue;
      due.push(name);
      this.nextDueMs.set(name, nowMs + intervalMs);
    }
    return due;
  }

  /** Makes `name` due again at `nowMs` (a task with more work to do than one run takes). */
  makeDue(name: TaskName, nowMs: number): void {
    assert(this.nextDueMs.has(name), `${name} is a scheduled task`);
    this.nextDueMs.set(name, nowMs);
  }

  /** The earliest time any task is due, for a driver that sleeps until then. */
  nextDueAtMs(): number {
    let earliest = Number.MAX_SAFE_INTEGER;
    for (const [name, dueMs] of this.nextDueMs) {
      if (this.intervalsMs[name] < Number.MAX_SAFE_INTEGER) earliest = Math.min(earliest, dueMs);
    }
    return earliest;
  }
}
