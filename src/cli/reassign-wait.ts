/**
 * `sluice reassign execute --wait`: follows the reassignment just started, asking the controller
 * (ListPartitionReassignments) once a second and printing a progress line whenever a partition
 * finishes (the partitions still moving, with the replicas they add and remove), until none is
 * under way or `--wait-timeout-ms` has passed. It ends by checking each partition's replicas
 * against the plan; with `--json` the progress is not printed and the outcome is returned.
 */
import { EXIT } from "./command-options.js";
import { CommandFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, type AdminIo, type AdminOptions, type Cell } from "./admin-command.js";
import type { PartitionReplicas } from "./reassign-plan.js";
import { ongoingReassignments, planOutcomes } from "./reassign-status.js";

const POLL_INTERVAL_MS = 1000;
const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

export async function waitForReassignments(
  session: ClusterSession,
  plan: readonly PartitionReplicas[],
  options: AdminOptions,
  io: AdminIo,
): Promise<WaitOutcome> {
  const timeoutText = options.values.get("--wait-timeout-ms");
  const timeoutMs = timeoutText === undefined ? DEFAULT_WAIT_TIMEOUT_MS : Number(timeoutText);
  if (timeoutText !== undefined && (!/^\d+$/.test(timeoutText) || timeoutMs <= 0)) {
    throw new CommandFailure(`--wait-timeout-ms: "${timeoutText}" is not a positive number`);
  }
  const deadlineMs = io.clock.monotonicMs() + timeoutMs;
  const show = (line: string): void => {
    if (!isJson(options)) io.write(line);
  };
  let lastDone = -1;
  for (;;) {
    const ongoing = await ongoingReassignments(session);
    const moving = plan.filter((entry) => ongoing.has(`${entry.topic}-${entry.partition}`));
    const done = plan.length - moving.length;
    if (done !== lastDone) {
      show(`Reassigned ${done} of ${plan.length} partitions`);
      for (const entry of moving) {
        const state = ongoing.get(`${entry.topic}-${entry.partition}`);
        const adding = state?.addingReplicas.join(",") || "none";
        const removing = state?.removingReplicas.join(",") || "none";
        show(`  ${entry.topic}-${entry.partition}: adding ${adding}, removing ${removing}`);
      }
      lastDone = done;
    }
    if (moving.length === 0) break;
    if (io.clock.monotonicMs() + POLL_INTERVAL_MS > deadlineMs) {
      io.error(
        `Error: ${moving.length} partition reassignment(s) still in progress ` +
          `after ${timeoutMs} ms;` +
          " sluice reassign verify shows how they stand",
      );
      return { code: EXIT.failed, outcome: undefined };
    }
    await new Promise<void>((resolve) => io.timers.schedule(POLL_INTERVAL_MS, resolve));
  }
  return checkOutcome(session, plan, options, io);
}

/** How the wait ended, and each partition's replicas at the end (none after a timeout). */
export interface WaitOutcome {
  readonly code: number;
  readonly outcome: readonly Readonly<Record<string, Cell>>[] | undefined;
}

/** Whether every partition ended with the planned replicas. */
async function checkOutcome(
  session: ClusterSession,
  plan: readonly PartitionReplicas[],
  options: AdminOptions,
  io: AdminIo,
): Promise<WaitOutcome> {
  const outcomes = await planOutcomes(session, plan);
  const rows = outcomes.map(({ entry, now, isDone }) => {
    return {
      TOPIC: entry.topic,
      PARTITION: entry.partition,
      REPLICAS: now?.replicas.join(",") ?? null,
      STATUS: isDone ? "completed" : "not as planned",
    };
  });
  const wrong = rows.filter((row) => row.STATUS !== "completed");
  if (wrong.length === 0) {
    if (!isJson(options)) io.write(`All ${plan.length} partition reassignments completed.`);
    return { code: EXIT.ok, outcome: rows };
  }
  for (const row of wrong) {
    io.error(
      `Error: partition ${row.TOPIC}-${row.PARTITION} ended with replicas ${row.REPLICAS ?? "-"}` +
        " instead of the planned ones (was the reassignment cancelled?)",
    );
  }
  return { code: EXIT.failed, outcome: rows };
}
