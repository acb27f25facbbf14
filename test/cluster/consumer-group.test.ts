/**
 * A consumer group on a fresh cluster of three combined nodes with default settings, so that
 * `__consumer_offsets` has its default replication factor of 3: a kafkajs consumer reads and
 * commits, a second one of the same group resumes where the first stopped, and after the node
 * leading the group's offsets partition is killed with -9, the group coordinator moves with
 * that partition's leadership, loads the group's offsets on the new leader, and a third
 * consumer resumes from them too.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel } from "kafkajs";
import { withDeadline } from "../clients/sluice-process.js";
import { killAll } from "./cluster-process.js";
import {
  awaitPartitions,
  bootstrapServers,
  coordinatorOf,
  createReplicatedTopic,
  expectBrokers,
  startThreeNodes,
} from "./three-nodes.js";

after(killAll);

const TOPIC = "orders";
const GROUP = "order-readers";

test(
  "a consumer group commits and resumes on a fresh three-node cluster, also after its " +
    "coordinator's node is killed",
  { timeout: 300_000 },
  async () => {
    const members = await startThreeNodes("consumer-group", {});
    const [first] = members;
    assert.ok(first !== undefined);
    await expectBrokers(first, [1, 2, 3]);
    const kafka = new Kafka({
      brokers: bootstrapServers(members).split(","),
      logLevel: logLevel.NOTHING,
    });
    await createReplicatedTopic(first, { topic: TOPIC, partitions: 2, minInsyncReplicas: 1 });
    await awaitPartitions(
      members,
      TOPIC,
      (partitions) => [...partitions.values()].every((partition) => partition.isr.length === 3),
      "a full ISR",
    );
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    let produced = 0;
    const produce = async (count: number) => {
      const messages = Array.from({ length: count }, () => ({ value: `order-${produced++}` }));
      await producer.send({ topic: TOPIC, acks: -1, messages });
    };
    const consume = async (count: number): Promise<string[]> => {
      const consumer = kafka.consumer({ groupId: GROUP, sessionTimeout: 10_000 });
      await consumer.connect();
      await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
      const seen: string[] = [];
      const done = new Promise<void>((resolve) => {
        void consumer.run({
          autoCommit: true,
          eachMessage: async ({ message }) => {
            seen.push(message.value?.toString() ?? "");
            if (seen.length >= count) resolve();
          },
        });
      });
      await withDeadline(done, 90_000, () => `only ${seen.length} of ${count} arrived`);
      await consumer.disconnect();
      return seen.sort();
    };
    const values = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, index) => `order-${from + index}`).sort();

    await produce(20);
    assert.deepEqual(await consume(20), values(0, 20));
    await produce(10);
    assert.deepEqual(await consume(10), values(20, 30), "the group resumes where it committed");

    const coordinatorId = await coordinatorOf(members, { key: GROUP, keyType: 0 });
    const victim = members.find((member) => member.nodeId === coordinatorId);
    assert.ok(victim !== undefined);
    await victim.node.stop("SIGKILL");
    await awaitPartitions(
      members,
      TOPIC,
      (partitions) =>
        [...partitions.values()].every((p) => p.leader >= 0 && p.leader !== victim.nodeId),
      "the topic led by the survivors",
      60_000,
    );
    assert.notEqual(
      await coordinatorOf(members, { key: GROUP, keyType: 0, avoiding: victim.nodeId }),
      victim.nodeId,
    );
    await produce(10);
    assert.deepEqual(await consume(10), values(30, 40), "the new coordinator has the offsets");
    await producer.disconnect();
  },
);
