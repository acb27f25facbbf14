/**
 * The embedded cluster's API with a real client: `startCluster` in this process, kafkajs
 * producing and consuming through `bootstrapServers`, the admin handle, split roles, and `close`
 * (also through `await using`) stopping every node and removing the data.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { startCluster, type EmbeddedCluster } from "../../src/main/embedded/index.js";
import { kafkaOf, produceAll, readValues, valuesOf } from "./kafkajs-client.js";

test("three combined nodes serve kafkajs and close without leaving their data", async () => {
  const cluster = await startCluster({ nodes: 3 });
  try {
    assert.deepEqual(
      cluster.nodes.map((node) => [node.id, node.role, node.isRunning]),
      [
        [1, "combined", true],
        [2, "combined", true],
        [3, "combined", true],
      ],
    );
    const addresses = cluster.bootstrapServers.split(",");
    assert.equal(addresses.length, 3);
    assert.deepEqual(
      addresses,
      cluster.nodes.map((node) => node.address),
    );
    for (const address of addresses) assert.match(address, /^127\.0\.0\.1:\d+$/);
    const created = await cluster.admin.createTopic({
      name: "orders",
      partitions: 3,
      replicationFactor: 3,
      configs: { "min.insync.replicas": 2 },
    });
    assert.equal(created.partitions.length, 3);
    for (const partition of created.partitions) assert.equal(partition.replicas.length, 3);
    assert.ok((await cluster.admin.listTopics()).includes("orders"));
    const kafka = kafkaOf(cluster.bootstrapServers);
    const producer = kafka.producer();
    await producer.connect();
    const values = valuesOf("order", 20);
    const offsets = await produceAll(producer, { topic: "orders", partition: 1 }, values);
    await producer.disconnect();
    assert.deepEqual(
      offsets,
      values.map((_, index) => index),
    );
    const read = await readValues(kafka, { topic: "orders", partition: 1, count: 20 });
    assert.deepEqual(read, values);
    await cluster.admin.deleteTopic("orders");
    assert.ok(!(await cluster.admin.listTopics()).includes("orders"));
  } finally {
    await cluster.close();
  }
  assert.equal(existsSync(cluster.dataDir), false, "the data folder is removed");
  assert.deepEqual(
    cluster.nodes.map((node) => node.isRunning),
    [false, false, false],
  );
});

test("separate controllers and brokers, with topic defaults and configs per node", async () => {
  const cluster = await startCluster({
    controllers: 1,
    brokers: 2,
    topicDefaults: { partitions: 4, replicationFactor: 2 },
    nodeConfigs: { 3: { "broker.rack": "rack-b" } },
  });
  try {
    assert.deepEqual(
      cluster.nodes.map((node) => [node.id, node.role]),
      [
        [1, "controller"],
        [2, "broker"],
        [3, "broker"],
      ],
    );
    assert.equal(cluster.nodes[0]?.address, undefined, "a controller has no client listener");
    assert.equal(cluster.bootstrapServers.split(",").length, 2);
    const topic = await cluster.admin.createTopic({ name: "defaults" });
    assert.equal(topic.partitions.length, 4, "num.partitions from the topic defaults");
    for (const partition of topic.partitions) {
      assert.deepEqual([...partition.replicas].sort(), [2, 3]);
    }
    const producer = kafkaOf(cluster.bootstrapServers).producer();
    await producer.connect();
    assert.deepEqual(await produceAll(producer, { topic: "defaults", partition: 3 }, ["a"]), [0]);
    await producer.disconnect();
  } finally {
    await cluster.close();
  }
});

test("await using closes the cluster at the end of the block", async () => {
  let seen: EmbeddedCluster | undefined;
  {
    await using cluster = await startCluster({ nodes: 1 });
    seen = cluster;
    assert.equal(cluster.nodes[0]?.isRunning, true);
  }
  assert.equal(seen.nodes[0]?.isRunning, false);
  assert.equal(existsSync(seen.dataDir), false);
});

test("options that make no working cluster are refused before anything starts", async () => {
  await assert.rejects(startCluster({ brokers: 2 }), /at least one controller/);
  await assert.rejects(startCluster({ controllers: 1 }), /at least one broker/);
  await assert.rejects(startCluster({ nodes: 1, configs: { "no.such.key": 1 } }), /no\.such\.key/);
});

test("the admin handle reports the cluster's refusal with its Kafka error name", async () => {
  await using cluster = await startCluster({ nodes: 1 });
  await cluster.admin.createTopic({ name: "once" });
  await assert.rejects(cluster.admin.createTopic({ name: "once" }), /TOPIC_ALREADY_EXISTS/);
  await assert.rejects(cluster.admin.describeTopic("missing"), /UNKNOWN_TOPIC_OR_PARTITION/);
  await assert.rejects(
    cluster.admin.createTopic({ name: "too-many", replicationFactor: 3 }),
    /INVALID_REPLICATION_FACTOR/,
  );
});
