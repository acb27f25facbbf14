/**
 * kafkajs's idempotent producer against a Sluice node: it gets a producer id with
 * InitProducerId (the broker takes a block of ids from the controller first), writes with
 * sequence numbers, and a consumer reads each record exactly once.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { SluiceProcess, withDeadline } from "./sluice-process.js";
import { recordCompatibility } from "./compatibility-record.js";

let node: SluiceProcess;
let kafka: Kafka;
let admin: Admin;
let producer: Producer;
const TOPIC = "idempotent-topic";

before(async () => {
  node = await SluiceProcess.create(["group.initial.rebalance.delay.ms=0"]);
  await node.start();
  kafka = new Kafka({
    clientId: "sluice-idempotent-test",
    brokers: [node.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
  producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
});

after(async () => {
  // The node goes even when the published matrix is stale.
  try {
    await recordCompatibility(node, "kafkajs");
  } finally {
    await producer?.disconnect();
    await admin?.disconnect();
    await node.destroy();
  }
});

test("a kafkajs idempotent producer writes records that a consumer reads once each", async () => {
  const expected: string[] = [];
  for (let send = 0; send < 5; send++) {
    const messages = Array.from({ length: 10 }, (_, index) => ({
      key: `k${index}`,
      value: `send-${send}-record-${index}`,
    }));
    const answers = await producer.send({ topic: TOPIC, acks: -1, messages });
    assert.ok(answers.every((answer) => answer.errorCode === 0));
    expected.push(...messages.map((message) => message.value));
  }
  const consumer = kafka.consumer({ groupId: "idempotent-readers", sessionTimeout: 10_000 });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  const seen: string[] = [];
  const done = new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async ({ message }) => {
        seen.push(message.value?.toString() ?? "");
        if (seen.length >= expected.length) resolve();
      },
    });
  });
  await withDeadline(done, 60_000, () => `only ${seen.length} of ${expected.length} arrived`);
  await consumer.disconnect();
  assert.deepEqual([...seen].sort(), [...expected].sort(), "each record is read exactly once");
  const offsets = await admin.fetchTopicOffsets(TOPIC);
  const total = offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
  assert.equal(total, expected.length, "the log holds each record once");
});
