/**
 * The `nodes` workload as the simulation runner sees it: one seed per run, with the totals of
 * acknowledged writes and faults reported at the end.
 */
import type { Workload, WorkloadOutcome } from "../workloads/registry.js";
import { runNodesSeed } from "./nodes-workload.js";
import { shrinkReport } from "./shrink.js";

const totals = { seeds: 0, acknowledged: 0, undetermined: 0, faults: new Map<string, number>() };

async function run(seed: number): Promise<WorkloadOutcome> {
  const result = await runNodesSeed(seed);
  const outcome = result.outcome;
  if (outcome.kind === "failed") {
    const { reason, recentTrace } = outcome;
    return { kind: "failed", traceHash: result.traceHash, reason, recentTrace };
  }
  const { report } = outcome;
  totals.seeds += 1;
  totals.acknowledged += report.acknowledged;
  totals.undetermined += report.undetermined;
  for (const [kind, count] of report.faultCounts) {
    totals.faults.set(kind, (totals.faults.get(kind) ?? 0) + count);
  }
  return { kind: "passed", traceHash: result.traceHash, summary: report.summary };
}

/** Three production nodes, replicated writes and reads over the wire, under kills and cuts. */
export const nodesWorkload: Workload = {
  name: "nodes",
  description:
    "3 combined Sluice nodes built by the production composition root, producers (acks=all, " +
    "acks=1) and a reader over the Kafka protocol, under process kills and cut-off nodes; an " +
    "independent checker judges the history and the log read back.",
  run,
  shrink: shrinkReport,
  report: () => [
    `nodes: ${totals.seeds} seeds passed, ${totals.acknowledged} writes acknowledged, ` +
      `${totals.undetermined} left open; faults: ` +
      [...totals.faults].map(([kind, count]) => `${kind} ${count}`).join(", "),
  ],
};
