/**
 * The `npm run sim` entry: runs the registered workloads over a range of seeds and prints every
 * failing seed with the command that replays it. Exits non-zero when any seed fails.
 *
 *   node dist/sim/run.js --seeds N [--from S] [--workload NAME]
 *   node dist/sim/run.js --seed S [--workload NAME]      (replay one seed, with its trace)
 *   node dist/sim/run.js --list
 */
import { findWorkload, registeredWorkloads, type Workload } from "./workloads/index.js";

interface RunArguments {
  readonly fromSeed: number;
  readonly seedCount: number;
  readonly isReplay: boolean;
  readonly workloads: readonly Workload[];
  readonly isList: boolean;
}

const usage =
  "usage: run.js --seeds N [--from S] [--workload NAME] | --seed S [--workload NAME] | --list";

function integerFlag(args: readonly string[], flag: string): number | undefined {
  const index = args.indexOf(flag);
  if (index < 0) return undefined;
  const value = Number(args[index + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${flag} takes an integer >= 0`);
  return value;
}

function parseArguments(args: readonly string[]): RunArguments {
  const known = new Set(["--seeds", "--from", "--seed", "--workload", "--list"]);
  for (const [index, arg] of args.entries()) {
    const isValue = index > 0 && known.has(args[index - 1] ?? "") && args[index - 1] !== "--list";
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
    isReplay: seed !== undefined,
    workloads: chosen === undefined ? registeredWorkloads() : [chosen],
    isList: args.includes("--list"),
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
  if (isReplay) {
    console.log(`  trace hash ${outcome.traceHash}; latest trace lines:`);
    for (const line of outcome.recentTrace) console.log(`    ${line}`);
  }
  return false;
}

/** Runs the simulation as the arguments say; resolves to the process exit code. */
export async function runSimulation(args: readonly string[]): Promise<number> {
  let parsed: RunArguments;
  try {
    parsed = parseArguments(args);
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
  let failures = 0;
  const lastSeed = parsed.fromSeed + parsed.seedCount - 1;
  for (const workload of parsed.workloads) {
    for (let seed = parsed.fromSeed; seed <= lastSeed; seed++) {
      if (!(await runOne(workload, seed, parsed.isReplay))) failures += 1;
    }
  }
  for (const workload of parsed.workloads) {
    for (const line of workload.report?.() ?? []) console.log(line);
  }
  const runs = parsed.seedCount * parsed.workloads.length;
  console.log(
    `${runs - failures}/${runs} runs passed (seeds ${parsed.fromSeed}..${lastSeed}, ` +
      `workloads ${parsed.workloads.map((workload) => workload.name).join(", ")})`,
  );
  return failures === 0 ? 0 : 1;
}

process.exitCode = await runSimulation(process.argv.slice(2));
