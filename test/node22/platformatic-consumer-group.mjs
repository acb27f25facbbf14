// Run by platformatic-consumer-group.test.ts under Node 22 (@platformatic/kafka needs Node >=
// 22.22): three consumers of the consumer group protocol (KIP-848, group.protocol=consumer)
// join one group over a three-partition topic and leave it again while messages are produced.
// Each consumer commits every message it reads. A commit may fail (STALE_MEMBER_EPOCH while the
// group moves on, as in Kafka), so a message may be read again, but a message whose commit
// landed must not be read and committed by a second consumer. Prints one JSON line: what was
// acknowledged, what was read, what was committed, and what ListGroups v5 showed.
import {
  Admin,
  Consumer,
  Producer,
  stringDeserializers,
  stringSerializers,
} from "@platformatic/kafka";

const [bootstrap, topic, groupId] = process.argv.slice(2);
const admin = new Admin({
  clientId: "cg-admin",
  bootstrapBrokers: [bootstrap],
  retries: 100,
  retryDelay: 200,
});
await admin.createTopics({ topics: [topic], partitions: 3, replicas: 1 });
const producer = new Producer({
  clientId: "cg-producer",
  bootstrapBrokers: [bootstrap],
  serializers: stringSerializers,
  idempotent: false,
});
const acknowledged = [];
const counted = new Map();
const committed = [];
let failedCommits = 0;
const consumers = new Map();
let produced = 0;

async function produce(count) {
  const messages = [];
  for (let index = 0; index < count; index++, produced++) {
    messages.push({ topic, partition: produced % 3, key: `k${produced}`, value: `v${produced}` });
  }
  await producer.send({ messages, acks: -1 });
  acknowledged.push(...messages.map((message) => message.value));
}

async function start(name) {
  const consumer = new Consumer({
    clientId: `cg-${name}`,
    groupId,
    groupProtocol: "consumer",
    bootstrapBrokers: [bootstrap],
    deserializers: stringDeserializers,
    retries: 100,
    retryDelay: 200,
  });
  const stream = await consumer.consume({
    topics: [topic],
    autocommit: false,
    mode: "committed",
    fallbackMode: "earliest",
    maxWaitTime: 100,
  });
  counted.set(name, []);
  stream.on("data", (message) => {
    counted.get(name).push(message.value);
    message.commit((error) => {
      if (error === null || error === undefined) committed.push(message.value);
      else failedCommits++;
    });
  });
  consumers.set(name, { consumer, stream });
}

async function stop(name) {
  const { consumer, stream } = consumers.get(name);
  await stream.close();
  await consumer.close();
  consumers.delete(name);
}

/**
 * Produces one message per partition at a time until `name` has counted one, so that it holds
 * partitions before the group changes again (or a deadline passes).
 */
async function untilCounting(name) {
  for (let attempt = 0; attempt < 300 && counted.get(name).length === 0; attempt++) {
    await produce(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until every acknowledged message is read (or a deadline passes). */
async function drained() {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (new Set([...counted.values()].flat()).size >= acknowledged.length) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

try {
  await start("a");
  await produce(30);
  await untilCounting("a");
  await start("b");
  await produce(30);
  await untilCounting("b");
  await start("c");
  await produce(30);
  await untilCounting("c");
  await drained();
  const listed = await admin.listGroups({ types: ["consumer"] });
  await stop("a");
  await produce(30);
  await stop("b");
  await produce(30);
  await drained();
  await stop("c");
  const read = [...counted.values()].flat();
  process.stdout.write(
    `${JSON.stringify({
      acknowledged,
      read,
      committed,
      failedCommits,
      perConsumer: Object.fromEntries([...counted].map(([name, values]) => [name, values.length])),
      listed: [...listed.values()].map((group) => ({
        id: group.id,
        state: group.state,
        type: group.groupType ?? group.type,
      })),
    })}\n`,
  );
} finally {
  for (const name of [...consumers.keys()]) await stop(name);
  await producer.close();
  await admin.close();
}
