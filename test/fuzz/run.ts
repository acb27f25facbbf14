/**
 * `npm run fuzz`: the long fuzz run of a node (node-fuzz-check.ts), 1,000,000 frames by default.
 *
 *   npm run fuzz -- [--frames N] [--seed N] [--connections N]
 *
 * Prints the outcomes and the node's resident memory and event-loop delay as it goes, then
 * checks that every frame had an outcome, only requests that may wait were held, the node
 * answers, every acknowledged record reads back, the resident memory stayed under 1 GiB and the
 * event loop was never delayed by a second or more. Exits 1 when any of these fails.
 */
import { parseArgs } from "node:util";
import { SluiceProcess } from "../clients/sluice-process.js";
import { checkOutcomes, fuzzAndCheck, type FuzzRun } from "./node-fuzz-check.js";

const RSS_BYTES_MAX = 1024 * 1024 * 1024;
const EVENT_LOOP_DELAY_MS_MAX = 1000;

function line(run: FuzzRun, startedMs: number): string {
  const { sent, answered, closed, parked } = run.report;
  const seconds = ((performance.now() - startedMs) / 1000).toFixed(0);
  const rssMiB = (run.rssBytesMax / 2 ** 20).toFixed(0);
  const delay = run.eventLoopDelayMsMax.toFixed(1);
  return (
    `${seconds}s sent ${sent} answered ${answered} closed ${closed} parked ${parked} ` +
    `rss max ${rssMiB} MiB event-loop delay max ${delay} ms`
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      frames: { type: "string", default: "1000000" },
      seed: { type: "string", default: String(0x5eed_f00d) },
      connections: { type: "string", default: "8" },
    },
  });
  const frames = Number(values.frames);
  const seed = Number(values.seed);
  const connections = Number(values.connections);
  const node = await SluiceProcess.create([]);
  await node.start();
  const startedMs = performance.now();
  try {
    const run = await fuzzAndCheck(node, {
      frames,
      seed,
      connections,
      onProgress: (sofar) => process.stdout.write(`${line(sofar, startedMs)}\n`),
    });
    process.stdout.write(`${line(run, startedMs)}\n`);
    process.stdout.write(`parked by API key: ${JSON.stringify([...run.report.parkedByApiKey])}\n`);
    checkOutcomes(run.report, frames);
    const problems = [
      ...(run.rssBytesMax < RSS_BYTES_MAX ? [] : [`resident memory reached ${run.rssBytesMax}`]),
      ...(run.eventLoopDelayMsMax < EVENT_LOOP_DELAY_MS_MAX
        ? []
        : [`the event loop was delayed ${run.eventLoopDelayMsMax} ms`]),
    ];
    for (const problem of problems) process.stdout.write(`FAILED: ${problem}\n`);
    process.stdout.write(problems.length === 0 ? "fuzz: all held\n" : "fuzz: failed\n");
    return problems.length === 0 ? 0 : 1;
  } finally {
    await node.destroy();
  }
}

process.exitCode = await main().catch((error: unknown) => {
  process.stdout.write(`fuzz: failed: ${String(error)}\n`);
  return 1;
});
