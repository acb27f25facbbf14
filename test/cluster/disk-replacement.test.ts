/**
 * Replacing a broker's failed disk, as docs/operations.md describes it, with real processes:
 * three combined nodes (the metadata log in a dir of its own), a topic with replication factor 3
 * and min.insync.replicas 2 under acks=all writes from kafkajs. Node 3 is stopped, its log dir
 * deleted as a new disk would be empty, formatted again with `sluice format --ignore-formatted`
 * (which leaves the metadata dir as it is), and started. It registers the new dir, recreates its
 * replicas there, copies them from the leaders, and comes back into every ISR; its copies then
 * hold the same batches as the others, and every acknowledged value is read back once.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { killAll } from "./cluster-process.js";
import { awaitProgress, startKafkajsProducer, stopProducers } from "./producers.js";
import { awaitIdenticalReplicas, checkReadBack, readPartition } from "./read-back.js";
import {
  awaitPartitions,
  bootstrapServers,
  createReplicatedTopic,
  expectBrokers,
  QUICK_FAILURE_DETECTION,
  startThreeNodes,
  type PartitionView,
} from "./three-nodes.js";

after(async () => {
  await stopProducers();
  await killAll();
});

const TOPIC = "new-disk";
const PARTITIONS = 3;

const isrIs = (size: number) => (partitions: ReadonlyMap<number, PartitionView>) =>
  partitions.size === PARTITIONS &&
  [...partitions.values()].every((partition) => partition.isr.length === size);

/** The cluster id in the meta.properties of `dir`. */
function clusterIdOf(dir: string): string {
  const line = readFileSync(join(dir, "meta.properties"), "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("cluster.id="));
  assert.ok(line !== undefined, `${dir} is formatted`);
  return line.slice("cluster.id=".length);
}

test("a broker whose log dir was replaced by an empty one copies its replicas back", async () => {
  const members = await startThreeNodes(
    "disk-replacement",
    QUICK_FAILURE_DETECTION,
    (_id, node) => ({
      "log.dirs": node.dataDir("data"),
      "metadata.log.dir": node.dataDir("metadata"),
    }),
  );
  const [first, , replaced] = members;
  assert.ok(first !== undefined && replaced !== undefined);
  await expectBrokers(first, [1, 2, 3]);
  await createReplicatedTopic(first, {
    topic: TOPIC,
    partitions: PARTITIONS,
    minInsyncReplicas: 2,
  });
  await awaitPartitions(members, TOPIC, isrIs(3), "a full ISR");
  const bootstrap = bootstrapServers(members);
  const producer = startKafkajsProducer(bootstrap, { topic: TOPIC, partition: 0 });
  try {
    await awaitProgress(producer, 30);
    await replaced.node.stop("SIGTERM");
    const dataDir = replaced.node.dataDir("data");
    const clusterId = clusterIdOf(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    await awaitPartitions(members.slice(0, 2), TOPIC, isrIs(2), "the ISRs without node 3");
    await awaitProgress(producer, 30);
    const formatted = await replaced.node.format(clusterId, ["--ignore-formatted"]);
    assert.match(formatted, /Formatting .*node-3.data with/);
    assert.doesNotMatch(formatted, /metadata/, "the metadata dir keeps its data");
    await replaced.node.start();
    await awaitPartitions(members, TOPIC, isrIs(3), "node 3 back in every ISR");
    await awaitProgress(producer, 30);
  } finally {
    await producer.stop();
  }
  const { acknowledged } = await producer.stop();
  for (let partition = 0; partition < PARTITIONS; partition++) {
    await awaitIdenticalReplicas(members, { topic: TOPIC, partition });
  }
  const read = await readPartition(bootstrap, { topic: TOPIC, partition: 0 });
  checkReadBack("partition 0", acknowledged, read);
});
