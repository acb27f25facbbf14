/**
 * The embedded cluster's fault controls with a real client: each one changes what the cluster
 * does as the real fault would, seen through kafkajs and the admin handle (Metadata): a stopped
 * leader hands its partitions over and acks=all writes with replication factor 3 go on; a started
 * node comes back on its data into the ISR; a partitioned node and a node behind a link slower
 * than the session timeout are fenced by the controller and come back once healed; a failed log
 * dir takes its replicas offline and leadership moves away. No timing is asserted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startCluster, type EmbeddedCluster } from "../../src/main/embedded/index.js";
import { kafkaOf, produceAll, readValues, valuesOf } from "./kafkajs-client.js";

/** Polls `probe` every 20 ms until it holds; fails after 30 s. */
async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The client address of a running broker other than `excluded`. */
function witnessAvoiding(cluster: EmbeddedCluster, excluded: number) {
  const witness = cluster.nodes.find(
    (node) => node.isRunning && node.id !== excluded && node.address !== undefined,
  );
  const [host, port] = (witness?.address ?? "").split(":");
  return { host: host ?? "", port: Number(port) };
}

/** The unfenced brokers a running node other than `excluded` lists. */
async function brokersSeenAvoiding(cluster: EmbeddedCluster, excluded: number) {
  return cluster.admin.brokersListedBy(witnessAvoiding(cluster, excluded));
}

async function replicatedTopic(cluster: EmbeddedCluster, name: string) {
  return cluster.admin.createTopic({
    name,
    partitions: 1,
    replicationFactor: 3,
    configs: { "min.insync.replicas": 2 },
  });
}

test("a stopped leader hands over, acks=all writes go on, its restart rejoins", async () => {
  await using cluster = await startCluster({ nodes: 3 });
  const topic = await replicatedTopic(cluster, "payments");
  const leader = topic.partitions[0]?.leader ?? -1;
  const kafka = kafkaOf(cluster.bootstrapServers);
  const producer = kafka.producer();
  await producer.connect();
  try {
    const target = { topic: "payments", partition: 0 };
    await produceAll(producer, target, valuesOf("before", 10));
    await cluster.stopNode(leader);
    assert.equal(cluster.nodes.find((node) => node.id === leader)?.isRunning, false);
    const moved = await cluster.admin.leaderOf("payments", 0);
    assert.ok(moved !== undefined && moved !== leader, `leader ${moved} is not ${leader}`);
    const offsets = await produceAll(producer, target, valuesOf("after", 10));
    assert.deepEqual(
      offsets,
      valuesOf("", 10).map((_, index) => 10 + index),
    );
    await cluster.startNode(leader);
    await until(`node ${leader} back in the ISR`, async () => {
      const described = await cluster.admin.describeTopic("payments");
      return described.partitions[0]?.isr.includes(leader) ?? false;
    });
    const read = await readValues(kafka, { ...target, count: 20 });
    assert.deepEqual(read, [...valuesOf("before", 10), ...valuesOf("after", 10)]);
  } finally {
    await producer.disconnect();
  }
});

test("a partitioned node is fenced, writes go on elsewhere, and heal brings it back", async () => {
  await using cluster = await startCluster({ nodes: 3 });
  const topic = await replicatedTopic(cluster, "partitioned");
  const leader = topic.partitions[0]?.leader ?? -1;
  const cut = [1, 2, 3].find((id) => id !== leader) ?? -1;
  cluster.partitionNode(cut);
  await until(`node ${cut} fenced`, async () => {
    const brokers = await brokersSeenAvoiding(cluster, cut);
    return !brokers.includes(cut) && brokers.length === 2;
  });
  // An acks=all write completes once the leader's ISR no longer waits for the cut node. (The
  // admin handle may ask the cut node itself, whose view of the metadata stopped at the cut.)
  const producer = kafkaOf(cluster.bootstrapServers).producer();
  await producer.connect();
  try {
    const offsets = await produceAll(producer, { topic: "partitioned", partition: 0 }, ["x"]);
    assert.deepEqual(offsets, [0]);
  } finally {
    await producer.disconnect();
  }
  cluster.heal();
  await until(`node ${cut} unfenced again`, async () =>
    (await brokersSeenAvoiding(cluster, cut)).includes(cut),
  );
  await until(`node ${cut} back in the ISR`, async () => {
    const via = witnessAvoiding(cluster, cut);
    const described = await cluster.admin.describeTopic("partitioned", via);
    return described.partitions[0]?.isr.includes(cut) ?? false;
  });
});

test("a link slower than the session timeout gets the broker behind it fenced", async () => {
  // One controller (node 1): every heartbeat of broker 2 crosses the slowed link.
  await using cluster = await startCluster({ controllers: 1, brokers: 2 });
  cluster.slowLink(2, 1, 3000);
  await until("broker 2 fenced", async () => {
    const brokers = await brokersSeenAvoiding(cluster, 2);
    return brokers.join(",") === "3";
  });
  cluster.slowLink(2, 1, 0);
  await until("broker 2 unfenced again", async () => {
    const brokers = await brokersSeenAvoiding(cluster, 2);
    return brokers.join(",") === "2,3";
  });
});

test("a link slowed below the timeouts delays but keeps every write", async () => {
  await using cluster = await startCluster({ nodes: 3 });
  const topic = await replicatedTopic(cluster, "slow");
  const leader = topic.partitions[0]?.leader ?? -1;
  for (const other of [1, 2, 3]) if (other !== leader) cluster.slowLink(leader, other, 30);
  const kafka = kafkaOf(cluster.bootstrapServers);
  const producer = kafka.producer();
  await producer.connect();
  try {
    const values = valuesOf("slow", 10);
    await produceAll(producer, { topic: "slow", partition: 0 }, values);
    cluster.heal();
    assert.deepEqual(await readValues(kafka, { topic: "slow", partition: 0, count: 10 }), values);
  } finally {
    await producer.disconnect();
  }
});

test("failLogDir takes the leader's replica offline and leadership moves away", async () => {
  await using cluster = await startCluster({ nodes: 3 });
  const topic = await replicatedTopic(cluster, "disk");
  const leader = topic.partitions[0]?.leader ?? -1;
  const kafka = kafkaOf(cluster.bootstrapServers);
  const producer = kafka.producer();
  await producer.connect();
  try {
    const target = { topic: "disk", partition: 0 };
    await produceAll(producer, target, valuesOf("healthy", 5));
    cluster.failLogDir(leader);
    // The next append on the failed dir meets EIO; kafkajs retries on the new leader.
    await produceAll(producer, target, valuesOf("failed", 5));
    await until(`node ${leader} no longer leads and is offline for the partition`, async () => {
      const partition = (await cluster.admin.describeTopic("disk")).partitions[0];
      return (
        partition !== undefined &&
        partition.leader !== leader &&
        partition.leader >= 0 &&
        !partition.isr.includes(leader)
      );
    });
    assert.equal(cluster.nodes.find((node) => node.id === leader)?.isRunning, true);
    const read = await readValues(kafka, { ...target, count: 10 });
    assert.deepEqual(read.slice(0, 5), valuesOf("healthy", 5));
  } finally {
    await producer.disconnect();
  }
});
