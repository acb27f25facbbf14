// The public surface of the log cleaner (compaction): the cleaner checkpoint file, the pure
// choice of which log and range to clean, the offset map, and the driver that cleans.
export { CLEANER_OFFSET_CHECKPOINT_FILE, CleanerCheckpoint } from "./cleaner-checkpoint.driver.js";
export type { CheckpointedPartition } from "./cleaner-checkpoint.driver.js";
export { defaultCleanerConfig, type CleanerConfig } from "./cleaner-config.js";
export {
  cleanableRange,
  chooseFilthiestLog,
  type CleanableRange,
  type LogView,
  type SegmentView,
} from "./cleanable-range.js";
export { OffsetMap } from "./offset-map.js";
export { filterBatch, type BatchDecision, type FilterContext } from "./batch-filter.js";
export { encodeRetainedBatch } from "./retained-batch.js";
export { CleanerReadError } from "./segment-batches.driver.js";
export type { CleanableLog, CleaningStats } from "./clean-log.driver.js";
export {
  LogCleaner,
  type CleanerLogEntry,
  type CleanOnceResult,
  type LogCleanerOptions,
} from "./log-cleaner.driver.js";
