/**
 * Telling the controller which log dir holds each replica of this broker (KIP-858), as Kafka's
 * ReplicaManager does after each metadata delta (maybeUpdateTopicAssignment): a replica whose
 * registration names another dir than the one its log is in is reported, so that the failure of
 * a dir moves exactly the partitions in it. Registrations without directories (metadata.version
 * before 3.7-IV2) are left alone.
 */
import type { BrokerId, Uuid } from "../common/index.js";
import {
  DIRECTORY_ASSIGNMENT_METADATA_VERSION,
  type LocalPartition,
  type MetadataImage,
} from "../metadata/index.js";
import type { LogManager, TopicPartition } from "../storage/index.js";

/** One replica of this broker and the log dir (directory id) holding it. */
export interface DirectoryAssignment {
  readonly topicId: Uuid;
  readonly partitionIndex: number;
  readonly directoryId: Uuid;
}

/** The way out to the controller for assignments; the node connects it to the controller. */
export interface DirectoryAssigner {
  /** Queues `assignment`; `onAccepted` runs once the controller has accepted it. */
  assign(assignment: DirectoryAssignment, onAccepted?: () => void): void;
}

/** Whether the image's metadata.version records replica log dirs. */
export function hasDirectoryAssignment(image: MetadataImage): boolean {
  const level = image.features.metadataVersion;
  return level !== undefined && level >= DIRECTORY_ASSIGNMENT_METADATA_VERSION;
}

/** The assignments `locals` call for: replicas registered in another dir than their log's. */
export function directoryAssignmentsOf(
  locals: readonly LocalPartition[],
  options: {
    readonly brokerId: BrokerId;
    /** The directory id of the dir holding the partition's current log, if it is online. */
    readonly directoryOf: (topicPartition: TopicPartition) => Uuid | undefined;
  },
): DirectoryAssignment[] {
  const assignments: DirectoryAssignment[] = [];
  for (const local of locals) {
    const { replicas, directories } = local.partition;
    const index = replicas.indexOf(options.brokerId);
    if (index < 0) continue;
    const topicPartition = { topic: local.topicName, partition: local.partitionIndex };
    const directoryId = options.directoryOf(topicPartition);
    if (directoryId === undefined || directories[index] === directoryId) continue;
    assignments.push({ topicId: local.topicId, partitionIndex: local.partitionIndex, directoryId });
  }
  return assignments;
}

/** Sends the assignments `locals` call for, when the image records replica log dirs. */
export function reportDirectories(
  locals: readonly LocalPartition[],
  image: MetadataImage,
  options: {
    readonly brokerId: BrokerId;
    readonly logManager: LogManager;
    readonly directoryAssigner?: DirectoryAssigner;
  },
): void {
  const { directoryAssigner, logManager, brokerId } = options;
  if (directoryAssigner === undefined || !hasDirectoryAssignment(image)) return;
  const directoryOf = (topicPartition: TopicPartition) => {
    const logDir = logManager.logDirOf(topicPartition);
    return logDir === undefined ? undefined : logManager.directoryIdOf(logDir);
  };
  for (const assignment of directoryAssignmentsOf(locals, { brokerId, directoryOf })) {
    directoryAssigner.assign(assignment);
  }
}
