/**
 * Client quotas with real clients against a Sluice node: @platformatic/kafka's admin sets and
 * describes a producer_byte_rate quota (test/node22/platformatic-quotas.mjs, under Node 22 from
 * the npm registry as platformatic.test.ts runs it), and its producer with that client id is
 * answered with throttle times while another client id is not, and its consumer past a
 * consumer_byte_rate quota gets an empty, throttled answer; then kafkajs producing with the
 * same client id throttles itself on those answers (counted from its log) and every message is
 * acknowledged: the node serves on.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { Kafka, logLevel } from "kafkajs";
import { SluiceProcess } from "./sluice-process.js";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SCRIPT = join(ROOT, "test", "node22", "platformatic-quotas.mjs");
/** The first run downloads Node 22 from the npm registry. */
const DEADLINE_MS = 300_000;

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
});

after(async () => {
  if (process.env["QUOTAS_LOG"] === "1") console.error(node.log);
  await node.destroy();
});

test("@platformatic/kafka sets a byte-rate quota that throttles only its client id", async () => {
  const { stdout } = await run(
    "npx",
    ["-y", "node@22", SCRIPT, node.bootstrap, "quotas", "throttled-producer"],
    { cwd: ROOT, timeout: DEADLINE_MS, maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = stdout.trim().split("\n");
  const outcome = JSON.parse(lines[lines.length - 1] ?? "{}") as Record<string, unknown>;
  assert.deepEqual(outcome["altered"], [0]);
  assert.deepEqual(outcome["badKey"], {
    refused: [[42, "Invalid configuration key linger_ms"]],
  });
  assert.deepEqual(outcome["described"], [
    {
      entity: [{ entityType: "client-id", entityName: "throttled-producer" }],
      values: [{ key: "producer_byte_rate", value: 4096 }],
    },
  ]);
  const throttled = outcome["throttled"] as boolean[];
  assert.equal(throttled.length, 3, "one Produce response per message");
  assert.equal(throttled[0], false, "the first message is within the quota");
  assert.ok(throttled.filter(Boolean).length >= 1, `throttled: ${throttled.join(", ")}`);
  assert.deepEqual(outcome["other"], [false, false, false], "another client id is free");
  assert.deepEqual(outcome["consumed"], [
    { batches: 1, throttled: false },
    { batches: 0, throttled: true },
  ]);
});

test("kafkajs with a throttled client id waits out its throttles", async () => {
  let clientSideThrottles = 0;
  const kafka = new Kafka({
    clientId: "throttled-producer",
    brokers: [node.bootstrap],
    logLevel: logLevel.DEBUG,
    logCreator: () => (entry) => {
      if (entry.log.message.startsWith("Client side throttling in effect")) clientSideThrottles++;
    },
  });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    const sizes = [30_000, 15_000, 100];
    let acknowledged = 0;
    for (const size of sizes) {
      const [result] = await producer.send({
        topic: "quotas",
        acks: -1,
        messages: [{ value: "y".repeat(size) }],
      });
      if (result?.errorCode === 0) acknowledged++;
    }
    assert.equal(acknowledged, sizes.length);
    assert.ok(clientSideThrottles >= 1, "kafkajs read a throttle time and waited it out");
  } finally {
    await producer.disconnect();
  }
});
