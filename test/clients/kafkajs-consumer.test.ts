/**
 * kafkajs's Consumer against a Sluice node: it finds the group coordinator, joins a group,
 * reads every produced message from the beginning, commits offsets, and a second consumer of
 * the same group resumes from the committed offset.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { SluiceProcess, withDeadline } from "./sluice-process.js";
import { recordCompatibility, usedVersions } from "./compatibility-record.js";

let node: SluiceProcess;
let kafka: Kafka;
let admin: Admin;
let producer: Producer;
const TOPIC = "consumer-topic";
const GROUP = "consumer-group";

before(async () => {
  // Without the initial rebalance delay (3 s by default) each join completes at once.
  node = await SluiceProcess.create(["group.initial.rebalance.delay.ms=0"]);
  await node.start();
  kafka = new Kafka({
    clientId: "sluice-consumer-test",
    brokers: [node.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
  producer = kafka.producer({ idempotent: false, allowAutoTopicCreation: false });
  await producer.connect();
});

after(async () => {
  try {
    await recordCompatibility(node, "kafkajs");
  } finally {
    await producer?.disconnect();
    await admin?.disconnect();
    await node.destroy();
  }
});

/** Consumes until `count` messages arrived, commits them, and stops the consumer. */
async function consume(count: number): Promise<{ key: string; value: string; offset: string }[]> {
  const consumer = kafka.consumer({ groupId: GROUP, sessionTimeout: 10_000 });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  const seen: { key: string; value: string; offset: string }[] = [];
  const done = new Promise<void>((resolve) => {
    void consumer.run({
      autoCommit: true,
      eachMessage: async ({ message }) => {
        seen.push({
          key: message.key?.toString() ?? "",
          value: message.value?.toString() ?? "",
          offset: message.offset,
        });
        if (seen.length >= count) resolve();
      },
    });
  });
  await withDeadline(done, 60_000, () => `only ${seen.length} of ${count} messages arrived`);
  await consumer.disconnect();
  return seen;
}

test("a kafkajs consumer group reads from the beginning and resumes from its commits", async () => {
  const first = Array.from({ length: 20 }, (_, index) => ({
    key: `k${index}`,
    value: `v${index}`,
  }));
  await producer.send({ topic: TOPIC, acks: -1, messages: first });
  const seen = await consume(first.length);
  assert.deepEqual(
    seen.map(({ key, value }) => `${key}=${value}`).sort(),
    first.map(({ key, value }) => `${key}=${value}`).sort(),
  );
  const committed = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
  const total = committed[0]?.partitions.reduce((sum, p) => sum + Number(p.offset), 0);
  assert.equal(total, first.length, "every message's offset is committed");

  const second = Array.from({ length: 5 }, (_, index) => ({
    key: `n${index}`,
    value: `w${index}`,
  }));
  await producer.send({ topic: TOPIC, acks: -1, messages: second });
  const resumed = await consume(second.length);
  assert.deepEqual(
    resumed.map(({ key, value }) => `${key}=${value}`).sort(),
    second.map(({ key, value }) => `${key}=${value}`).sort(),
    "the restarted consumer starts at the committed offsets",
  );
});

test("a kafkajs consumer heartbeats while it waits for records", async () => {
  // Short fetch waits and heartbeat interval, so that kafkajs heartbeats between idle fetches.
  const consumer = kafka.consumer({
    groupId: `${GROUP}-heartbeat`,
    sessionTimeout: 10_000,
    heartbeatInterval: 50,
    maxWaitTimeInMs: 100,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: TOPIC, fromBeginning: false });
    void consumer.run({ eachMessage: async () => {} });
    const deadline = Date.now() + 60_000;
    const heartbeats = async () =>
      (await usedVersions(node)).some(({ api }) => api === "Heartbeat");
    while (!(await heartbeats())) {
      assert.ok(Date.now() < deadline, "the node counts a Heartbeat request from kafkajs");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await consumer.disconnect();
  }
});
