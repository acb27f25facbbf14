/**
 * `npm run sim`: the simulation runner (sim/runner.ts) with the wall clock, so that it can run
 * for `--minutes M` and print the seeds per second of each workload.
 */
import { runSimulation } from "../sim/runner.js";

process.exitCode = await runSimulation(process.argv.slice(2), () => performance.now());
