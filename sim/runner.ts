/**
 * The simulation runner behind `npm run sim`: runs the registered workloads over a range of
 * seeds, or for a number of minutes, and prints every failing seed with the command that
 * replays it, then each workload's report and, when it is given a wall clock, the seed rate.
 * The entries are sim/run.ts (no clock) and bench/sim-run.ts (`npm run sim`, with one).
 *
 *   --seeds N [--from S] [--workload NAME]     seeds S..S+N-1
 *   --minutes M [--from S] [--workload NAME]   seeds from S until M minutes passed (needs a clock)
 *   --seed S [--workload NAME]                 replay one seed, with its trace
 *   --seed S --workload NAME --shrink          the smallest fault schedule still failing it
 *   --list
 */
import { findWorkload, registeredWorkloads, type Workload } from "./workloads/index.js";

/** Milliseconds of wall time, for the seed rate; the simulation itself never reads it. */
export type WallClock = () => number;

interface RunArguments {
  readonly fromSeed: number;
  readonly seedCount: number;
  /** Run seeds until this many minutes passed, instead of `seedCount` seeds. */
  readonly minutes: number | undefined;
  readonly isReplay: boolean;
  readonly workloads: readonly Workload[];
  readonly isList: boolean;
  /** With --seed: shrink the seed's fault schedule (workloads that can). */
  readonly isShrink: boolean;
}

const usage =
  "usage: --seeds N | --minutes M [--from S] [--workload NAME] | " +
  "--seed S [--workload NAME] [--shrink] | --list";

function integerFlag(args: readonly string[], flag: string): number | undefined {
  const index = args.indexOf(flag);
  if (index < 0) return undefined;
  const value = Number(args[index + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${flag} takes an integer >= 0`);
  return value;
}

function parseArguments(args: readonly string[]): RunArguments {
  const known = new Set([
    ...["--seeds", "--minutes", "--from", "--seed", "--workload", "--list", "--shrink"],
  ]);
  for (const [index, arg] of args.entries()) {
    const previous = args[index - 1] ?? "";
    const isValue = known.has(previous) && previous !== "--list" && previous !== "--shrink";
    if (!isValue && !known.has(arg)) throw new Error(`unknown argument ${arg}`);
  }
  const seed = integerFlag(args, "--seed");
  const workloadIndex = args.indexOf("--workload");
  const workloadName = workloadIndex < 0 ? undefined : args[workloadIndex + 1];
  const chosen = workloadName === undefined ? undefined : findWorkload(workloadName);
  if (workloadName !== undefined && chosen === undefined) {
    throw new Error(`no workload ${workloadName}`);
  }
  return {
    fromSeed: seed ?? integerFlag(args, "--from") ?? 1,
    seedCount: seed === undefined ? (integerFlag(args, "--seeds") ?? 10) : 1,
    minutes: seed === undefined ? integerFlag(args, "--minutes") : undefined,
    isReplay: seed !== undefined,
    workloads: chosen === undefined ? registeredWorkloads() : [chosen],
    isList: args.includes("--list"),
    isShrink: seed !== undefined && args.includes("--shrink"),
  };
}

/** Runs one workload on one seed; prints a failure with its replay command. */
async function runOne(workload: Workload, seed: number, isReplay: boolean): Promise<boolean> {
  const outcome = await workload.run(seed);
  if (outcome.kind === "passed") {
    if (isReplay) console.log(`ok ${workload.name} seed=${seed} ${outcome.summary}`);
    if (isReplay) console.log(`trace hash ${outcome.traceHash}`);
    return true;
  }
  console.log(`FAIL ${workload.name} seed=${seed}: ${outcome.reason}`);
  console.log(`  replay: npm run sim -- --seed ${seed} --workload ${workload.name}`);
  if (workload.shrink !== undefined) {
    console.log(`  shrink: npm run sim -- --seed ${seed} --workload ${workload.name} --shrink`);
  }
  if (isReplay) {
    console.log(`  trace hash ${outcome.traceHash}; latest trace lines:`);
    for (const line of outcome.recentTrace) console.log(`    ${line}`);
  }
  return false;
}

/** What one workload's run of seeds gave. */
interface WorkloadRun {
  readonly passed: number;
  readonly failed: number;
  readonly lastSeed: number;
}

/** Runs `workload` from `parsed.fromSeed` for its seed count or its minutes. */
async function runWorkload(
  workload: Workload,
  parsed: RunArguments,
  clock: WallClock | undefined,
): Promise<WorkloadRun> {
  const startedMs = clock?.() ?? 0;
  const isOver = (seed: number): boolean =>
    parsed.minutes === undefined || clock === undefined
      ? seed >= parsed.fromSeed + parsed.seedCount
      : clock() - startedMs >= parsed.minutes * 60_000;
  let passed = 0;
  let failed = 0;
  let seed = parsed.fromSeed;
  for (; !isOver(seed); seed++) {
    if (await runOne(workload, seed, parsed.isReplay)) passed += 1;
    else failed += 1;
  }
  if (clock !== undefined && !parsed.isReplay) {
    const seconds = (clock() - startedMs) / 1000;
    const rate = seconds > 0 ? (passed + failed) / seconds : 0;
    console.log(
      `${workload.name}: ${passed + failed} seeds in ${seconds.toFixed(1)} s, ` +
        `${rate.toFixed(2)} seeds per second`,
    );
  }
  return { passed, failed, lastSeed: seed - 1 };
}

/**
 * Runs the simulation as the arguments say; resolves to the process exit code. Without a wall
 * clock there is no seed rate and --minutes is refused.
 */
export async function runSimulation(args: readonly string[], clock?: WallClock): Promise<number> {
  let parsed: RunArguments;
  try {
    parsed = parseArguments(args);
    if (parsed.minutes !== undefined && clock === undefined) {
      throw new Error("--minutes needs the wall clock: run it as npm run sim");
    }
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (parsed.isList) {
    for (const workload of registeredWorkloads()) {
      console.log(`${workload.name}: ${workload.description}`);
    }
    return 0;
  }
  if (parsed.isShrink) {
    for (const workload of parsed.workloads) {
      for (const line of (await workload.shrink?.(parsed.fromSeed)) ?? []) console.log(line);
    }
    return 0;
  }
  let failures = 0;
  let runs = 0;
  let lastSeed = parsed.fromSeed;
  for (const workload of parsed.workloads) {
    const run = await runWorkload(workload, parsed, clock);
    failures += run.failed;
    runs += run.passed + run.failed;
    lastSeed = Math.max(lastSeed, run.lastSeed);
  }
  for (const workload of parsed.workloads) {
    for (const line of workload.report?.() ?? []) console.log(line);
  }
  console.log(
    `${runs - failures}/${runs} runs passed (seeds from ${parsed.fromSeed} to ${lastSeed}, ` +
      `workloads ${parsed.workloads.map((workload) => workload.name).join(", ")})`,
  );
  return failures === 0 ? 0 : 1;
}
