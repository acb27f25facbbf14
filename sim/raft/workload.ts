/**
 * The `raft` workload as the simulation runner sees it: one seed per run, with the liveness
 * distribution of every seed run so far reported at the end.
 */
import type { Workload, WorkloadOutcome } from "../workloads/registry.js";
import { LivenessSamples } from "./liveness.js";
import { runRaftSeed } from "./raft-workload.js";
import { livenessBoundMs } from "./settings.js";

/** Liveness samples of every seed this process ran through the workload. */
export const raftLivenessSamples = new LivenessSamples();

async function run(seed: number): Promise<WorkloadOutcome> {
  const result = await runRaftSeed(seed);
  const outcome = result.outcome;
  if (outcome.kind === "failed") {
    const { reason, recentTrace } = outcome;
    return { kind: "failed", traceHash: result.traceHash, reason, recentTrace };
  }
  raftLivenessSamples.add(outcome.report.livenessMs);
  return { kind: "passed", traceHash: result.traceHash, summary: outcome.report.summary };
}

/** The Raft simulation: voters and observers under faults, checked on every output. */
export const raftWorkload: Workload = {
  name: "raft",
  description:
    "3 or 5 Raft voters and 1-2 observers under crashes, pauses, lossy links and partitions, " +
    "with snapshots; checks leaders, commits, high watermarks, liveness and convergence.",
  run,
  report: () => [raftLivenessSamples.summary(livenessBoundMs)],
};
