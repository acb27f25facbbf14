export { MalformedFileError, parsed, malformed, parsedOrThrow } from "./malformed-file-error.js";
export type { ParseResult } from "./malformed-file-error.js";
export {
  LOG_FILE_SUFFIX,
  INDEX_FILE_SUFFIX,
  TIME_INDEX_FILE_SUFFIX,
  SNAPSHOT_FILE_SUFFIX,
  TRANSACTION_INDEX_FILE_SUFFIX,
  DELETED_FILE_SUFFIX,
  CLEANED_FILE_SUFFIX,
  SWAP_FILE_SUFFIX,
  offsetToFileName,
  parseSegmentFileName,
  segmentFileSuffix,
} from "./file-names.js";
export type { SegmentFileKind, SegmentFileStage, SegmentFileName } from "./file-names.js";
export {
  TEMPORARY_FILE_SUFFIX,
  writeFileAtomically,
  writeTextFileAtomically,
  readFileIfExists,
  readTextFileIfExists,
} from "./atomic-file.driver.js";
export {
  formatCheckpoint,
  parseCheckpoint,
  offsetCheckpointFormat,
  leaderEpochCheckpointFormat,
} from "./checkpoint-format.js";
export type {
  CheckpointEntryFormat,
  OffsetCheckpointEntry,
  EpochEntry,
} from "./checkpoint-format.js";
export {
  RECOVERY_POINT_CHECKPOINT_FILE,
  REPLICATION_CHECKPOINT_FILE,
  LOG_START_OFFSET_CHECKPOINT_FILE,
  LEADER_EPOCH_CHECKPOINT_FILE,
  CheckpointFile,
  offsetCheckpointFile,
  leaderEpochCheckpointFile,
} from "./checkpoint-file.driver.js";
export { parseProperties, formatProperties, formatJavaDate } from "./java-properties.js";
export type { Properties } from "./java-properties.js";
export {
  META_PROPERTIES_FILE,
  formatMetaProperties,
  parseMetaProperties,
  parseStoredMetaProperties,
  checkIdentity,
  LogDirIdentityError,
} from "./meta-properties.js";
export type {
  MetaProperties,
  UnassignedMetaProperties,
  StoredMetaProperties,
  ExpectedIdentity,
  IdentityCheck,
} from "./meta-properties.js";
export {
  readMetaProperties,
  readStoredMetaProperties,
  writeMetaProperties,
  verifyLogDirIdentity,
} from "./meta-properties.driver.js";
export {
  PARTITION_METADATA_FILE,
  formatPartitionMetadata,
  parsePartitionMetadata,
} from "./partition-metadata.js";
export { readPartitionMetadata, writePartitionMetadata } from "./partition-metadata.driver.js";
export { DEFAULT_SEGMENT_INDEX_BYTES, DEFAULT_INDEX_INTERVAL_BYTES } from "./index-common.js";
export type { IndexOptions, IndexSanity } from "./index-common.js";
export { OFFSET_INDEX_ENTRY_BYTES, OffsetIndex, isRelativeOffsetInRange } from "./offset-index.js";
export type { OffsetPosition } from "./offset-index.js";
export { OffsetIndexFile } from "./offset-index.driver.js";
export { TIME_INDEX_ENTRY_BYTES, NO_TIMESTAMP, TimeIndex } from "./time-index.js";
export type { TimestampOffset } from "./time-index.js";
export { TimeIndexFile } from "./time-index.driver.js";
export { UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET, LeaderEpochCache } from "./leader-epoch-cache.js";
export type { EpochEndOffset } from "./leader-epoch-cache.js";
export { LeaderEpochFileCache } from "./leader-epoch-cache.driver.js";
export {
  CLEANER_OFFSET_CHECKPOINT_FILE,
  CleanerCheckpoint,
  CleanerReadError,
  LogCleaner,
  defaultCleanerConfig,
} from "./cleaner/index.js";
export type {
  CleanableLog,
  CleanerConfig,
  CleanerLogEntry,
  CleaningStats,
  CleanOnceResult,
  LogCleanerOptions,
} from "./cleaner/index.js";
export * from "./log/index.js";
export * from "./manager/index.js";
export type { ActiveProducer, PartitionTransactions } from "./producer-state/index.js";
