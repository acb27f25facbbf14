/**
 * One partition's registration as the metadata log states it, and how PartitionRecord and
 * PartitionChangeRecord produce it, following Kafka's PartitionRegistration.
 */
import { ZERO_UUID } from "../common/index.js";
import type { BrokerId, LeaderEpoch, Uuid } from "../common/index.js";
import type { PartitionChangeRecord, PartitionRecord } from "../protocol/index.js";
import { MetadataReplayError } from "./metadata-replay-error.js";

/** The `leader` value meaning the partition has no leader. */
export const NO_LEADER = -1;
/** The PartitionChangeRecord `leader` value meaning the leader stays as it is. */
export const NO_LEADER_CHANGE = -2;
/** The PartitionChangeRecord `leaderRecoveryState` value meaning no change. */
export const LEADER_RECOVERY_STATE_NO_CHANGE = -1;
/** Kafka's DirectoryId.MIGRATING: the replica's log dir is not known to the controller. */
export const DIRECTORY_MIGRATING = ZERO_UUID;
/** The PartitionRecord version a snapshot is written with: the newest, with directories and ELR. */
export const PARTITION_RECORD_VERSION = 2;

/**
 * Whether the leader's log is known to hold every committed record ("recovered") or the leader
 * was elected uncleanly and is still recovering (KIP-704).
 */
export type LeaderRecoveryState = "recovered" | "recovering";

/** A partition's replicas, ISR, leader and epochs; immutable. */
export interface PartitionRegistration {
  readonly replicas: readonly BrokerId[];
  /** The log dir of each replica, index for index; DIRECTORY_MIGRATING where unknown. */
  readonly directories: readonly Uuid[];
  readonly isr: readonly BrokerId[];
  readonly removingReplicas: readonly BrokerId[];
  readonly addingReplicas: readonly BrokerId[];
  /** The leader's broker id, or NO_LEADER. */
  readonly leader: BrokerId;
  readonly leaderRecoveryState: LeaderRecoveryState;
  readonly leaderEpoch: LeaderEpoch;
  readonly partitionEpoch: number;
  readonly eligibleLeaderReplicas: readonly BrokerId[];
  readonly lastKnownElr: readonly BrokerId[];
}

function leaderRecoveryStateOf(value: number): LeaderRecoveryState {
  if (value === 0) return "recovered";
  if (value === 1) return "recovering";
  throw new MetadataReplayError(`leader recovery state ${value} is not defined`);
}

/** The byte Kafka writes for `state`. */
export function leaderRecoveryStateValue(state: LeaderRecoveryState): number {
  return state === "recovered" ? 0 : 1;
}

function brokerIds(values: readonly number[] | null): BrokerId[] {
  return values === null ? [] : (values.slice() as BrokerId[]);
}

/**
 * Kafka fills the directories with MIGRATING when none are given, or when every one given is
 * MIGRATING, so that the list always has one entry per replica.
 */
function directoriesOrMigrating(directories: readonly string[], replicaCount: number): Uuid[] {
  if (directories.every((directory) => directory === DIRECTORY_MIGRATING)) {
    return new Array<Uuid>(replicaCount).fill(DIRECTORY_MIGRATING);
  }
  if (directories.length !== replicaCount) {
    throw new MetadataReplayError(
      `${directories.length} directories do not match ${replicaCount} replicas`,
    );
  }
  return directories.slice() as Uuid[];
}

export function partitionFromRecord(record: PartitionRecord): PartitionRegistration {
  return {
    replicas: brokerIds(record.replicas),
    directories: directoriesOrMigrating(record.directories, record.replicas.length),
    isr: brokerIds(record.isr),
    removingReplicas: brokerIds(record.removingReplicas),
    addingReplicas: brokerIds(record.addingReplicas),
    leader: record.leader as BrokerId,
    leaderRecoveryState: leaderRecoveryStateOf(record.leaderRecoveryState),
    leaderEpoch: record.leaderEpoch as LeaderEpoch,
    partitionEpoch: record.partitionEpoch,
    eligibleLeaderReplicas: brokerIds(record.eligibleLeaderReplicas),
    lastKnownElr: brokerIds(record.lastKnownElr),
  };
}

/**
 * The registration after `change`: every null field keeps its value; a leader other than
 * NO_LEADER_CHANGE replaces the leader and bumps the leader epoch (even when it names the same
 * broker, as Kafka's merge does); the partition epoch always goes up by one.
 */
export function mergePartitionChange(
  partition: PartitionRegistration,
  change: PartitionChangeRecord,
): PartitionRegistration {
  const replicas = change.replicas === null ? partition.replicas : brokerIds(change.replicas);
  const isLeaderChanged = change.leader !== NO_LEADER_CHANGE;
  return {
    replicas,
    directories: directoriesOrMigrating(
      change.directories ?? partition.directories,
      replicas.length,
    ),
    isr: change.isr === null ? partition.isr : brokerIds(change.isr),
    removingReplicas:
      change.removingReplicas === null
        ? partition.removingReplicas
        : brokerIds(change.removingReplicas),
    addingReplicas:
      change.addingReplicas === null ? partition.addingReplicas : brokerIds(change.addingReplicas),
    leader: isLeaderChanged ? (change.leader as BrokerId) : partition.leader,
    leaderRecoveryState:
      change.leaderRecoveryState === LEADER_RECOVERY_STATE_NO_CHANGE
        ? partition.leaderRecoveryState
        : leaderRecoveryStateOf(change.leaderRecoveryState),
    leaderEpoch: isLeaderChanged
      ? ((partition.leaderEpoch + 1) as LeaderEpoch)
      : partition.leaderEpoch,
    partitionEpoch: partition.partitionEpoch + 1,
    eligibleLeaderReplicas:
      change.eligibleLeaderReplicas === null
        ? partition.eligibleLeaderReplicas
        : brokerIds(change.eligibleLeaderReplicas),
    lastKnownElr:
      change.lastKnownElr === null ? partition.lastKnownElr : brokerIds(change.lastKnownElr),
  };
}

/**
 * The PartitionRecord that recreates `partition`, as a snapshot holds it. Empty ELR lists are
 * left out (null), as Kafka leaves out empty tagged fields.
 */
export function partitionToRecord(
  topicId: Uuid,
  partitionId: number,
  partition: PartitionRegistration,
): PartitionRecord {
  return {
    partitionId,
    topicId,
    replicas: partition.replicas.slice(),
    isr: partition.isr.slice(),
    removingReplicas: partition.removingReplicas.slice(),
    addingReplicas: partition.addingReplicas.slice(),
    leader: partition.leader,
    leaderRecoveryState: leaderRecoveryStateValue(partition.leaderRecoveryState),
    leaderEpoch: partition.leaderEpoch,
    partitionEpoch: partition.partitionEpoch,
    directories: partition.directories.slice(),
    eligibleLeaderReplicas:
      partition.eligibleLeaderReplicas.length === 0
        ? null
        : partition.eligibleLeaderReplicas.slice(),
    lastKnownElr: partition.lastKnownElr.length === 0 ? null : partition.lastKnownElr.slice(),
  };
}

export function hasReplica(partition: PartitionRegistration, replica: BrokerId): boolean {
  return partition.replicas.includes(replica);
}
