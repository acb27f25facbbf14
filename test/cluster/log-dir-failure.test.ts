/**
 * The failure of one log dir, end to end, with real processes: three combined nodes with two log
 * dirs each (and the metadata log in a third folder), a topic of six partitions with replication
 * factor 3 and min.insync.replicas 2, and kafkajs writing with acks=all to a partition whose
 * leader's replica is in the dir that fails, and to one whose replicas all stay healthy.
 *
 * The fault works for a process running as root, where permissions stop nothing: the dir is
 * renamed away and a plain file put in its place, so that every file the broker next creates or
 * opens there fails (ENOTDIR). Open segment files go on working, as on a disk that fails part by
 * part; with 4 KiB segments the next roll of the partition being written meets the fault within
 * a few dozen appends (the checkpoints would too, but periodic work starts only 30 s after start).
 *
 * Then the dir is offline on that broker: its partitions there answer KAFKA_STORAGE_ERROR, the
 * next heartbeat names the dir, and the controller moves leadership of exactly those partitions
 * and takes the broker out of their ISRs. The broker keeps leading and following the partitions
 * of its healthy dir. Every acknowledged value is read back once, where it was acknowledged.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ErrorCode } from "../../src/common/index.js";
import { describeLogDirs } from "../../src/protocol/index.js";
import { killAll, request } from "./cluster-process.js";
import { startKafkajsProducer, stopProducers } from "./producers.js";
import { checkReadBack, readPartition } from "./read-back.js";
import {
  awaitPartitions,
  bootstrapServers,
  createReplicatedTopic,
  expectBrokers,
  QUICK_FAILURE_DETECTION,
  startThreeNodes,
  type Member,
  type PartitionView,
} from "./three-nodes.js";

after(async () => {
  await stopProducers();
  await killAll();
});

const TOPIC = "jbod";
const PARTITIONS = 6;
const DIRS = ["data-a", "data-b"] as const;

const fullIsr = (partitions: ReadonlyMap<number, PartitionView>) =>
  partitions.size === PARTITIONS &&
  [...partitions.values()].every((partition) => partition.isr.length === 3);

/** The log dir of `member` that holds its replica of `partition`. */
function dirOf(member: Member, partition: number): string {
  const found = DIRS.map((name) => member.node.dataDir(name)).find((dir) =>
    existsSync(join(dir, `${TOPIC}-${partition}`)),
  );
  assert.ok(found !== undefined, `node ${member.nodeId} holds partition ${partition}`);
  return found;
}

async function waitForAcks(producer: { acknowledgedCount(): number }, count: number) {
  const deadline = Date.now() + 20_000;
  while (producer.acknowledgedCount() < count) {
    assert.ok(Date.now() < deadline, `${count} values acknowledged`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Three nodes with two log dirs each, and the topic created with a full ISR. */
async function startCluster() {
  const members = await startThreeNodes(
    "log-dir-failure",
    { ...QUICK_FAILURE_DETECTION, "log.segment.bytes": "4096" },
    (_nodeId, node) => ({
      "log.dirs": DIRS.map((name) => node.dataDir(name)).join(","),
      "metadata.log.dir": node.dataDir("metadata"),
    }),
  );
  const [victim] = members;
  assert.ok(victim !== undefined);
  await expectBrokers(victim, [1, 2, 3]);
  await createReplicatedTopic(victim, {
    topic: TOPIC,
    partitions: PARTITIONS,
    minInsyncReplicas: 2,
  });
  const before = await awaitPartitions(members, TOPIC, fullIsr, "a full ISR");
  return { members, victim, before };
}

/**
 * The dir of `victim` to fail (the one holding a partition it leads), the partitions in it, and
 * the two partitions to write to: that led one, and one in the other dir led by another node.
 */
function planFailure(victim: Member, before: ReadonlyMap<number, PartitionView>) {
  const failing = [...before].find(([, view]) => view.leader === victim.nodeId)?.[0];
  assert.ok(failing !== undefined, `node ${victim.nodeId} leads a partition`);
  const failedDir = dirOf(victim, failing);
  const failedPartitions = new Set(
    [...before.keys()].filter((partition) => dirOf(victim, partition) === failedDir),
  );
  const healthy = [...before.keys()].filter((partition) => !failedPartitions.has(partition));
  assert.ok(healthy.length > 0, "the other dir holds partitions too");
  const healthyTarget =
    healthy.find((partition) => before.get(partition)?.leader !== victim.nodeId) ?? healthy[0];
  assert.ok(healthyTarget !== undefined);
  const healthyDir = DIRS.map((name) => victim.node.dataDir(name)).find((d) => d !== failedDir);
  return { failedDir, healthyDir, failedPartitions, targets: [failing, healthyTarget] };
}

/** Renames `dir` away and puts a plain file in its place: each open or create there fails. */
function breakDir(dir: string): void {
  renameSync(dir, `${dir}.failed`);
  writeFileSync(dir, "not a dir\n");
}

test(
  "a failed log dir moves leadership of its partitions only; acknowledged writes survive",
  { timeout: 120_000 },
  async () => {
    const { members, victim, before } = await startCluster();
    const plan = planFailure(victim, before);
    const bootstrap = bootstrapServers(members);
    const producers = plan.targets.map((partition) => ({
      partition,
      producer: startKafkajsProducer(bootstrap, { topic: TOPIC, partition }),
    }));
    try {
      for (const { producer } of producers) await waitForAcks(producer, 20);
      breakDir(plan.failedDir);
      const isOnFailedDir = (partition: number) => plan.failedPartitions.has(partition);
      const after = await awaitPartitions(
        members,
        TOPIC,
        (partitions) =>
          [...partitions].every(([partition, view]) =>
            isOnFailedDir(partition)
              ? view.leader >= 0 &&
                view.leader !== victim.nodeId &&
                !view.isr.includes(victim.nodeId)
              : view.isr.length === 3,
          ),
        `partitions of ${plan.failedDir} led elsewhere, without node ${victim.nodeId} in their ISR`,
      );
      for (const [partition, view] of after) {
        if (isOnFailedDir(partition)) continue;
        const leader = before.get(partition)?.leader;
        assert.equal(view.leader, leader, `partition ${partition} keeps its leader`);
      }
      const dirs = await request(
        victim.client,
        describeLogDirs,
        { topics: null },
        { maxVersion: 4 },
      );
      const byDir = new Map(dirs.results.map((result) => [result.logDir, result.errorCode]));
      assert.equal(byDir.get(plan.failedDir), ErrorCode.KAFKA_STORAGE_ERROR);
      assert.equal(byDir.get(plan.healthyDir ?? ""), ErrorCode.NONE);
      const counts = producers.map(({ producer }) => producer.acknowledgedCount());
      for (const [index, { producer }] of producers.entries()) {
        await waitForAcks(producer, (counts[index] ?? 0) + 20);
      }
    } finally {
      for (const { producer } of producers) await producer.stop();
    }
    for (const { partition, producer } of producers) {
      const { acknowledged } = await producer.stop();
      const read = await readPartition(bootstrap, { topic: TOPIC, partition });
      checkReadBack(`partition ${partition}`, acknowledged, read);
    }
  },
);
