/**
 * @platformatic/kafka against a Sluice node. The client needs Node 22.22 or newer, so the test
 * runs test/node22/platformatic-client.mjs under Node 22 from the npm registry
 * (`npx -y node@22`; CI fetches it ahead, see .ci/run), which produces with acks=-1 (plain, then
 * idempotent) and reads back from offset 0 with the group-less Consumer.fetch; and
 * test/node22/platformatic-offsets.mjs, which sets, lists and deletes a group's offsets with the
 * admin client.
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
const SCRIPT = join(ROOT, "test", "node22", "platformatic-client.mjs");
const OFFSETS_SCRIPT = join(ROOT, "test", "node22", "platformatic-offsets.mjs");
/** The first run downloads Node 22 from the npm registry. */
const DEADLINE_MS = 300_000;

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
});

after(async () => {
  try {
    await recordCompatibility(node, "@platformatic/kafka");
  } finally {
    await node.destroy();
  }
});

/** Runs the client script on `topic`; resolves to what it acknowledged and read. */
async function produceAndRead(topic: string, mode: "plain" | "idempotent") {
  const { stdout } = await run(
    "npx",
    ["-y", "node@22", SCRIPT, node.bootstrap, topic, "120", mode],
    { cwd: ROOT, timeout: DEADLINE_MS, maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1] ?? "{}") as {
    acknowledged: string[];
    read: string[];
  };
}

test("@platformatic/kafka produces with acks=-1 and fetches every message back", async () => {
  const outcome = await produceAndRead("platformatic", "plain");
  assert.equal(outcome.acknowledged.length, 120);
  assert.deepEqual(outcome.read, outcome.acknowledged);
});

test("an idempotent @platformatic/kafka producer (id 0, epoch 0 asked) writes once", async () => {
  const outcome = await produceAndRead("platformatic-idempotent", "idempotent");
  assert.equal(outcome.acknowledged.length, 120);
  assert.deepEqual(outcome.read, outcome.acknowledged);
});

test("@platformatic/kafka's admin sets and deletes offsets, not of unknown topics", async () => {
  const { stdout } = await run(
    "npx",
    ["-y", "node@22", OFFSETS_SCRIPT, node.bootstrap, "platformatic-offsets", "admin-group"],
    { cwd: ROOT, timeout: DEADLINE_MS, maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = stdout.trim().split("\n");
  const outcome = JSON.parse(lines[lines.length - 1] ?? "{}") as Record<string, unknown>;
  assert.deepEqual(outcome, {
    altered: ["platformatic-offsets-0=5", "platformatic-offsets-1=7"],
    // UNKNOWN_TOPIC_OR_PARTITION, and nothing stored for the topic.
    unknownTopic: [3],
    deleted: [{ name: "platformatic-offsets", partitionIndexes: [0] }],
    afterDelete: ["platformatic-offsets-1=7"],
  });
});
