/**
 * librdkafka's transactional producer through confluent-kafka-python (Debian's
 * python3-confluent-kafka) against a Sluice node: a consume-transform-produce loop whose
 * transactions carry the consumer's offsets, then an aborted transaction; read_committed
 * consumers see every transformed record once and none of the aborted ones, read_uncommitted
 * consumers see both, and the group's committed offset is the input's end.
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
const SCRIPT = join(ROOT, "test", "clients", "python", "transactions.py");
/** Debian's interpreter, whose site packages hold python3-confluent-kafka. */
const PYTHON = "/usr/bin/python3";
const COUNT = 20;

async function hasBinding(): Promise<boolean> {
  try {
    await run(PYTHON, ["-c", "import confluent_kafka"]);
    return true;
  } catch {
    return false;
  }
}

const available = await hasBinding();
let node: SluiceProcess | undefined;

before(async () => {
  if (!available) return;
  node = await SluiceProcess.create(["group.initial.rebalance.delay.ms=0"]);
  await node.start();
});

after(async () => {
  await node?.destroy();
});

test(
  "a confluent-kafka-python consume-transform-produce loop commits exactly once",
  { skip: available ? false : "python3-confluent-kafka is not installed" },
  async () => {
    assert.ok(node !== undefined);
    const kafka = new Kafka({ brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({
      topics: [{ topic: "py-input" }, { topic: "py-output" }],
      waitForLeaders: true,
    });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    const inputs = Array.from({ length: COUNT }, (_, index) => `record-${index}`);
    await producer.send({
      topic: "py-input",
      acks: -1,
      messages: inputs.map((value) => ({ value })),
    });
    await producer.disconnect();

    const { stdout } = await run(
      PYTHON,
      [SCRIPT, node.bootstrap, "py-input", "py-output", String(COUNT)],
      { timeout: 120_000 },
    );
    const outcome = JSON.parse(stdout) as {
      transformed: number;
      transactions: number;
      committedOffset: number;
      readCommitted: string[];
      readUncommitted: string[];
    };
    const transformed = inputs.map((value) => value.toUpperCase());
    assert.equal(outcome.transformed, COUNT);
    assert.ok(outcome.transactions >= 1);
    assert.equal(outcome.committedOffset, COUNT, "the offsets were committed with the output");
    assert.deepEqual(outcome.readCommitted, transformed, "each once, no aborted record");
    assert.deepEqual(
      [...outcome.readUncommitted].sort(),
      [...transformed, ...Array.from({ length: 5 }, (_, index) => `aborted-${index}`)].sort(),
      "read_uncommitted also sees the aborted records",
    );
  },
);
