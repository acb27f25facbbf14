/**
 * The records of new topics and partitions. A new partition's ISR is its replicas that are
 * usable (for placed partitions, all of them), its leader the first of the ISR, both epochs 0,
 * and each replica's log dir the broker's only dir when it has exactly one, else unassigned
 * (the broker picks one and reports it with AssignReplicasToDirs), as Kafka's defaultDir rule.
 */
import { assert } from "../../common/index.js";
import type { BrokerId, Uuid } from "../../common/index.js";
import { DIRECTORY_MIGRATING } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import { metadataVersionOf } from "../cluster/index.js";
import { hasDirectoryAssignment, partitionRecordVersion } from "../features/index.js";

export function topicRecord(name: string, topicId: Uuid): MetadataRecord {
  return { type: MetadataRecordType.TopicRecord, version: 0, data: { name, topicId } };
}

export function removeTopicRecord(topicId: Uuid): MetadataRecord {
  return { type: MetadataRecordType.RemoveTopicRecord, version: 0, data: { topicId } };
}

function defaultDirectory(image: MetadataImage, brokerId: BrokerId): Uuid {
  const directories = image.cluster.brokers.get(brokerId)?.directories ?? [];
  const [only] = directories;
  return directories.length === 1 && only !== undefined ? only : DIRECTORY_MIGRATING;
}

export interface NewPartition {
  readonly topicId: Uuid;
  readonly partitionId: number;
  readonly replicas: readonly BrokerId[];
  /** The replicas that start in sync, in replica order; never empty. */
  readonly isr: readonly BrokerId[];
}

export function newPartitionRecord(image: MetadataImage, partition: NewPartition): MetadataRecord {
  const [leader] = partition.isr;
  assert(leader !== undefined, "a new partition starts with a non-empty ISR");
  const level = metadataVersionOf(image);
  const directories = hasDirectoryAssignment(level)
    ? partition.replicas.map((replica) => defaultDirectory(image, replica))
    : [];
  return {
    type: MetadataRecordType.PartitionRecord,
    version: partitionRecordVersion(level),
    data: {
      partitionId: partition.partitionId,
      topicId: partition.topicId,
      replicas: [...partition.replicas],
      isr: [...partition.isr],
      removingReplicas: [],
      addingReplicas: [],
      leader,
      leaderRecoveryState: 0,
      leaderEpoch: 0,
      partitionEpoch: 0,
      directories,
      eligibleLeaderReplicas: null,
      lastKnownElr: null,
    },
  };
}
