/**
 * The metadata.version levels Sluice's controller can run, and the record versions each level
 * calls for. Levels are Kafka's MetadataVersion feature levels: 7 is 3.3-IV3 (the oldest Kafka
 * 4.0 still runs, and the first with BrokerRegistrationChangeRecord fencing), 17 is 3.7-IV2
 * (log dir assignment: directories in PartitionRecord, logDirs in RegisterBrokerRecord), 22 is
 * 4.0-IV0, the level ApiVersions advertises.
 */
import {
  DIRECTORY_ASSIGNMENT_METADATA_VERSION,
  METADATA_VERSION_FEATURE,
} from "../../metadata/index.js";

/** The name of the metadata.version feature, as FeatureLevelRecord and ApiVersions spell it. */
export const METADATA_VERSION = METADATA_VERSION_FEATURE;
/** The oldest metadata.version level the controller can run. */
export const METADATA_VERSION_MIN = 7;
/** The newest metadata.version level the controller can run; new clusters start at it. */
export const METADATA_VERSION_LATEST = 22;

const DIRECTORY_ASSIGNMENT_LEVEL = DIRECTORY_ASSIGNMENT_METADATA_VERSION;
/** The level that brought the ZooKeeper migration flag in broker registrations (3.4-IV0). */
const ZK_MIGRATION_LEVEL = 8;

export function isSupportedMetadataVersion(level: number): boolean {
  return level >= METADATA_VERSION_MIN && level <= METADATA_VERSION_LATEST;
}

/** The RegisterBrokerRecord version `level` writes: 3 carries logDirs, 2 the migration flag. */
export function registerBrokerRecordVersion(level: number): number {
  if (level >= DIRECTORY_ASSIGNMENT_LEVEL) return 3;
  return level >= ZK_MIGRATION_LEVEL ? 2 : 1;
}

/** The PartitionRecord and PartitionChangeRecord version `level` writes: 1 has directories. */
export function partitionRecordVersion(level: number): number {
  return level >= DIRECTORY_ASSIGNMENT_LEVEL ? 1 : 0;
}

/** The BrokerRegistrationChangeRecord version `level` writes: 2 carries logDirs. */
export function brokerRegistrationChangeRecordVersion(level: number): number {
  return level >= DIRECTORY_ASSIGNMENT_LEVEL ? 2 : 1;
}

/** Whether `level` records replica log dirs (directories) in partition records. */
export function hasDirectoryAssignment(level: number): boolean {
  return level >= DIRECTORY_ASSIGNMENT_LEVEL;
}
