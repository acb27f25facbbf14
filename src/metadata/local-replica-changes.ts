/**
 * What a delta means for the replicas one broker hosts, as Kafka's LocalReplicaChanges: the
 * partitions it must delete, lead or follow. The replica manager applies exactly these.
 */
import type { BrokerId, Uuid } from "../common/index.js";
import type { TopicsDelta } from "./topics-delta.js";
import type { TopicDelta } from "./topic-delta.js";
import { hasReplica } from "./partition-registration.js";
import type { PartitionRegistration } from "./partition-registration.js";

export interface LocalPartitionReference {
  readonly topicName: string;
  readonly topicId: Uuid;
  readonly partitionIndex: number;
}

/** A partition the broker hosts, with its registration after the delta. */
export interface LocalPartition extends LocalPartitionReference {
  readonly partition: PartitionRegistration;
}

/** The broker's replica changes in one delta. */
export interface LocalReplicaChanges {
  /** Replicas the broker no longer hosts: removed from the replica set, or the topic deleted. */
  readonly deletes: readonly LocalPartitionReference[];
  /** Partitions the broker leads whose registration changed (a new partition epoch). */
  readonly leaders: readonly LocalPartition[];
  /** The subset of `leaders` whose leader epoch changed: the broker was just elected. */
  readonly electedLeaders: readonly LocalPartition[];
  /** Partitions the broker follows whose registration changed. */
  readonly followers: readonly LocalPartition[];
}

interface Collector {
  deletes: LocalPartitionReference[];
  leaders: LocalPartition[];
  electedLeaders: LocalPartition[];
  followers: LocalPartition[];
}

function collectTopic(topic: TopicDelta, brokerId: BrokerId, into: Collector): void {
  for (const [partitionIndex, partition] of topic.partitionChanges) {
    const reference = { topicName: topic.name, topicId: topic.id, partitionIndex };
    const previous = topic.image.partitions.get(partitionIndex);
    if (!hasReplica(partition, brokerId)) {
      if (previous !== undefined && hasReplica(previous, brokerId)) into.deletes.push(reference);
      continue;
    }
    // A registration whose partition epoch did not move has nothing new for the replica.
    if (previous !== undefined && previous.partitionEpoch === partition.partitionEpoch) continue;
    const local = { ...reference, partition };
    if (partition.leader !== brokerId) {
      into.followers.push(local);
      continue;
    }
    into.leaders.push(local);
    if (previous === undefined || previous.leaderEpoch !== partition.leaderEpoch) {
      into.electedLeaders.push(local);
    }
  }
}

export function localReplicaChanges(delta: TopicsDelta, brokerId: BrokerId): LocalReplicaChanges {
  const collector: Collector = { deletes: [], leaders: [], electedLeaders: [], followers: [] };
  for (const topic of delta.changedTopics.values()) collectTopic(topic, brokerId, collector);
  for (const topicId of delta.deletedTopicIds) {
    const topic = delta.image.byId.get(topicId);
    if (topic === undefined) continue;
    for (const [partitionIndex, partition] of topic.partitions) {
      if (hasReplica(partition, brokerId)) {
        collector.deletes.push({ topicName: topic.name, topicId, partitionIndex });
      }
    }
  }
  return collector;
}
