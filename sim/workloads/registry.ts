import { assert } from "../../src/common/index.js";

/** The outcome of one workload run on one seed. */
export type WorkloadOutcome =
  | { readonly kind: "passed"; readonly traceHash: string; readonly summary: string }
  | {
      readonly kind: "failed";
      readonly traceHash: string;
      readonly reason: string;
      /** The latest trace lines before the failure. */
      readonly recentTrace: readonly string[];
    };

/** A simulation scenario that `npm run sim` runs over many seeds. */
export interface Workload {
  /** A short name used on the command line (`--workload NAME`). */
  readonly name: string;
  /** One sentence on what the workload exercises and checks. */
  readonly description: string;
  /** Runs the scenario for one seed; must be deterministic given the seed. */
  run(seed: number): Promise<WorkloadOutcome>;
  /** Lines summarising every seed run so far (a distribution), printed after a run. */
  report?(): readonly string[];
}

/** Thrown by a workload's checker when an invariant does not hold. */
export class InvariantViolation extends Error {
  override readonly name = "InvariantViolation";
}

const registered = new Map<string, Workload>();

/** Adds a workload; names are unique. */
export function registerWorkload(workload: Workload): void {
  assert(!registered.has(workload.name), `workload ${workload.name} is registered once`);
  registered.set(workload.name, workload);
}

/** Every registered workload, in registration order. */
export function registeredWorkloads(): readonly Workload[] {
  return [...registered.values()];
}

/** The workload called `name`, if registered. */
export function findWorkload(name: string): Workload | undefined {
  return registered.get(name);
}
