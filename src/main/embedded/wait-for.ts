/**
 * Waiting for a condition of the embedded cluster (a broker listed, a topic's leaders known): the
 * probe runs at once and then every few milliseconds until it gives a value, or the deadline
 * passes and the wait fails, naming what did not happen and the probe's last error.
 */
import type { Clock, Timers } from "../../ports/index.js";

/** The pause between probes: short, since each one is a request on loopback. */
const PROBE_INTERVAL_MS = 5;

export async function waitFor<T>(
  ports: { readonly clock: Clock; readonly timers: Timers },
  wait: {
    readonly what: string;
    readonly deadlineMs: number;
    /** A value ends the wait; undefined or a throw means not yet. */
    readonly probe: () => Promise<T | undefined>;
  },
): Promise<T> {
  const startedMs = ports.clock.monotonicMs();
  let lastProblem = "";
  for (;;) {
    try {
      const value = await wait.probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    if (ports.clock.monotonicMs() - startedMs >= wait.deadlineMs) {
      const detail = lastProblem === "" ? "" : ` (last: ${lastProblem})`;
      throw new Error(`${wait.what}: not in ${wait.deadlineMs} ms${detail}`);
    }
    await new Promise<void>((resolve) => ports.timers.schedule(PROBE_INTERVAL_MS, resolve));
  }
}

/** `work`, or a failure naming `what` once `deadlineMs` passes first. */
export async function withDeadline<T>(
  timers: Timers,
  work: Promise<T>,
  deadline: { readonly what: string; readonly deadlineMs: number },
): Promise<T> {
  let timer: { cancel(): void } | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = timers.schedule(deadline.deadlineMs, () =>
      reject(new Error(`${deadline.what}: not in ${deadline.deadlineMs} ms`)),
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    timer?.cancel();
  }
}
