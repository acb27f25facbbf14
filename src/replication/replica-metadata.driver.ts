/**
 * Applying a metadata delta's local replica changes to the hosted partitions (Kafka's
 * ReplicaManager.applyDelta): deleted replicas stop and lose their logs; partitions this broker
 * leads or follows get their log (created when missing, with the topic id in
 * partition.metadata) and their new role.
 */
import type {
  LocalPartition,
  LocalPartitionReference,
  LocalReplicaChanges,
} from "../metadata/index.js";
import type { TopicPartition } from "../storage/index.js";
import type { HostedPartition } from "./hosted-partitions.js";
import type { Partition } from "./partition.driver.js";

/** What applying changes needs from the replica manager. */
export interface ReplicaContext {
  get(topicPartition: TopicPartition): HostedPartition | undefined;
  delete(topicPartition: TopicPartition): void;
  /** The hosted partition, its log created or opened first when missing. */
  ensurePartition(local: LocalPartition): Promise<HostedPartition>;
  deleteLog(topicPartition: TopicPartition): Promise<void>;
  nowMs(): number;
}

const topicPartitionOf = (reference: LocalPartitionReference): TopicPartition => ({
  topic: reference.topicName,
  partition: reference.partitionIndex,
});

/** Applies `changes` in Kafka's order: deletes, then leaders, then followers. */
export async function applyLocalChanges(
  context: ReplicaContext,
  changes: LocalReplicaChanges,
): Promise<void> {
  for (const reference of changes.deletes) {
    const topicPartition = topicPartitionOf(reference);
    const hosted = context.get(topicPartition);
    context.delete(topicPartition);
    if (hosted?.kind === "online") hosted.partition.state.becomeOffline();
    // A log in a failed dir cannot be deleted now; it stays until the dir is repaired.
    if (hosted?.kind !== "offline") await context.deleteLog(topicPartition);
  }
  for (const local of changes.leaders) {
    const partition = await onlinePartition(context, local);
    partition?.becomeLeader(local.partition, context.nowMs());
  }
  for (const local of changes.followers) {
    const partition = await onlinePartition(context, local);
    partition?.becomeFollower(local.partition);
  }
}

async function onlinePartition(
  context: ReplicaContext,
  local: LocalPartition,
): Promise<Partition | undefined> {
  const hosted = await context.ensurePartition(local);
  return hosted.kind === "online" ? hosted.partition : undefined;
}
