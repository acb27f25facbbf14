/**
 * A topic's partitions as Metadata answers them (Kafka's KRaftMetadataCache
 * partitionMetadata): leader, leader epoch, replicas, ISR and offline replicas as the image
 * states them, with the error a client must react to.
 */
import { ErrorCode } from "../../common/index.js";
import {
  DIRECTORY_MIGRATING,
  NO_LEADER,
  sortedEntries,
  type BrokerRegistration,
  type MetadataImage,
  type PartitionRegistration,
  type TopicImage,
} from "../../metadata/index.js";
import type {
  MessageInput,
  MetadataResponseMetadataResponsePartition,
} from "../../protocol/index.js";

/** One partition of a Metadata response. */
export type PartitionMetadata = MessageInput<MetadataResponseMetadataResponsePartition>;

/** How partitions are answered for one request. */
export interface PartitionMetadataOptions {
  readonly listenerName: string;
  /**
   * Metadata v0 only: list only live replicas and answer REPLICA_NOT_AVAILABLE when one is
   * missing (Kafka's errorUnavailableEndpoints).
   */
  readonly errorUnavailableEndpoints: boolean;
  /** v6+: a leader without the request's listener is LISTENER_NOT_FOUND, not unavailable. */
  readonly errorUnavailableListeners: boolean;
}

/** The partitions of `topic` by index, as a Metadata response lists them. */
export function partitionsMetadata(
  image: MetadataImage,
  topic: TopicImage,
  options: PartitionMetadataOptions,
): PartitionMetadata[] {
  return sortedEntries(topic.partitions).map(([index, partition]) =>
    partitionMetadata(image, index, partition, options),
  );
}

function partitionMetadata(
  image: MetadataImage,
  partitionIndex: number,
  partition: PartitionRegistration,
  options: PartitionMetadataOptions,
): PartitionMetadata {
  const offlineReplicas = offlineReplicasOf(image, partition, options.listenerName);
  const isAlive = (id: number) => !offlineReplicas.includes(id);
  const replicaNodes = options.errorUnavailableEndpoints
    ? partition.replicas.filter(isAlive)
    : [...partition.replicas];
  const isrNodes = options.errorUnavailableEndpoints
    ? partition.isr.filter(isAlive)
    : [...partition.isr];
  const common = { partitionIndex, replicaNodes, isrNodes, offlineReplicas };
  const leader =
    partition.leader === NO_LEADER ? undefined : image.cluster.brokers.get(partition.leader);
  if (leader === undefined || !hasListener(leader, options.listenerName)) {
    // A partition without a reachable leader: clients refresh metadata and retry.
    const errorCode =
      leader !== undefined && options.errorUnavailableListeners
        ? ErrorCode.LISTENER_NOT_FOUND
        : ErrorCode.LEADER_NOT_AVAILABLE;
    return { ...common, errorCode, leaderId: NO_LEADER, leaderEpoch: partition.leaderEpoch };
  }
  const isMissingReplica =
    options.errorUnavailableEndpoints &&
    (replicaNodes.length < partition.replicas.length || isrNodes.length < partition.isr.length);
  return {
    ...common,
    errorCode: isMissingReplica ? ErrorCode.REPLICA_NOT_AVAILABLE : ErrorCode.NONE,
    leaderId: partition.leader,
    leaderEpoch: partition.leaderEpoch,
  };
}

/**
 * Kafka's offline replicas: a replica whose broker is not registered, is fenced, has no
 * endpoint on the listener, or whose assigned log dir is not among the broker's online dirs.
 */
export function offlineReplicasOf(
  image: MetadataImage,
  partition: PartitionRegistration,
  listenerName: string,
): number[] {
  const offline: number[] = [];
  partition.replicas.forEach((replicaId, index) => {
    const broker = image.cluster.brokers.get(replicaId);
    const isOffline =
      broker === undefined ||
      broker.isFenced ||
      !hasListener(broker, listenerName) ||
      !isDirectoryOnline(broker, partition.directories[index]);
    if (isOffline) offline.push(replicaId);
  });
  return offline;
}

function hasListener(broker: BrokerRegistration, listenerName: string): boolean {
  return broker.listeners.some((listener) => listener.name === listenerName);
}

/**
 * Kafka's DirectoryId.isOnline: an unknown (migrating) dir counts as online, as does any dir of
 * a broker that registered no dirs; otherwise the dir must be one the broker reports online.
 */
function isDirectoryOnline(broker: BrokerRegistration, directory: string | undefined): boolean {
  if (directory === undefined || directory === DIRECTORY_MIGRATING) return true;
  if (broker.directories.length === 0) return true;
  return broker.directories.includes(directory as (typeof broker.directories)[number]);
}
