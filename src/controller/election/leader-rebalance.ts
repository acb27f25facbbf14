/**
 * Automatic preferred-leader rebalance (`auto.leader.rebalance.enable`). Every
 * `leader.imbalance.check.interval.seconds` the driver asks which preferred elections to run:
 * for each broker, the share of the partitions whose first replica it is but which it does not
 * lead; where that share is above `leader.imbalance.per.broker.percentage`, each such partition
 * whose preferred replica is in the ISR and eligible gets a preferred election. Partitions under
 * reassignment are left to the reassignment. This is the per-broker rule of Kafka's
 * documentation for these configs; the elections per check are capped as Kafka's KRaft
 * controller caps them, and the driver checks again at once while more remain.
 */
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { isReassignmentInProgress } from "./reassignment-completion.js";
import type { PartitionControlResult } from "./partition-changes.js";
import { addPartitionChange, changePartition, noPartitionChanges } from "./partition-changes.js";
import type { PartitionEntry } from "./partition-scan.js";
import { partitionsWhere } from "./partition-scan.js";
import { replicaState } from "./replica-state.js";
import { DEFAULT_REPLICATION_DEFAULTS } from "./topic-settings.js";
import type { ReplicationDefaults } from "./topic-settings.js";

/** The rebalance configs, with Kafka's names. */
export interface LeaderRebalanceSettings {
  /** `auto.leader.rebalance.enable`; true in Kafka. */
  readonly autoLeaderRebalanceEnable: boolean;
  /** `leader.imbalance.per.broker.percentage`; 10 in Kafka. */
  readonly leaderImbalancePerBrokerPercentage: number;
  /** `leader.imbalance.check.interval.seconds`; 300 in Kafka. */
  readonly leaderImbalanceCheckIntervalSeconds: number;
  /** The most elections one check writes (Kafka's controller uses 1000). */
  readonly electionsPerCheckMax: number;
}

/** Kafka's defaults. */
export const DEFAULT_LEADER_REBALANCE_SETTINGS: LeaderRebalanceSettings = {
  autoLeaderRebalanceEnable: true,
  leaderImbalancePerBrokerPercentage: 10,
  leaderImbalanceCheckIntervalSeconds: 300,
  electionsPerCheckMax: 1000,
};

/** How far one broker is from leading the partitions it is preferred for. */
export interface BrokerLeaderImbalance {
  readonly brokerId: BrokerId;
  /** Partitions whose first replica is this broker. */
  readonly preferredPartitions: number;
  /** Of those, the ones another broker (or nobody) leads. */
  readonly notLedPartitions: number;
  readonly isAboveThreshold: boolean;
}

/** The outcome of one check. */
export interface LeaderRebalance {
  readonly imbalances: readonly BrokerLeaderImbalance[];
  /** True when the cap cut the elections short: the driver should check again at once. */
  readonly hasMore: boolean;
}

export function leaderImbalanceCheckIntervalMs(settings: LeaderRebalanceSettings): number {
  return settings.leaderImbalanceCheckIntervalSeconds * 1000;
}

function byPreferredReplica(image: MetadataImage): Map<BrokerId, PartitionEntry[]> {
  const groups = new Map<BrokerId, PartitionEntry[]>();
  for (const entry of partitionsWhere(image, (partition) => partition.replicas.length > 0)) {
    const preferred = entry.partition.replicas[0] as BrokerId;
    const group = groups.get(preferred) ?? [];
    group.push(entry);
    groups.set(preferred, group);
  }
  return new Map([...groups].sort(([left], [right]) => left - right));
}

function canPreferredLead(
  image: MetadataImage,
  entry: PartitionEntry,
  preferred: BrokerId,
): boolean {
  const { partition } = entry;
  if (isReassignmentInProgress(partition) || !partition.isr.includes(preferred)) return false;
  return replicaState(image, partition, preferred) === "active";
}

/** The preferred elections the periodic check should write now, and each broker's imbalance. */
export function preferredLeaderRebalance(
  image: MetadataImage,
  settings: LeaderRebalanceSettings = DEFAULT_LEADER_REBALANCE_SETTINGS,
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionControlResult<LeaderRebalance> {
  const changes = noPartitionChanges();
  const imbalances: BrokerLeaderImbalance[] = [];
  let hasMore = false;
  for (const [brokerId, entries] of byPreferredReplica(image)) {
    const notLed = entries.filter((entry) => entry.partition.leader !== brokerId);
    const ratio = notLed.length / entries.length;
    const isAboveThreshold = ratio > settings.leaderImbalancePerBrokerPercentage / 100;
    const preferredPartitions = entries.length;
    imbalances.push({
      brokerId,
      preferredPartitions,
      notLedPartitions: notLed.length,
      isAboveThreshold,
    });
    if (!settings.autoLeaderRebalanceEnable || !isAboveThreshold) continue;
    for (const entry of notLed.filter((candidate) =>
      canPreferredLead(image, candidate, brokerId),
    )) {
      if (changes.records.length >= settings.electionsPerCheckMax) {
        hasMore = true;
        break;
      }
      const { topic, partitionId } = entry;
      const request = {
        trigger: `leader imbalance of broker ${brokerId}`,
        mode: "preferred" as const,
      };
      const result = changePartition({ image, defaults, topic, partitionId, request });
      if (result !== undefined) addPartitionChange(image, changes, result);
    }
  }
  return {
    records: changes.records,
    response: { imbalances, hasMore },
    elections: changes.elections,
  };
}
