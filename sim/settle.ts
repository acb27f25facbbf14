import { assert } from "../src/common/index.js";
import type { Scheduler } from "./scheduler.js";

/**
 * Runs the scheduler until `work` settles and returns its value (or throws its error). Fails
 * when the simulated time `deadlineMs` passes first, which means the work is stuck, for example
 * on a call of a crashed node that never completes.
 */
export async function settle<T>(
  scheduler: Scheduler,
  work: Promise<T>,
  deadlineMs = scheduler.nowMs() + 60_000,
): Promise<T> {
  let outcome: { kind: "value"; value: T } | { kind: "error"; error: unknown } | undefined;
  work.then(
    (value) => (outcome = { kind: "value", value }),
    (error: unknown) => (outcome = { kind: "error", error }),
  );
  await scheduler.runUntil(() => outcome !== undefined, deadlineMs);
  assert(outcome !== undefined, `work did not settle by ${deadlineMs} ms of simulated time`);
  if (outcome.kind === "error") throw outcome.error;
  return outcome.value;
}
