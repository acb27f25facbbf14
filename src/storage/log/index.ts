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
  isResourceExhaustion,
  isLogAppendError,
  errorCodeOfAppendRefusal,
} from "./log-errors.js";
export type { AppendRefusal } from "./log-errors.js";
export type { AppendResult, LeaderAppend } from "./append-plan.js";
export type { AppendedCompletion, AppendVerification, LeaderOrigin } from "./producer-append.js";
export type { RecoveryReport } from "./log-loader.driver.js";
export type { LogOffsetMetadata, LogReadResult } from "./log-read.driver.js";
export type { SegmentInfo } from "./log-segment.driver.js";
export type { TimestampAndOffset } from "./log-timestamp.driver.js";
export type { SegmentRecovery } from "./segment-recovery.driver.js";
export { PartitionLog } from "./log.driver.js";
export type { OpenLogOptions } from "./log-loader.driver.js";
export type { FileSlice, ReadOptions } from "./log-read.driver.js";
export { LogSegment } from "./log-segment.driver.js";
export type { SegmentOptions } from "./log-segment.driver.js";
export { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, MAX_TIMESTAMP } from "./log-timestamp.driver.js";
export { SegmentList } from "./segment-list.js";
export { deletableSegmentCount, retentionReasons } from "./retention.js";
export type { RetentionInput, RetentionReason, RetentionSegment } from "./retention.js";
export { decodeTransactionIndex, type AbortedTransaction } from "./transaction-index.driver.js";
export {
  decodeProducerSnapshot,
  encodeProducerSnapshot,
  type SnapshotProducer,
} from "./producer-snapshot-format.js";
