/**
 * kafkajs's transactional producer against a Sluice node: it finds its transaction coordinator
 * (FindCoordinator key type 1), gets a producer id and epoch for its transactional id, adds
 * partitions, sends, and commits or aborts; a read_committed consumer sees the committed records
 * and never the aborted ones. Offsets sent in a transaction become the group's only when it
 * commits, a second producer with the same transactional id fences the first, and the
 * coordinator aborts a transaction left open past its timeout.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel, type Admin } from "kafkajs";
import { SluiceProcess, withDeadline } from "./sluice-process.js";
import { recordCompatibility } from "./compatibility-record.js";
import { readCommitted } from "./read-committed.js";

let node: SluiceProcess;
let kafka: Kafka;
let admin: Admin;
const TOPIC = "transactional-topic";

before(async () => {
  node = await SluiceProcess.create([
    "group.initial.rebalance.delay.ms=0",
    // The coordinator looks for expired transactions often, for the timeout test.
    "transaction.abort.timed.out.transaction.cleanup.interval.ms=100",
  ]);
  await node.start();
  kafka = new Kafka({
    clientId: "sluice-transactions-test",
    brokers: [node.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
});

after(async () => {
  try {
    await recordCompatibility(node, "kafkajs");
  } finally {
    await admin?.disconnect();
    await node.destroy();
  }
});

function transactionalProducer(transactionalId: string) {
  return kafka.producer({
    transactionalId,
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
}

function messages(prefix: string, count: number) {
  return Array.from({ length: count }, (_, index) => ({
    key: `k${index}`,
    value: `${prefix}-${index}`,
  }));
}

test("a read_committed consumer sees committed transactions and never aborted ones", async () => {
  const producer = transactionalProducer("txn-commit-abort");
  await producer.connect();
  const committed: string[] = [];
  try {
    for (let round = 0; round < 3; round++) {
      const kept = await producer.transaction();
      const keptMessages = messages(`committed-${round}`, 5);
      await kept.send({ topic: TOPIC, messages: keptMessages });
      await kept.commit();
      committed.push(...keptMessages.map((message) => message.value));
      const dropped = await producer.transaction();
      await dropped.send({ topic: TOPIC, messages: messages(`aborted-${round}`, 5) });
      await dropped.abort();
    }
  } finally {
    await producer.disconnect();
  }
  const seen = await readCommitted(kafka, {
    topic: TOPIC,
    groupId: "read-committed-readers",
    committedCount: committed.length,
  });
  assert.deepEqual(
    seen.filter((value) => value.startsWith("aborted")),
    [],
    "no aborted record is read",
  );
  assert.deepEqual([...seen].sort(), [...committed].sort(), "each committed record is read once");
});

test("offsets sent in a transaction become the group's only when it commits", async () => {
  const groupId = "transactional-offsets";
  const producer = transactionalProducer("txn-offsets");
  await producer.connect();
  const fetchOffset = async (): Promise<string | undefined> => {
    const [topic] = await admin.fetchOffsets({ groupId, topics: [TOPIC] });
    return topic?.partitions.find((partition) => partition.partition === 0)?.offset;
  };
  try {
    const aborted = await producer.transaction();
    await aborted.send({ topic: TOPIC, messages: messages("offsets-aborted", 1) });
    await aborted.sendOffsets({
      consumerGroupId: groupId,
      topics: [{ topic: TOPIC, partitions: [{ partition: 0, offset: "7" }] }],
    });
    await aborted.abort();
    assert.equal(await fetchOffset(), "-1", "an aborted transaction's offsets are dropped");
    const kept = await producer.transaction();
    await kept.send({ topic: TOPIC, messages: messages("offsets-committed", 1) });
    await kept.sendOffsets({
      consumerGroupId: groupId,
      topics: [{ topic: TOPIC, partitions: [{ partition: 0, offset: "11" }] }],
    });
    assert.equal(await fetchOffset(), "-1", "offsets are not visible before the commit");
    await kept.commit();
    // The commit returns once PrepareCommit is durable; the marker on the offsets partition
    // follows, so the offset is waited for.
    const visible = async (): Promise<void> => {
      while ((await fetchOffset()) !== "11") await new Promise((resolve) => setImmediate(resolve));
    };
    await withDeadline(visible(), 30_000, () => "the committed offset never became visible");
  } finally {
    await producer.disconnect();
  }
});

test("a second producer with the same transactional id fences the first", async () => {
  const first = transactionalProducer("txn-fenced");
  await first.connect();
  const second = transactionalProducer("txn-fenced");
  try {
    const before = await first.transaction();
    await before.send({ topic: TOPIC, messages: messages("fenced-before", 1) });
    await before.commit();
    await second.connect();
    // kafkajs sends InitProducerId for the transactional id when its first transaction begins.
    const current = await second.transaction();
    const fenced = await first.transaction();
    await assert.rejects(
      fenced.send({ topic: TOPIC, messages: messages("fenced-after", 1) }),
      (error: Error) => /epoch|fenced/i.test(`${error.name} ${error.message}`),
      "the fenced producer's next send is refused",
    );
    await current.send({ topic: TOPIC, messages: messages("fencing", 1) });
    await current.commit();
  } finally {
    await first.disconnect().catch(() => undefined);
    await second.disconnect();
  }
});

test("an open transaction holds the stable offset until the coordinator aborts it", async () => {
  const topic = "transaction-timeout";
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  const producer = kafka.producer({
    transactionalId: "txn-timeout",
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    transactionTimeout: 1_000,
  });
  await producer.connect();
  // kafkajs asks ListOffsets with read_committed: `high` is the last stable offset.
  const stableOffset = async (): Promise<string | undefined> =>
    (await admin.fetchTopicOffsets(topic)).find((partition) => partition.partition === 0)?.high;
  try {
    const open = await producer.transaction();
    await open.send({ topic, messages: messages("timed-out", 3) });
    assert.equal(await stableOffset(), "0", "the open transaction holds the stable offset");
    const aborted = async (): Promise<void> => {
      // Three records and the coordinator's ABORT marker.
      while ((await stableOffset()) !== "4") await new Promise((resolve) => setImmediate(resolve));
    };
    await withDeadline(aborted(), 30_000, () => "the expired transaction was never aborted");
    await assert.rejects(open.commit(), "the producer was fenced by the abort");
  } finally {
    await producer.disconnect();
  }
});
