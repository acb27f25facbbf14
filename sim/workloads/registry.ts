import { AssertionError, assert } from "../../src/common/index.js";
import type { Scheduler } from "../scheduler.js";

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
  /** For a failing seed, the smallest fault schedule that still fails it, as lines. */
  shrink?(seed: number): Promise<readonly string[]>;
}

/** Thrown by a workload's checker when an invariant does not hold. */
export class InvariantViolation extends Error {
  override readonly name = "InvariantViolation";
}

/** How one seed of a workload ended: its report, or the broken invariant and the trace before. */
export interface SeedResult<Report> {
  readonly traceHash: string;
  readonly outcome:
    | { readonly kind: "passed"; readonly report: Report }
    | { readonly kind: "failed"; readonly reason: string; readonly recentTrace: readonly string[] };
}

/**
 * Runs the phases of one seed on `scheduler`. A broken invariant (a checker's InvariantViolation,
 * or an assertion anywhere in the code under test) ends the run and is reported with the latest
 * trace lines; any other error is a fault of the simulation itself and propagates.
 */
export async function runSeedPhases<Report>(
  scheduler: Scheduler,
  phases: () => Promise<Report>,
): Promise<SeedResult<Report>> {
  try {
    const report = await phases();
    return { traceHash: scheduler.traceHash(), outcome: { kind: "passed", report } };
  } catch (error) {
    if (!(error instanceof InvariantViolation) && !(error instanceof AssertionError)) throw error;
    const reason = error instanceof AssertionError ? `assertion: ${error.message}` : error.message;
    scheduler.record(`failed: ${reason}`);
    return {
      traceHash: scheduler.traceHash(),
      outcome: { kind: "failed", reason, recentTrace: scheduler.trace.recentLines() },
    };
  }
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

/** A seed that once failed, kept as a regression test with what it found. */
export interface RegressionSeed {
  readonly seed: number;
  readonly found: string;
}

/** The seeds `workload` fails on now, each with what it once found and the reason now. */
export async function regressionFailures(
  workload: Workload,
  seeds: readonly RegressionSeed[],
): Promise<string[]> {
  const failures: string[] = [];
  for (const { seed, found } of seeds) {
    const outcome = await workload.run(seed);
    if (outcome.kind === "failed") failures.push(`seed ${seed} (${found}): ${outcome.reason}`);
  }
  return failures;
}
