// A separate application using the packed "sluice" package: an embedded cluster of three nodes,
// kafkajs producing with acks=all to a topic with replication factor 3, the partition's leader
// stopped, writes going on, and every value read back. Prints "ok" and exits 0 when all holds.
import assert from "node:assert/strict";
import { Kafka, logLevel } from "kafkajs";
import { startCluster } from "sluice";

const cluster = await startCluster({ nodes: 3 });
try {
  const topic = await cluster.admin.createTopic({
    name: "packed",
    partitions: 1,
    replicationFactor: 3,
    configs: { "min.insync.replicas": 2 },
  });
  const leader = topic.partitions[0].leader;
  const kafka = new Kafka({
    brokers: cluster.bootstrapServers.split(","),
    logLevel: logLevel.NOTHING,
    retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 },
  });
  const producer = kafka.producer();
  await producer.connect();
  const send = async (value) => {
    const [result] = await producer.send({ topic: "packed", acks: -1, messages: [{ value }] });
    return Number(result.baseOffset);
  };
  assert.equal(await send("before"), 0);
  await cluster.stopNode(leader);
  assert.equal(await send("after"), 1);
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: "packed-reader" });
  await consumer.connect();
  await consumer.subscribe({ topic: "packed", fromBeginning: true });
  const values = [];
  await new Promise((resolve, reject) => {
    consumer
      .run({
        eachMessage: async ({ message }) => {
          values.push(message.value.toString());
          if (values.length === 2) resolve();
        },
      })
      .catch(reject);
  });
  await consumer.disconnect();
  assert.deepEqual(values, ["before", "after"]);
  console.log(`ok: leader ${leader} stopped, values ${values.join(",")}`);
} finally {
  await cluster.close();
}
