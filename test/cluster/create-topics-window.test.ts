/**
 * No window after CreateTopics, with real processes: on three combined nodes, the broker that
 * answers a CreateTopics describes the new topic with a leader for every partition at once, and
 * a leader it names that is the same broker takes a Produce at once; a broker still behind the
 * committed metadata answers only errors clients retry. kafkajs's `createTopics`, which asks the
 * broker it created through for the new topic's metadata right after, succeeds every time, and a
 * kafkajs producer writing right after it stores each record once.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import kafkajs from "kafkajs";
import { createTopics, produce, type ProduceResponse } from "../../src/protocol/index.js";
import { clientBatch } from "../replication/fixtures.js";
import { killAll, pollUntil, request } from "./cluster-process.js";
import { readPartition } from "./read-back.js";
import {
  bootstrapServers,
  describeTopic,
  expectBrokers,
  startThreeNodes,
  type Member,
} from "./three-nodes.js";

after(killAll);

const { Kafka, logLevel } = kafkajs;
const PARTITIONS = 3;
/** UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER: clients retry. */
const RETRIABLE = new Set([3, 5, 6]);

async function createThrough(member: Member, topic: string): Promise<void> {
  const response = await request(
    member.client,
    createTopics,
    {
      topics: [{ name: topic, numPartitions: PARTITIONS, replicationFactor: 3 }],
      timeoutMs: 10_000,
    },
    { maxVersion: 7 },
  );
  assert.equal(response.topics[0]?.errorCode, 0, `creating ${topic}`);
}

async function produceOne(leader: Member, topic: string, partition: number): Promise<number> {
  const records = clientBatch([{ timestamp: Date.now(), value: `${topic}-${partition}` }]);
  const response: ProduceResponse = await request(
    leader.client,
    produce,
    {
      acks: 1,
      timeoutMs: 5000,
      topicData: [{ name: topic, partitionData: [{ index: partition, records }] }],
    },
    { maxVersion: 9 },
  );
  return response.responses[0]?.partitionResponses[0]?.errorCode ?? -1;
}

test(
  "after CreateTopics the answering broker serves the new topic at once, lagging brokers " +
    "answer only retriable errors, and kafkajs creates and writes without a window",
  { timeout: 240_000 },
  async () => {
    const members = await startThreeNodes("create-topics-window", {});
    const [first] = members;
    assert.ok(first !== undefined);
    await expectBrokers(first, [1, 2, 3]);

    for (let round = 0; round < 6; round++) {
      const through = members[round % members.length];
      assert.ok(through !== undefined);
      const topic = `window-${round}`;
      await createThrough(through, topic);
      const seen = await describeTopic(through, topic);
      assert.equal(seen.errorCode, 0, `${topic} described by the broker that created it`);
      assert.equal(seen.partitions.size, PARTITIONS);
      for (const [index, partition] of seen.partitions) {
        assert.equal(partition.errorCode, 0, `${topic}-${index} has no error`);
        assert.ok(partition.leader >= 0, `${topic}-${index} has a leader`);
        const leader = members.find((member) => member.nodeId === partition.leader);
        assert.ok(leader !== undefined);
        const errorCode = await produceOne(leader, topic, index);
        if (leader === through) {
          assert.equal(errorCode, 0, `${topic}-${index} takes a write on its leader at once`);
        } else if (errorCode !== 0) {
          assert.ok(RETRIABLE.has(errorCode), `${topic}-${index}: error ${errorCode}`);
          await pollUntil(
            async () => ((await produceOne(leader, topic, index)) === 0 ? true : undefined),
            { deadlineMs: 10_000, intervalMs: 20, what: `${topic}-${index} writable` },
          );
        }
      }
    }

    const kafka = new Kafka({
      brokers: bootstrapServers(members).split(","),
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await admin.connect();
    await producer.connect();
    try {
      for (let round = 0; round < 5; round++) {
        const topic = `kafkajs-${round}`;
        const created = await admin.createTopics({
          topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 3 }],
        });
        assert.equal(created, true, `kafkajs created ${topic}`);
        const messages = Array.from({ length: PARTITIONS }, (_, partition) => ({
          partition,
          value: `${topic}-${partition}`,
        }));
        await producer.send({ topic, acks: -1, messages });
        for (let partition = 0; partition < PARTITIONS; partition++) {
          const read = await readPartition(bootstrapServers(members), { topic, partition });
          const values = read.map((record) => record.value);
          assert.deepEqual(values, [`${topic}-${partition}`], `${topic}-${partition} once`);
        }
      }
    } finally {
      await producer.disconnect();
      await admin.disconnect();
    }
  },
);
