/**
 * Transactions on a compacted topic with real clients: kafkajs's transactional producer commits,
 * aborts and commits again over the same keys, then the log cleaner of a real node compacts the
 * rolled segments (KIP-98's rules, src/storage/cleaner). Once it has, a read_uncommitted reader
 * (kcat) no longer finds the aborted records at all, each key is left with its latest committed
 * value, and a read_committed kafkajs consumer reads the same latest values.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Kafka, logLevel } from "kafkajs";
import { pollUntil } from "../cluster/cluster-process.js";
import { readCommitted } from "./read-committed.js";
import { SluiceProcess } from "./sluice-process.js";

const run = promisify(execFile);
const TOPIC = "compacted-transactions";
const KEYS = Array.from({ length: 10 }, (_, index) => `k${index}`);

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create(["log.cleaner.backoff.ms=100"]);
  await node.start();
});

after(async () => {
  if (node !== undefined) await node.destroy();
});

/** Every record of the topic as `key=value`, read_uncommitted, from the beginning. */
async function readUncommitted(): Promise<string[]> {
  const { stdout } = await run(
    "kcat",
    [
      ...["-b", node.bootstrap, "-C", "-t", TOPIC, "-o", "beginning", "-e"],
      ...["-X", "isolation.level=read_uncommitted", "-f", "%k=%s\\n"],
    ],
    { timeout: 60_000 },
  );
  return stdout.split("\n").filter((line) => line !== "");
}

/** The last value of each key in `records` (`key=value` lines), in key order. */
function latest(records: readonly string[]): string[] {
  const byKey = new Map(records.map((record) => [record.split("=")[0] ?? "", record]));
  return [...byKey.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, record]) => record);
}

test("the cleaner removes aborted records and keeps the latest committed ones", async () => {
  const kafka = new Kafka({ brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const configs = {
    "cleanup.policy": "compact",
    "segment.bytes": "400",
    "min.cleanable.dirty.ratio": "0.01",
    "min.compaction.lag.ms": "0",
    "delete.retention.ms": "0",
  };
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      {
        topic: TOPIC,
        numPartitions: 1,
        configEntries: Object.entries(configs).map(([name, value]) => ({ name, value })),
      },
    ],
  });
  await admin.disconnect();
  const producer = kafka.producer({
    transactionalId: "compacted-transactions",
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  const inTransaction = async (keys: readonly string[], value: string, commit: boolean) => {
    const transaction = await producer.transaction();
    for (const key of keys) await transaction.send({ topic: TOPIC, messages: [{ key, value }] });
    await (commit ? transaction.commit() : transaction.abort());
  };
  await inTransaction(KEYS, "committed-1", true);
  await inTransaction(KEYS, "aborted", false);
  await inTransaction(KEYS.slice(0, 5), "committed-2", true);
  // Records after the last transaction roll its segment, so the cleaner may take it.
  await inTransaction(["filler"], "committed-3", true);
  await inTransaction(["filler"], "committed-4", true);
  await producer.disconnect();
  const before = await readUncommitted();
  assert.ok(
    before.some((record) => record.endsWith("=aborted")),
    "the aborted records are there",
  );
  const cleaned = await pollUntil(
    async () => {
      const records = await readUncommitted();
      const isCompacted = records.filter((record) => record.startsWith("k0=")).length === 1;
      const hasAborted = records.some((record) => record.endsWith("=aborted"));
      return isCompacted && !hasAborted ? records : undefined;
    },
    { deadlineMs: 60_000, intervalMs: 200, what: "the cleaner compacts the topic" },
  );
  const expected = [
    ...KEYS.slice(0, 5).map((key) => `${key}=committed-2`),
    ...KEYS.slice(5).map((key) => `${key}=committed-1`),
  ];
  const withoutFiller = (records: readonly string[]) =>
    latest(records).filter((record) => !record.startsWith("filler="));
  assert.deepEqual(withoutFiller(cleaned.value), expected);
  const committed = await readCommitted(kafka, {
    topic: TOPIC,
    groupId: "compacted-reader",
    committedCount: 1,
    committedPrefix: "committed-4",
  });
  assert.ok(!committed.includes("aborted"), "read_committed never saw an aborted record");
});
