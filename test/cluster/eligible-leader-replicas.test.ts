/**
 * Eligible leader replicas (KIP-966) in a real three-node cluster: the nodes are formatted with
 * `sluice format --feature eligible.leader.replicas.version=1`, the brokers report the finalized
 * level in ApiVersions, and a partition whose ISR falls below min.insync.replicas when a broker
 * is killed keeps that broker in its ELR (DescribeTopicPartitions). When the broker comes back
 * from the kill (an unclean shutdown), it is no longer trusted as eligible until it has caught
 * up and rejoined the ISR, which empties the ELR again.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { apiVersions, describeTopicPartitions } from "../../src/protocol/index.js";
import { killAll, pollUntil, request } from "./cluster-process.js";
import {
  activeController,
  createReplicatedTopic,
  expectBrokers,
  QUICK_FAILURE_DETECTION,
  startThreeNodes,
  type Member,
} from "./three-nodes.js";

after(killAll);

const FEATURE = "eligible.leader.replicas.version";
const TOPIC = "guarded";

/** Partition 0 of TOPIC as `member` describes it with DescribeTopicPartitions. */
async function describeElr(member: Member) {
  const response = await request(
    member.client,
    describeTopicPartitions,
    { topics: [{ name: TOPIC }], responsePartitionLimit: 10, cursor: null },
    { maxVersion: 0 },
  );
  const partition = response.topics[0]?.partitions.find((p) => p.partitionIndex === 0);
  if (partition === undefined) return undefined;
  return {
    leader: partition.leaderId,
    isr: [...partition.isrNodes].sort(),
    elr: [...(partition.eligibleLeaderReplicas ?? [])].sort(),
  };
}

/** Waits until partition 0 of TOPIC, as `member` sees it, has this ISR and ELR. */
async function awaitIsrAndElr(member: Member, isr: number[], elr: number[]) {
  const what = `ISR ${isr.join(",")} and ELR ${elr.join(",")}`;
  const { value } = await pollUntil(
    async () => {
      const seen = await describeElr(member);
      const matches =
        seen !== undefined &&
        seen.isr.join(",") === isr.join(",") &&
        seen.elr.join(",") === elr.join(",");
      return matches ? seen : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 100, what },
  );
  return value;
}

test("a cluster formatted with ELR on keeps a killed ISR member eligible to lead", async () => {
  const members = await startThreeNodes("elr", QUICK_FAILURE_DETECTION, () => ({}), [
    "--feature",
    `${FEATURE}=1`,
  ]);
  const [first] = members;
  assert.ok(first !== undefined);
  await expectBrokers(first, [1, 2, 3]);
  const { value: finalized } = await pollUntil(
    async () => {
      const response = await request(
        first.client,
        apiVersions,
        { clientSoftwareName: "sluice", clientSoftwareVersion: "1" },
        { maxVersion: 4 },
      );
      const level = response.finalizedFeatures.find((feature) => feature.name === FEATURE);
      return level === undefined ? undefined : { level, supported: response.supportedFeatures };
    },
    { deadlineMs: 10_000, intervalMs: 100, what: `${FEATURE} finalized` },
  );
  assert.equal(finalized.level.maxVersionLevel, 1);
  const supported = finalized.supported.find((feature) => feature.name === FEATURE);
  assert.deepEqual([supported?.minVersion, supported?.maxVersion], [0, 1]);

  // With min.insync.replicas 3, losing any replica takes the ISR below min ISR.
  await createReplicatedTopic(first, { topic: TOPIC, partitions: 1, minInsyncReplicas: 3 });
  await awaitIsrAndElr(first, [1, 2, 3], []);
  const controllerId = await activeController(first);
  const victim = members.find((member) => member.nodeId !== controllerId);
  const observer = members.find((member) => member !== victim && member.nodeId === controllerId);
  assert.ok(victim !== undefined && observer !== undefined);
  await victim.node.stop("SIGKILL");
  const others = [1, 2, 3].filter((id) => id !== victim.nodeId);
  const shrunk = await awaitIsrAndElr(observer, others, [victim.nodeId]);
  assert.ok(others.includes(shrunk.leader), `a surviving replica leads: ${shrunk.leader}`);

  // Back from a kill, the broker registers anew and leaves the ELR; it rejoins the ISR only
  // by catching up, and a full ISR needs no ELR.
  await victim.node.start();
  await awaitIsrAndElr(observer, [1, 2, 3], []);
});
