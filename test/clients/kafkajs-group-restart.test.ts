/**
 * A kafkajs consumer group (the classic protocol) across a restart of its node: two consumers
 * share a topic, the node is stopped (SIGTERM: clean shutdown; SIGKILL: as a crash) and started
 * again on the same data dir. DescribeGroups shows the group Stable with the same members and
 * assignments as soon as the node serves again, and the consumers go on reading what is
 * produced after the restart without joining again: their member ids and generation are still
 * the group's. A group whose consumers left comes back Empty, with its protocol type.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel, type Consumer, type GroupDescription } from "kafkajs";
import { SluiceProcess } from "./sluice-process.js";
import { pollUntil } from "../cluster/cluster-process.js";

const TOPIC = "orders";
const nodes: SluiceProcess[] = [];

after(async () => {
  for (const node of nodes) await node.destroy();
});

/** A kafkajs consumer of `groupId` that records what it reads and how often it joined. */
interface Reader {
  readonly consumer: Consumer;
  readonly seen: Set<string>;
  joins: number;
}

function kafkaOf(node: SluiceProcess, clientId: string): Kafka {
  // Retries long enough to outlast the node's restart, so a consumer keeps its group state.
  const retry = { retries: 30, initialRetryTime: 200, maxRetryTime: 1000 };
  return new Kafka({ clientId, brokers: [node.bootstrap], logLevel: logLevel.NOTHING, retry });
}

async function startReader(node: SluiceProcess, groupId: string, name: string): Promise<Reader> {
  const consumer = kafkaOf(node, name).consumer({
    groupId,
    sessionTimeout: 30_000,
    heartbeatInterval: 500,
  });
  const reader: Reader = { consumer, seen: new Set(), joins: 0 };
  consumer.on(consumer.events.GROUP_JOIN, () => reader.joins++);
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  void consumer.run({
    eachMessage: async ({ message }) => {
      reader.seen.add(message.value?.toString() ?? "");
    },
  });
  return reader;
}

async function describeGroup(node: SluiceProcess, groupId: string): Promise<GroupDescription> {
  const admin = kafkaOf(node, "describer").admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([groupId]);
    const [group] = groups;
    assert.ok(group !== undefined);
    return group;
  } finally {
    await admin.disconnect();
  }
}

/** The members of a described group by member id: client id and assignment bytes. */
function membersOf(group: GroupDescription) {
  return group.members
    .map((member) => ({
      memberId: member.memberId,
      clientId: member.clientId,
      assignment: member.memberAssignment.toString("hex"),
    }))
    .sort((a, b) => a.memberId.localeCompare(b.memberId));
}

async function produce(node: SluiceProcess, values: readonly string[]): Promise<void> {
  const producer = kafkaOf(node, "producer").producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({ topic: TOPIC, acks: -1, messages: values.map((value) => ({ value })) });
  } finally {
    await producer.disconnect();
  }
}

async function untilRead(readers: readonly Reader[], values: readonly string[]): Promise<void> {
  await pollUntil(
    async () => {
      const read = new Set(readers.flatMap((reader) => [...reader.seen]));
      return values.every((value) => read.has(value)) ? true : undefined;
    },
    { deadlineMs: 90_000, intervalMs: 100, what: `the group reading ${values.length} messages` },
  );
}

async function startNode(): Promise<SluiceProcess> {
  const node = await SluiceProcess.create(["group.initial.rebalance.delay.ms=0"]);
  nodes.push(node);
  await node.start();
  const admin = kafkaOf(node, "creator").admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
  await admin.disconnect();
  return node;
}

/** Two consumers of `groupId`, Stable with one partition each; their description. */
async function stableGroupOfTwo(node: SluiceProcess, groupId: string) {
  const readers = [
    await startReader(node, groupId, "reader-a"),
    await startReader(node, groupId, "reader-b"),
  ];
  const { value: described } = await pollUntil(
    async () => {
      const group = await describeGroup(node, groupId);
      const isSplit = group.members.every((member) => member.memberAssignment.length > 0);
      const isStable = group.state === "Stable" && group.members.length === 2 && isSplit;
      return isStable ? group : undefined;
    },
    { deadlineMs: 90_000, intervalMs: 200, what: "a Stable group of two" },
  );
  return { readers, described };
}

for (const signal of ["SIGTERM", "SIGKILL"] as const) {
  test(`a kafkajs group keeps its members and goes on after a ${signal} restart`, async () => {
    const node = await startNode();
    const groupId = `readers-${signal}`;
    const { readers, described } = await stableGroupOfTwo(node, groupId);
    const before = Array.from({ length: 20 }, (_, index) => `before-${index}`);
    await produce(node, before);
    await untilRead(readers, before);
    const joins = readers.map((reader) => reader.joins);

    const code = await node.stop(signal);
    if (signal === "SIGTERM") assert.equal(code, 0, node.log);
    await node.start();
    const loaded = await describeGroup(node, groupId);
    assert.equal(loaded.state, "Stable");
    assert.equal(loaded.protocolType, "consumer");
    assert.equal(loaded.protocol, described.protocol);
    assert.deepEqual(membersOf(loaded), membersOf(described));

    const afterRestart = Array.from({ length: 20 }, (_, index) => `after-${index}`);
    await produce(node, afterRestart);
    await untilRead(readers, afterRestart);
    assert.deepEqual(
      readers.map((reader) => reader.joins),
      joins,
      "the consumers went on without joining again",
    );
    assert.deepEqual(membersOf(await describeGroup(node, groupId)), membersOf(described));
    for (const reader of readers) await reader.consumer.disconnect();
  });
}

test("a kafkajs group whose consumers left comes back Empty after a restart", async () => {
  const node = await startNode();
  const groupId = "readers-gone";
  const { readers } = await stableGroupOfTwo(node, groupId);
  const values = ["only-0", "only-1", "only-2"];
  await produce(node, values);
  await untilRead(readers, values);
  for (const reader of readers) await reader.consumer.disconnect();
  assert.equal((await describeGroup(node, groupId)).state, "Empty");

  await node.stop("SIGKILL");
  await node.start();
  const loaded = await describeGroup(node, groupId);
  assert.equal(loaded.state, "Empty");
  assert.equal(loaded.protocolType, "consumer", "the group's record kept its protocol type");
  assert.deepEqual(loaded.members, []);
  const admin = kafkaOf(node, "lister").admin();
  await admin.connect();
  const { groups } = await admin.listGroups();
  await admin.disconnect();
  assert.deepEqual(groups, [{ groupId, protocolType: "consumer" }]);
});
