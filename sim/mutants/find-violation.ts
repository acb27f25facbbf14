/**
 * Runs one workload from seed 1 until a seed fails or `maxSeeds` have passed, and prints one
 * JSON line: the first failing seed and its reason, or null. The planted-bug test runs it on a
 * copy of the build with one bug planted.
 *
 *   node find-violation.js WORKLOAD MAX_SEEDS
 */
import { findWorkload } from "../workloads/index.js";

async function main(args: readonly string[]): Promise<number> {
  const [name, maxText] = args;
  const workload = name === undefined ? undefined : findWorkload(name);
  const maxSeeds = Number(maxText);
  if (workload === undefined || !Number.isSafeInteger(maxSeeds) || maxSeeds < 1) {
    console.error("usage: find-violation.js WORKLOAD MAX_SEEDS");
    return 2;
  }
  for (let seed = 1; seed <= maxSeeds; seed++) {
    let outcome;
    try {
      outcome = await workload.run(seed);
    } catch (error) {
      // A planted bug may break the code under test in ways the checkers do not name.
      console.log(JSON.stringify({ seed, reason: `the run threw: ${String(error)}` }));
      return 0;
    }
    if (outcome.kind === "failed") {
      console.log(JSON.stringify({ seed, reason: outcome.reason }));
      return 0;
    }
  }
  console.log(JSON.stringify({ seed: null, reason: null }));
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
