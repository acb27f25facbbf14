/**
 * kafkajs against a Sluice node: the admin client creates, describes, reads the offsets of and
 * deletes topics; a producer with acks=-1 (not idempotent: Sluice does not serve InitProducerId
 * yet) writes keyed messages; they are read back from the beginning through kafkajs's own
 * cluster and fetch code. The test reads with the Fetch request a Consumer would send, through
 * kafkajs's internal cluster object, to check fetching on its own; kafkajs's Consumer and its
 * consumer group are tested in kafkajs-consumer.test.ts.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { SluiceProcess } from "./sluice-process.js";
import { recordCompatibility } from "./compatibility-record.js";

let node: SluiceProcess;
let kafka: Kafka;
let admin: Admin;
let producer: Producer;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
  kafka = new Kafka({
    clientId: "sluice-test",
    brokers: [node.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  admin = kafka.admin();
  await admin.connect();
  producer = kafka.producer({ idempotent: false, allowAutoTopicCreation: false });
  await producer.connect();
});

after(async () => {
  await recordCompatibility(node, "kafkajs");
  await producer?.disconnect();
  await admin?.disconnect();
  await node.destroy();
});

/** The low-level cluster kafkajs builds its consumer on (a private member of Kafka). */
interface KafkajsCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  addTargetTopic(topic: string): Promise<void>;
  findTopicPartitionMetadata(topic: string): { partitionId: number; leader: number }[];
  findBroker(target: { nodeId: string }): Promise<{
    fetch(request: object): Promise<{
      responses: {
        partitions: {
          partition: number;
          errorCode: number;
          highWatermark: string;
          messages: { offset: string; key: Buffer | null; value: Buffer | null }[];
        }[];
      }[];
    }>;
  }>;
}

function clusterOf(client: Kafka): KafkajsCluster {
  const symbol = Object.getOwnPropertySymbols(client).find(
    (candidate) => candidate.description === "private:Kafka:createCluster",
  );
  assert.ok(symbol !== undefined, "kafkajs keeps its cluster factory under a symbol");
  const create = (client as unknown as Record<symbol, (options: object) => KafkajsCluster>)[symbol];
  assert.ok(create !== undefined);
  return create({});
}

/** Every message of partition 0 of `topic` from offset 0, read with Fetch as kafkajs reads. */
async function readAll(topic: string, expected: number): Promise<{ key: string; value: string }[]> {
  const cluster = clusterOf(kafka);
  await cluster.connect();
  try {
    await cluster.addTargetTopic(topic);
    const [metadata] = cluster.findTopicPartitionMetadata(topic);
    assert.ok(metadata !== undefined && metadata.leader >= 0, "partition 0 has a leader");
    const broker = await cluster.findBroker({ nodeId: String(metadata.leader) });
    const read: { key: string; value: string }[] = [];
    for (let attempt = 0; read.length < expected && attempt < 100; attempt++) {
      const response = await broker.fetch({
        replicaId: -1,
        isolationLevel: 1,
        maxWaitTime: 100,
        minBytes: 1,
        maxBytes: 1 << 20,
        topics: [
          {
            topic,
            partitions: [{ partition: 0, fetchOffset: String(read.length), maxBytes: 1 << 20 }],
          },
        ],
      });
      const partition = response.responses[0]?.partitions[0];
      assert.ok(partition !== undefined);
      assert.equal(partition.errorCode, 0);
      for (const message of partition.messages) {
        if (Number(message.offset) !== read.length) continue;
        read.push({ key: String(message.key), value: String(message.value) });
      }
    }
    return read;
  } finally {
    await cluster.disconnect();
  }
}

test("kafkajs admin creates a topic, describes it, reads its offsets and deletes it", async () => {
  const created = await admin.createTopics({
    topics: [{ topic: "admin-topic", numPartitions: 3, replicationFactor: 1 }],
    waitForLeaders: true,
  });
  assert.equal(created, true);
  const { topics } = await admin.fetchTopicMetadata({ topics: ["admin-topic"] });
  assert.equal(topics[0]?.name, "admin-topic");
  assert.deepEqual(
    topics[0]?.partitions.map((partition) => partition.partitionId).sort(),
    [0, 1, 2],
  );
  for (const partition of topics[0]?.partitions ?? []) assert.equal(partition.leader, 1);
  const offsets = await admin.fetchTopicOffsets("admin-topic");
  assert.equal(offsets.length, 3);
  for (const offset of offsets) {
    assert.equal(offset.low, "0");
    assert.equal(offset.high, "0");
  }
  await admin.deleteTopics({ topics: ["admin-topic"] });
  assert.equal((await admin.listTopics()).includes("admin-topic"), false);
});

test("kafkajs produces with acks=-1 and reads every message back from the beginning", async () => {
  await admin.createTopics({
    topics: [{ topic: "produced", numPartitions: 1 }],
    waitForLeaders: true,
  });
  const sent = Array.from({ length: 300 }, (_, index) => ({
    key: `key-${index % 17}`,
    value: `value ${index}`,
  }));
  for (let start = 0; start < sent.length; start += 50) {
    const answers = await producer.send({
      topic: "produced",
      acks: -1,
      messages: sent.slice(start, start + 50),
    });
    assert.equal(answers[0]?.errorCode, 0);
    assert.equal(answers[0]?.baseOffset, String(start));
  }
  const offsets = await admin.fetchTopicOffsets("produced");
  assert.equal(offsets[0]?.high, String(sent.length));
  assert.deepEqual(await readAll("produced", sent.length), sent);
});
