/**
 * `node dist/sim/run.js`: the simulation runner (runner.ts) without a wall clock, so it prints
 * no seed rate and refuses --minutes; `npm run sim` runs bench/sim-run.ts, which has one.
 *
 *   node dist/sim/run.js --seeds N [--from S] [--workload NAME]
 *   node dist/sim/run.js --seed S [--workload NAME]      (replay one seed, with its trace)
 *   node dist/sim/run.js --list
 */
import { runSimulation } from "./runner.js";

process.exitCode = await runSimulation(process.argv.slice(2));
