/**
 * The replica manager's health as Kafka's ReplicaManager metrics report it (its gauges, its ISR
 * change meters, and its replica fetchers' lag), as plain numbers computed from the hosted
 * replicas when asked. The replica manager counts the ISR changes; the rest is read off its
 * partitions, its metadata image and its fetch states at that moment.
 */
import type { MetadataImage } from "../metadata/index.js";
import type { TopicPartition } from "../storage/index.js";
import type { HostedPartitions } from "./hosted-partitions.js";
import type { IsrChange } from "./isr-state.js";
import type { Partition } from "./partition.driver.js";
import type { ReplicaFetcherManager } from "./replica-fetcher-manager.driver.js";

/** One followed partition's lag: the leader's high watermark minus the next fetch offset. */
export interface FollowerLag {
  readonly topicPartition: TopicPartition;
  /** In messages (offsets), as the last fetch left it; never negative. */
  readonly lag: number;
}

/** A snapshot of the numbers behind Kafka's ReplicaManager and fetcher metrics. */
export interface ReplicationSummary {
  /** LeaderCount: online replicas this broker leads. */
  readonly leaderCount: number;
  /** PartitionCount: every hosted replica, online or offline. */
  readonly partitionCount: number;
  /** OfflineReplicaCount: hosted replicas in a failed log dir. */
  readonly offlineReplicaCount: number;
  /** UnderReplicatedPartitions: led here with a committed ISR below the replication factor. */
  readonly underReplicatedPartitions: number;
  /** UnderMinIsrPartitionCount: led here with the ISR below the effective min ISR. */
  readonly underMinIsrPartitionCount: number;
  /** AtMinIsrPartitionCount: led here with the ISR exactly at the effective min ISR. */
  readonly atMinIsrPartitionCount: number;
  /** ReassigningPartitions: led here with replicas being added or removed. */
  readonly reassigningPartitions: number;
  /** ISR shrinks and expansions the controller committed, and failed ISR updates, since start. */
  readonly isrShrinks: number;
  readonly isrExpands: number;
  readonly failedIsrUpdates: number;
  /** The followed partitions whose lag is known (after their first fetch), by key order. */
  readonly followerLags: readonly FollowerLag[];
  /** MaxLag (clientId=Replica): the largest follower lag, 0 when none is known. */
  readonly maxLag: number;
}

/**
 * The ISR changes a broker's partitions were told of (Kafka's isrShrinkRate, isrExpandRate and
 * failedIsrUpdatesRate), as totals that only grow; a partition's removal does not take its
 * changes away.
 */
export class IsrChangeTotals {
  private shrinks = 0;
  private expands = 0;
  private failures = 0;

  record(change: IsrChange): void {
    switch (change) {
      case "shrunk":
        this.shrinks++;
        return;
      case "expanded":
        this.expands++;
        return;
      case "failed":
        this.failures++;
        return;
    }
  }

  get isrShrinks(): number {
    return this.shrinks;
  }
  get isrExpands(): number {
    return this.expands;
  }
  get failedIsrUpdates(): number {
    return this.failures;
  }
}

/** What a summary is computed from: the replica manager's own parts, read only. */
export interface ReplicationFacts {
  readonly hosted: HostedPartitions;
  /** The image the replica manager applies, for each partition's ongoing reassignment. */
  readonly image: MetadataImage;
  readonly fetchers: ReplicaFetcherManager;
  readonly isrChanges: IsrChangeTotals;
}

/** The summary of `facts`, with Kafka's definition of each count. */
export function summarizeReplication(facts: ReplicationFacts): ReplicationSummary {
  const online = facts.hosted.online();
  const offlineReplicaCount = facts.hosted.offlineCount();
  const leaders = online.filter((partition) => partition.role.kind === "leader");
  const count = (isCounted: (partition: Partition) => boolean): number =>
    leaders.filter(isCounted).length;
  const followerLags: FollowerLag[] = [];
  for (const fetcher of facts.fetchers.fetcherStates()) {
    for (const { topicPartition, state } of fetcher.partitions) {
      if (state.lag !== undefined) followerLags.push({ topicPartition, lag: state.lag });
    }
  }
  followerLags.sort((left, right) =>
    compareTopicPartitions(left.topicPartition, right.topicPartition),
  );
  return {
    leaderCount: leaders.length,
    partitionCount: online.length + offlineReplicaCount,
    offlineReplicaCount,
    underReplicatedPartitions: count((partition) => isUnderReplicated(partition, facts.image)),
    underMinIsrPartitionCount: count((partition) => partition.isUnderMinIsr),
    atMinIsrPartitionCount: count((partition) => partition.isAtMinIsr),
    reassigningPartitions: count((partition) => isReassigning(partition, facts.image)),
    isrShrinks: facts.isrChanges.isrShrinks,
    isrExpands: facts.isrChanges.isrExpands,
    failedIsrUpdates: facts.isrChanges.failedIsrUpdates,
    followerLags,
    maxLag: followerLags.reduce((max, { lag }) => Math.max(max, lag), 0),
  };
}

/**
 * Kafka's Partition.isUnderReplicated: the committed ISR is smaller than the replication
 * factor, which during a reassignment leaves out the replicas being added.
 */
function isUnderReplicated(partition: Partition, image: MetadataImage): boolean {
  const role = partition.role;
  if (role.kind !== "leader") return false;
  const adding = registrationOf(partition, image)?.addingReplicas.length ?? 0;
  return role.replicas.length - adding > role.isrState.isr.length;
}

/** Kafka's Partition.isReassigning: replicas are being added or removed. */
function isReassigning(partition: Partition, image: MetadataImage): boolean {
  const registration = registrationOf(partition, image);
  if (registration === undefined) return false;
  return registration.addingReplicas.length > 0 || registration.removingReplicas.length > 0;
}

function registrationOf(partition: Partition, image: MetadataImage) {
  const { topic, partition: index } = partition.topicPartition;
  return image.topics.byName.get(topic)?.partitions.get(index);
}

function compareTopicPartitions(left: TopicPartition, right: TopicPartition): number {
  if (left.topic !== right.topic) return left.topic < right.topic ? -1 : 1;
  return left.partition - right.partition;
}
