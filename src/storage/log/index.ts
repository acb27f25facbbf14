// The partition log: segments, the log, recovery, retention and flushing (see README.md).
export { NEVER, defaultLogConfig, partitionFolderName, checkLogConfig } from "./log-config.js";
export type {
  LogConfig,
  TopicPartition,
  CleanupPolicy,
  MessageTimestampType,
} from "./log-config.js";
export {
  LogAppendError,
  LogClosedError,
  LogFailedError,
  isIoError,
  isLogAppendError,
  errorCodeOfAppendRefusal,
} from "./log-errors.js";
export type { AppendRefusal } from "./log-errors.js";
export type {
  AppendResult,
  LogOffsetMetadata,
  LogReadResult,
  RecoveryReport,
  SegmentInfo,
  SegmentRecovery,
  TimestampAndOffset,
} from "./log-types.js";
export { PartitionLog } from "./log.driver.js";
export type { OpenLogOptions } from "./log.driver.js";
export type { FileSlice, ReadOptions } from "./log-read.driver.js";
export { LogSegment } from "./log-segment.driver.js";
export type { SegmentOptions } from "./log-segment.driver.js";
export { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, MAX_TIMESTAMP } from "./log-timestamp.driver.js";
export { SegmentList } from "./segment-list.js";
export { deletableSegmentCount, retentionReasons } from "./retention.js";
export type { RetentionInput, RetentionReason, RetentionSegment } from "./retention.js";
