/**
 * How many partitions a new topic gets and where their replicas go: from the operator's manual
 * assignment, or by placement with the request's counts (-1 takes the broker defaults
 * num.partitions and default.replication.factor), following Kafka's checks and error codes.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { Random } from "../../ports/index.js";
import type { CreateTopicsRequestCreatableTopic } from "../../protocol/index.js";
import {
  invalidAssignment,
  invalidReplicaListReason,
  usableReplicas,
} from "./manual-assignment.js";
import type { TopicRefusal } from "./manual-assignment.js";
import { placeReplicas, usableBrokers } from "./replica-placement.js";

/** The broker defaults for topics created without counts. */
export interface TopicDefaults {
  /** `num.partitions`. */
  readonly numPartitions: number;
  /** `default.replication.factor`. */
  readonly defaultReplicationFactor: number;
}

/** One planned partition: its replicas and the replicas it starts in sync with. */
export interface PlannedPartition {
  readonly replicas: readonly BrokerId[];
  readonly isr: readonly BrokerId[];
}

/** A plan, or why there is none. */
export type PartitionPlan =
  | {
      readonly kind: "planned";
      readonly partitions: readonly PlannedPartition[];
      readonly replicationFactor: number;
    }
  | ({ readonly kind: "refused" } & TopicRefusal);

function refused(errorCode: number, errorMessage: string): PartitionPlan {
  return { kind: "refused", errorCode, errorMessage };
}

export function planTopicPartitions(
  image: MetadataImage,
  topic: CreateTopicsRequestCreatableTopic,
  defaults: TopicDefaults,
  random: Random,
): PartitionPlan {
  if (topic.assignments.length > 0) return planManualPartitions(image, topic);
  const partitionCount = topic.numPartitions === -1 ? defaults.numPartitions : topic.numPartitions;
  if (partitionCount <= 0) {
    return refused(
      ErrorCode.INVALID_PARTITIONS,
      "the partition count must be positive, or -1 for the default",
    );
  }
  const replicationFactor =
    topic.replicationFactor === -1 ? defaults.defaultReplicationFactor : topic.replicationFactor;
  return planPlacedPartitions(image, partitionCount, replicationFactor, random);
}

/** Plans `partitionCount` partitions by placement; also used to add partitions to a topic. */
export function planPlacedPartitions(
  image: MetadataImage,
  partitionCount: number,
  replicationFactor: number,
  random: Random,
): PartitionPlan {
  if (replicationFactor <= 0) {
    return refused(
      ErrorCode.INVALID_REPLICATION_FACTOR,
      "the replication factor must be positive, or -1 for the default",
    );
  }
  const brokers = usableBrokers(image);
  if (replicationFactor > brokers.length) {
    return refused(
      ErrorCode.INVALID_REPLICATION_FACTOR,
      `replication factor ${replicationFactor} needs that many usable brokers; ` +
        `${brokers.length} are unfenced and not shutting down`,
    );
  }
  const lists = placeReplicas(brokers, { partitionCount, replicationFactor }, random);
  const partitions = lists.map((replicas) => ({ replicas, isr: replicas }));
  return { kind: "planned", partitions, replicationFactor };
}

function planManualPartitions(
  image: MetadataImage,
  topic: CreateTopicsRequestCreatableTopic,
): PartitionPlan {
  if (topic.numPartitions !== -1 || topic.replicationFactor !== -1) {
    const errorMessage = "with a manual assignment, numPartitions and replicationFactor must be -1";
    return refused(ErrorCode.INVALID_REQUEST, errorMessage);
  }
  const sorted = [...topic.assignments].sort((a, b) => a.partitionIndex - b.partitionIndex);
  const replicationFactor = sorted[0]?.brokerIds.length ?? 0;
  const partitions: PlannedPartition[] = [];
  for (const [index, assignment] of sorted.entries()) {
    if (assignment.partitionIndex !== index) {
      return {
        kind: "refused",
        ...invalidAssignment("partition indexes must run from 0 without gaps"),
      };
    }
    const invalid = invalidReplicaListReason(image, assignment.brokerIds, replicationFactor);
    if (invalid !== undefined) return { kind: "refused", ...invalid };
    const isr = usableReplicas(image, assignment.brokerIds);
    if (isr.length === 0) {
      const message = `every replica of partition ${index} is fenced or shutting down`;
      return { kind: "refused", ...invalidAssignment(message) };
    }
    partitions.push({ replicas: assignment.brokerIds as BrokerId[], isr });
  }
  return { kind: "planned", partitions, replicationFactor };
}
