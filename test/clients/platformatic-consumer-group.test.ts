/**
 * @platformatic/kafka's consumers of the consumer group protocol (KIP-848) against a Sluice
 * node: test/node22/platformatic-consumer-group.mjs runs under Node 22 from the npm registry
 * (`npx -y node@22`, as platformatic.test.ts), with three consumers joining and leaving one
 * group while messages are produced.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { SluiceProcess } from "./sluice-process.js";
import { recordCompatibility } from "./compatibility-record.js";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SCRIPT = join(ROOT, "test", "node22", "platformatic-consumer-group.mjs");
/** The first run downloads Node 22 from the npm registry. */
const DEADLINE_MS = 300_000;

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
});

after(async () => {
  await recordCompatibility(node, "@platformatic/kafka");
  await node.destroy();
});

test("three consumer-protocol members come and go, read every record, commit it once", async () => {
  const { stdout } = await run("npx", ["-y", "node@22", SCRIPT, node.bootstrap, "cg-topic", "cg"], {
    cwd: ROOT,
    timeout: DEADLINE_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  const lines = stdout.trim().split("\n");
  const outcome = JSON.parse(lines[lines.length - 1] ?? "{}") as {
    acknowledged: string[];
    read: string[];
    committed: string[];
    perConsumer: Record<string, number>;
    listed: { id: string; state: string; type: string }[];
  };
  assert.ok(outcome.acknowledged.length >= 150);
  assert.deepEqual([...new Set(outcome.read)].sort(), [...outcome.acknowledged].sort());
  // A record is read again only when its first commit did not land (a stale member epoch while
  // the group changes); a commit that landed hands the partition on past the record.
  assert.equal(new Set(outcome.committed).size, outcome.committed.length);
  // Each member counted messages before the next one joined.
  for (const name of ["a", "b", "c"]) assert.ok((outcome.perConsumer[name] ?? 0) > 0, name);
  assert.deepEqual(outcome.listed, [{ id: "cg", state: "Stable", type: "consumer" }]);
});
