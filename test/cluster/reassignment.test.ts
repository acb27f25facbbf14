/**
 * Reassignment moves data, with real processes: a partition on brokers [1, 2] is reassigned to
 * [2, 3] with kafkajs's AlterPartitionReassignments while kafkajs writes to it with acks=all;
 * broker 3 copies the log from the leader, joins the ISR, and only then does broker 1 leave.
 * ListPartitionReassignments shows the move until it is done. Every acknowledged value is read
 * back once, in order, and broker 3's copy holds the same batches as broker 2's.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel } from "kafkajs";
import { killAll, pollUntil } from "./cluster-process.js";
import { awaitProgress, startKafkajsProducer, stopProducers } from "./producers.js";
import { awaitIdenticalReplicas, checkReadBack, readPartition } from "./read-back.js";
import {
  awaitPartitions,
  bootstrapServers,
  createAssignedTopic,
  expectBrokers,
  startThreeNodes,
} from "./three-nodes.js";

after(async () => {
  await stopProducers();
  await killAll();
});

const TOPIC = "moving";

test(
  "reassigning a partition from [1,2] to [2,3] under acks=all load loses nothing",
  { timeout: 300_000 },
  async () => {
    const members = await startThreeNodes("reassignment", {});
    const [first] = members;
    assert.ok(first !== undefined);
    await expectBrokers(first, [1, 2, 3]);
    await createAssignedTopic(first, TOPIC, [[1, 2]]);
    await awaitPartitions(members, TOPIC, (p) => p.get(0)?.isr.length === 2, "ISR [1,2]");
    const bootstrap = bootstrapServers(members);
    const producer = startKafkajsProducer(bootstrap, { topic: TOPIC, partition: 0 });
    await awaitProgress(producer, 200);

    const admin = new Kafka({ brokers: bootstrap.split(","), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.alterPartitionReassignments({
      topics: [{ topic: TOPIC, partitionAssignment: [{ partition: 0, replicas: [2, 3] }] }],
    });
    const moved = await awaitPartitions(
      members,
      TOPIC,
      (partitions) => {
        const partition = partitions.get(0);
        return partition?.replicas.join() === "2,3" && partition.isr.length === 2;
      },
      "the partition on [2,3]",
      60_000,
    );
    assert.ok(moved.get(0)?.isr.every((id) => id === 2 || id === 3));
    await pollUntil(
      async () => {
        const listed = await admin.listPartitionReassignments({
          topics: [{ topic: TOPIC, partitions: [0] }],
        });
        return listed.topics.length === 0 ? true : undefined;
      },
      { deadlineMs: 30_000, intervalMs: 200, what: "no reassignment listed" },
    );
    await admin.disconnect();
    await awaitProgress(producer, 50);
    const { acknowledged } = await producer.stop();
    checkReadBack(
      "kafkajs",
      acknowledged,
      await readPartition(bootstrap, { topic: TOPIC, partition: 0 }),
    );
    // Broker 1 deleted its copy when it left; brokers 2 and 3 hold the same batches.
    await awaitIdenticalReplicas(members, { topic: TOPIC, partition: 0 });
  },
);
