/**
 * A node under fuzz (node-fuzz.ts), with what must hold before, during and after: acknowledged
 * records written first and read back unchanged at the end, the node answering a new connection
 * and its resident memory and event-loop delay (from its /metrics) sampled as the frames go.
 * Shared by the fuzz test of `npm test` and `npm run fuzz`.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { withConnection } from "../../src/client/index.js";
import { apiVersions } from "../../src/protocol/index.js";
import { clientPorts, type SluiceProcess } from "../clients/sluice-process.js";
import { fuzzNode, type FuzzReport } from "./node-fuzz.js";

const run = promisify(execFile);
const KEPT_TOPIC = "fuzz-kept-records";
const KEPT = Array.from({ length: 200 }, (_, index) => `key-${index % 13}=kept ${index}`);

/** The API keys whose requests a node may rightly hold: a Fetch, JoinGroup or SyncGroup waits. */
export const WAITING_API_KEYS: ReadonlySet<number> = new Set([1, 11, 14]);

export interface FuzzRun {
  readonly report: FuzzReport;
  /** The largest resident memory and event-loop delay the node reported while fuzzed. */
  readonly rssBytesMax: number;
  readonly eventLoopDelayMsMax: number;
}

async function kcat(node: SluiceProcess, args: readonly string[], input?: string) {
  const child = run("kcat", ["-b", node.bootstrap, ...args], { timeout: 60_000 });
  if (input !== undefined) child.child.stdin?.end(input);
  return (await child).stdout;
}

/** The node's resident memory and the largest event-loop delay since the last scrape. */
async function sample(node: SluiceProcess): Promise<{ rss: number; delayMs: number }> {
  const text = await (await fetch(`http://127.0.0.1:${node.ports.http}/metrics`)).text();
  const valueOf = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
  return {
    rss: valueOf(/^process_resident_memory_bytes ([\d.e+]+)$/m),
    delayMs: valueOf(/^sluice_event_loop_delay_ms\{stat="max"\} ([\d.e+]+)$/m),
  };
}

/**
 * Writes the kept records (acks=all), sends `frames` mutated frames, then checks that the node
 * answers and the records read back unchanged; resolves to what was seen.
 */
export async function fuzzAndCheck(
  node: SluiceProcess,
  options: {
    readonly frames: number;
    readonly seed: number;
    readonly connections: number;
    readonly onProgress?: (run: FuzzRun) => void;
  },
): Promise<FuzzRun> {
  await kcat(node, ["-P", "-t", KEPT_TOPIC, "-K", "=", "-X", "acks=all"], `${KEPT.join("\n")}\n`);
  const seen = { rssBytesMax: 0, eventLoopDelayMsMax: 0 };
  const every = Math.max(1000, Math.floor(options.frames / 100));
  const samples: Promise<void>[] = [];
  const report = await fuzzNode({
    port: node.ports.client,
    ...options,
    progress: {
      every,
      report: (sofar) => {
        const sampled = sample(node).then(({ rss, delayMs }) => {
          seen.rssBytesMax = Math.max(seen.rssBytesMax, rss);
          seen.eventLoopDelayMsMax = Math.max(seen.eventLoopDelayMsMax, delayMs);
          options.onProgress?.({ report: sofar, ...seen });
        });
        samples.push(sampled);
      },
    },
  });
  await Promise.all(samples);
  const last = await sample(node);
  seen.rssBytesMax = Math.max(seen.rssBytesMax, last.rss);
  seen.eventLoopDelayMsMax = Math.max(seen.eventLoopDelayMsMax, last.delayMs);
  const answer = await withConnection(
    { host: "127.0.0.1", port: node.ports.client },
    clientPorts(),
    (connection) => connection.send(apiVersions, {}, { maxVersion: 3 }),
    { requestTimeoutMs: 10_000 },
  );
  assert.equal(answer.kind, "response", "the node answers a new connection after the fuzz");
  const consumed = await kcat(node, [
    "-C",
    "-t",
    KEPT_TOPIC,
    "-o",
    "beginning",
    "-e",
    "-f",
    "%k=%s\\n",
  ]);
  assert.deepEqual(consumed.split("\n").slice(0, -1), KEPT, "every acknowledged record is kept");
  return { report, ...seen };
}

/** The report's outcomes add up, reach both kinds, and only waiting APIs were parked. */
export function checkOutcomes(report: FuzzReport, frames: number): void {
  assert.equal(report.sent, frames);
  assert.equal(
    report.answered + report.closed + report.parked,
    frames,
    "every frame has an outcome",
  );
  assert.ok(report.answered > 0 && report.closed > 0, JSON.stringify(report));
  const held = [...report.parkedByApiKey.keys()].filter((key) => !WAITING_API_KEYS.has(key));
  assert.deepEqual(held, [], "only requests that may wait are held without an answer");
}
