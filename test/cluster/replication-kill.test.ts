/**
 * Replication under crashes, with real processes and real clients: three combined nodes, a
 * topic of replication factor 3 with min.insync.replicas 2, and kafkajs, @platformatic/kafka and
 * kcat each writing to one partition with acks=all while a partition leader is killed with -9 and
 * restarted, five times. Afterwards every acknowledged value is read back (with kcat) exactly
 * once, in the order acknowledged and at the offset reported; no value is stored twice; and the
 * three replicas of each partition hold the same batches, as `sluice dump-log` prints them.
 *
 * The nodes notice a dead one within seconds (QUICK_FAILURE_DETECTION in three-nodes.ts).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { killAll } from "./cluster-process.js";
import {
  type RunningProducer,
  startKafkajsProducer,
  startKcatProducer,
  startPlatformaticProducer,
  stopProducers,
} from "./producers.js";
import { awaitIdenticalReplicas, checkReadBack, readPartition } from "./read-back.js";
import {
  awaitPartitions,
  bootstrapServers,
  createReplicatedTopic,
  expectBrokers,
  QUICK_FAILURE_DETECTION,
  startThreeNodes,
  type Member,
} from "./three-nodes.js";

after(async () => {
  await stopProducers();
  await killAll();
});

const TOPIC = "acked";
const KILLS = 5;

const fullIsr = (partitions: ReadonlyMap<number, { readonly isr: readonly number[] }>) =>
  [...partitions.values()].every((partition) => partition.isr.length === 3);

/** Kills the leader of `partition` with -9, waits for a new one, restarts the old one. */
async function killLeader(members: readonly Member[], partition: number): Promise<void> {
  const before = await awaitPartitions(members, TOPIC, fullIsr, "a full ISR");
  const leaderId = before.get(partition)?.leader;
  const victim = members.find((member) => member.nodeId === leaderId);
  assert.ok(victim !== undefined, `partition ${partition} has a leader`);
  await victim.node.stop("SIGKILL");
  await awaitPartitions(
    members,
    TOPIC,
    (partitions) => {
      const leader = partitions.get(partition)?.leader ?? -1;
      return leader >= 0 && leader !== victim.nodeId;
    },
    `a new leader of partition ${partition}`,
  );
  await victim.node.start();
  await awaitPartitions(members, TOPIC, fullIsr, `node ${victim.nodeId} back in every ISR`, 60_000);
}

test(
  "acks=all writes from three clients survive five kill -9 of a partition leader: " +
    "read back once each, in order, and every replica holds the same batches",
  { timeout: 600_000 },
  async (t) => {
    const members = await startThreeNodes("replication-kill", QUICK_FAILURE_DETECTION);
    const [first] = members;
    assert.ok(first !== undefined);
    await expectBrokers(first, [1, 2, 3]);
    await createReplicatedTopic(first, { topic: TOPIC, partitions: 3, minInsyncReplicas: 2 });
    await awaitPartitions(members, TOPIC, fullIsr, "a full ISR");
    const bootstrap = bootstrapServers(members);
    const producers: RunningProducer[] = [
      startKafkajsProducer(bootstrap, { topic: TOPIC, partition: 0 }),
      startPlatformaticProducer(bootstrap, { topic: TOPIC, partition: 1 }),
      startKcatProducer(bootstrap, { topic: TOPIC, partition: 2 }),
    ];
    for (let kill = 0; kill < KILLS; kill++) await killLeader(members, kill % 3);
    const results = [];
    for (const producer of producers)
      results.push({ name: producer.name, ...(await producer.stop()) });
    await awaitPartitions(members, TOPIC, fullIsr, "a full ISR at the end");
    for (const [partition, { name, sent, acknowledged }] of results.entries()) {
      t.diagnostic(`${name}: ${acknowledged.length} of ${sent.length} values acknowledged`);
      assert.ok(acknowledged.length > 0, `${name} had writes acknowledged`);
      checkReadBack(
        name,
        acknowledged,
        await readPartition(bootstrap, { topic: TOPIC, partition }),
      );
      await awaitIdenticalReplicas(members, { topic: TOPIC, partition });
    }
  },
);
