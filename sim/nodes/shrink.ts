/**
 * The shrinker of the whole-node simulation: given a failing seed, it runs the seed again on
 * parts of its fault schedule (the same seed draws everything else the same way) and keeps the
 * smallest part that still breaks the same invariant, by delta debugging: drop halves, then
 * quarters, down to single faults, while a run without them still fails.
 */
import { describeFault, type Fault } from "./node-faults.js";
import { runNodesSeed } from "./nodes-workload.js";

/** The most runs one shrink may take. */
const MAX_TRIALS = 64;

/** The invariant a failure broke: the reason up to its first colon ("P1", "liveness"). */
function invariantOf(reason: string): string {
  return reason.split(":")[0] ?? reason;
}

export interface Shrunk {
  readonly reason: string;
  readonly faults: readonly Fault[];
  readonly originalCount: number;
  readonly trials: number;
}

/** The smallest fault schedule found that still fails `seed` the same way (none if it passes). */
export async function shrinkNodesSeed(seed: number): Promise<Shrunk | undefined> {
  const first = await runNodesSeed(seed);
  if (first.outcome.kind !== "failed") return undefined;
  const wanted = invariantOf(first.outcome.reason);
  let reason = first.outcome.reason;
  let faults = first.faults;
  let trials = 1;
  const stillFails = async (candidate: readonly Fault[]): Promise<boolean> => {
    trials += 1;
    const outcome = (await runNodesSeed(seed, candidate)).outcome;
    if (outcome.kind !== "failed" || invariantOf(outcome.reason) !== wanted) return false;
    reason = outcome.reason;
    return true;
  };
  let chunks = 2;
  while (faults.length > 0 && trials < MAX_TRIALS) {
    const size = Math.ceil(faults.length / chunks);
    let isReduced = false;
    for (let start = 0; start < faults.length && trials < MAX_TRIALS; start += size) {
      const candidate = [...faults.slice(0, start), ...faults.slice(start + size)];
      if (await stillFails(candidate)) {
        faults = candidate;
        isReduced = true;
        break;
      }
    }
    if (isReduced) chunks = Math.max(chunks - 1, 2);
    else if (size === 1) break;
    else chunks = Math.min(chunks * 2, faults.length);
  }
  return { reason, faults, originalCount: first.faults.length, trials };
}

/** The shrinker's report, as the runner prints it. */
export async function shrinkReport(seed: number): Promise<readonly string[]> {
  const shrunk = await shrinkNodesSeed(seed);
  if (shrunk === undefined) return [`seed ${seed} passes: nothing to shrink`];
  return [
    `seed ${seed} still fails with ${shrunk.faults.length} of its ${shrunk.originalCount} ` +
      `faults (${shrunk.trials} runs): ${shrunk.reason}`,
    ...shrunk.faults.map((fault) => `  ${describeFault(fault)}`),
  ];
}
