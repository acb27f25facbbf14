// The log manager: log dirs (JBOD), loading and recovery, checkpoints, clean shutdown, dir
// failure, replica moves between dirs (see README.md).
export { LogManager } from "./log-manager.driver.js";
export { LogMetrics } from "./log-metrics.js";
export { LabelledGauges } from "./labelled-gauges.js";
export type { LogManagerOptions } from "./log-manager.driver.js";
export type { LogDirFailureListener } from "./log-dir-failure.driver.js";
export {
  defaultLogManagerConfig,
  checkLogManagerConfig,
  type LogManagerConfig,
} from "./log-manager-config.js";
export type { LogLookup } from "./log-registry.js";
export type { CreateLogRequest, GetOrCreateLogResult } from "./log-creation.driver.js";
export type { LogDirFailure } from "./log-dir-failure.driver.js";
export type { LogDirRecovery, LogDirRecoveryListener } from "./log-dir-recovery.driver.js";
export { FULL_DIR_PROBE_BYTES } from "./log-dir-recovery.driver.js";
export type { PeriodicWork } from "./periodic-tasks.driver.js";
export { errorCodeOfAlterReplicaLogDir } from "./replica-move.driver.js";
export type { AlterReplicaLogDirResult, CatchUpResult } from "./replica-move.driver.js";
export type { ReplaceLogResult } from "./future-log-swap.driver.js";
export { LogDirUnformattedError } from "./log-dir-scan.driver.js";
export { NoOnlineLogDirError } from "./manager-start.driver.js";
export { DuplicateLogDirectoriesError, METADATA_TOPIC } from "./load-plan.js";
export {
  CLEAN_SHUTDOWN_FILE,
  NO_BROKER_EPOCH,
  formatCleanShutdown,
  parseCleanShutdown,
} from "./clean-shutdown.js";
export {
  DELETE_DIR_SUFFIX,
  FUTURE_DIR_SUFFIX,
  STRAY_DIR_SUFFIX,
  currentDirName,
  deleteDirName,
  futureDirName,
  parsePartitionDirName,
  strayDirName,
} from "./partition-dir-name.js";
export type { PartitionDirKind, PartitionDirName } from "./partition-dir-name.js";
export { chooseLogDir, type PlacementCandidate } from "./placement.js";
export { INITIAL_TASK_DELAY_MS } from "./periodic-schedule.js";
export { isStorageFailure } from "./storage-failure.js";
export { volumeSpaceOf } from "./volume-space.driver.js";
