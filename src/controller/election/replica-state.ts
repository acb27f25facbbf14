/**
 * Whether a replica's broker may lead a partition, as Kafka's controller decides it: the broker
 * is registered, unfenced and not in controlled shutdown (ClusterControlManager.isActive), and
 * the log dir holding the replica is online on it (the LeaderAcceptor's hasOnlineDir check).
 * Broker events adjust the answer for the broker they concern, since the image read here does
 * not yet hold the event's own record.
 */
import type { BrokerId, Uuid } from "../../common/index.js";
import type {
  BrokerRegistration,
  MetadataImage,
  PartitionRegistration,
} from "../../metadata/index.js";
import { DIRECTORY_MIGRATING } from "../../metadata/index.js";
import type { ReplicaState } from "./election-report.js";

/** Kafka's DirectoryId.UNASSIGNED: the replica has not yet been placed in a log dir. */
export const DIRECTORY_UNASSIGNED = `${"0".repeat(31)}1` as Uuid;
/** Kafka's DirectoryId.LOST: the replica's log dir is known to be gone. */
export const DIRECTORY_LOST = `${"0".repeat(31)}2` as Uuid;

/**
 * How a broker event changes eligibility: `leaving` is never eligible (it is being fenced, shut
 * down or has lost the dir); `joining` is eligible although the image still shows it fenced;
 * `uncleanShutdown` is never eligible and leaves the ELR too (KIP-966).
 */
export interface EligibilityOverrides {
  readonly leaving?: BrokerId;
  readonly joining?: BrokerId;
  readonly uncleanShutdown?: BrokerId;
}

/** The log dir `replica` of `partition` lives in; MIGRATING when the partition does not say. */
export function replicaDirectory(partition: PartitionRegistration, replica: BrokerId): Uuid {
  const index = partition.replicas.indexOf(replica);
  return index < 0 ? DIRECTORY_MIGRATING : (partition.directories[index] ?? DIRECTORY_MIGRATING);
}

/**
 * Kafka's DirectoryId.isOnline: unassigned and migrating replicas count as online, a lost one
 * does not, and a broker that reported no dirs at all is assumed to have them all.
 */
export function isDirectoryOnline(directory: Uuid, broker: BrokerRegistration): boolean {
  if (directory === DIRECTORY_UNASSIGNED || directory === DIRECTORY_MIGRATING) return true;
  if (directory === DIRECTORY_LOST) return false;
  return broker.directories.length === 0 || broker.directories.includes(directory);
}

/** True when the broker is registered, unfenced and not shutting down (Kafka's isActive). */
export function isActiveBroker(image: MetadataImage, broker: BrokerId): boolean {
  const registration = image.cluster.brokers.get(broker);
  return (
    registration !== undefined && !registration.isFenced && !registration.isInControlledShutdown
  );
}

/** Whether `replica` may lead `partition` in `image` after `overrides`, or why not. */
export function replicaState(
  image: MetadataImage,
  partition: PartitionRegistration,
  replica: BrokerId,
  overrides: EligibilityOverrides = {},
): ReplicaState {
  if (replica === overrides.leaving) return "leaving";
  if (replica === overrides.uncleanShutdown) return "uncleanShutdown";
  const registration = image.cluster.brokers.get(replica);
  if (registration === undefined) return "unregistered";
  if (replica !== overrides.joining) {
    if (registration.isFenced) return "fenced";
    if (registration.isInControlledShutdown) return "inControlledShutdown";
  }
  const directory = replicaDirectory(partition, replica);
  return isDirectoryOnline(directory, registration) ? "active" : "directoryOffline";
}

/**
 * The log dir a replica newly placed on `broker` gets (Kafka's defaultDir): its only dir when it
 * has one, MIGRATING when it reported none, UNASSIGNED when it must choose among several or is
 * not registered.
 */
export function defaultDirectory(image: MetadataImage, broker: BrokerId): Uuid {
  const registration = image.cluster.brokers.get(broker);
  if (registration === undefined) return DIRECTORY_UNASSIGNED;
  if (registration.directories.length === 0) return DIRECTORY_MIGRATING;
  const [only] = registration.directories;
  return registration.directories.length === 1 && only !== undefined ? only : DIRECTORY_UNASSIGNED;
}
