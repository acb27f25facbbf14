/**
 * The `cluster` workload as the simulation runner sees it: one seed per run, with a count of the
 * leader changes and unclean elections the committed histories held, reported at the end.
 */
import type { Workload, WorkloadOutcome } from "../workloads/registry.js";
import { runClusterSeed } from "./cluster-workload.js";

const totals = { seeds: 0, leaderChanges: 0, uncleanElections: 0 };

async function run(seed: number): Promise<WorkloadOutcome> {
  const result = await runClusterSeed(seed);
  const outcome = result.outcome;
  if (outcome.kind === "failed") {
    const { reason, recentTrace } = outcome;
    return { kind: "failed", traceHash: result.traceHash, reason, recentTrace };
  }
  totals.seeds += 1;
  totals.leaderChanges += outcome.report.leaderChanges;
  totals.uncleanElections += outcome.report.uncleanElections;
  return { kind: "passed", traceHash: result.traceHash, summary: outcome.report.summary };
}

/** The controller and broker simulation: 3 controllers, 5 brokers, faults, checked history. */
export const clusterWorkload: Workload = {
  name: "cluster",
  description:
    "3 quorum controllers and 5 brokers following the metadata log, under crashes, pauses, " +
    "lossy links and partitions; checks fencing, elections, epochs, history and convergence.",
  run,
  report: () => [
    `cluster: ${totals.seeds} seeds passed, ${totals.leaderChanges} leader changes, ` +
      `${totals.uncleanElections} unclean elections`,
  ],
};
