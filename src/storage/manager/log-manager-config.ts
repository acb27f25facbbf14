/**
 * The broker configs the log manager obeys, under Kafka's names (camel-cased), with Kafka's
 * defaults. Kafka's Long.MAX_VALUE ("never") is Number.MAX_SAFE_INTEGER.
 */
import { assert } from "../../common/index.js";
import { defaultCleanerConfig, type CleanerConfig } from "../cleaner/index.js";
import { defaultLogConfig, NEVER, type LogConfig } from "../log/index.js";

/** The log manager's part of the broker config. */
export interface LogManagerConfig {
  /** `log.dirs`: the log dirs (JBOD), in the order placement breaks ties by. */
  readonly logDirs: readonly string[];
  /** `num.recovery.threads.per.data.dir`: logs loaded at once in each dir at start. */
  readonly numRecoveryThreadsPerDataDir: number;
  /** `log.flush.scheduler.interval.ms`: how often logs are checked against `flush.ms`. */
  readonly logFlushSchedulerIntervalMs: number;
  /** `log.flush.offset.checkpoint.interval.ms`: the recovery-point checkpoint's period. */
  readonly logFlushOffsetCheckpointIntervalMs: number;
  /** `log.flush.start.offset.checkpoint.interval.ms`: the log-start-offset checkpoint's period. */
  readonly logFlushStartOffsetCheckpointIntervalMs: number;
  /** `replica.high.watermark.checkpoint.interval.ms`: the replication checkpoint's period. */
  readonly replicaHighWatermarkCheckpointIntervalMs: number;
  /** `log.retention.check.interval.ms`: how often retention deletes old segments. */
  readonly logRetentionCheckIntervalMs: number;
  /** The topic configs of a topic without overrides (the broker's `log.*` defaults). */
  readonly defaultLogConfig: LogConfig;
  /**
   * The bytes one step of a replica move copies from the current log to the future one, as
   * `replica.fetch.max.bytes` bounds Kafka's alter-log-dirs fetcher (default 1048576).
   */
  readonly replicaFetchMaxBytes: number;
  /** `log.cleaner.enable`: whether logs with `cleanup.policy` compact are compacted. */
  readonly logCleanerEnable: boolean;
  /** `log.cleaner.backoff.ms`: the pause of the cleaner after a pass that found nothing to do. */
  readonly logCleanerBackoffMs: number;
  /**
   * `log.cleaner.dedupe.buffer.size`, `log.cleaner.io.buffer.load.factor` and
   * `log.cleaner.io.buffer.size`.
   */
  readonly cleaner: CleanerConfig;
  /**
   * `sluice.log.max.open.files`: the most file descriptors the logs hold at once; files of segments
   * and partitions not in use are closed and opened again when next needed.
   */
  readonly maxOpenFiles: number;
  /**
   * `sluice.log.dir.full.probe.interval.ms`: how often a log dir offline for a full disk is
   * probed for room, to come back online.
   */
  readonly logDirFullProbeIntervalMs: number;
}

/** The default of `sluice.log.max.open.files`. */
export const DEFAULT_MAX_OPEN_FILES = 10_000;

/** Kafka's defaults, for a broker with the log dirs `logDirs`. */
export function defaultLogManagerConfig(logDirs: readonly string[]): LogManagerConfig {
  return {
    logDirs,
    numRecoveryThreadsPerDataDir: 1,
    logFlushSchedulerIntervalMs: NEVER,
    logFlushOffsetCheckpointIntervalMs: 60_000,
    logFlushStartOffsetCheckpointIntervalMs: 60_000,
    replicaHighWatermarkCheckpointIntervalMs: 5000,
    logRetentionCheckIntervalMs: 300_000,
    defaultLogConfig,
    replicaFetchMaxBytes: 1_048_576,
    logCleanerEnable: true,
    logCleanerBackoffMs: 15_000,
    cleaner: defaultCleanerConfig,
    maxOpenFiles: DEFAULT_MAX_OPEN_FILES,
    logDirFullProbeIntervalMs: 10_000,
  };
}

/** Checks the ranges Kafka's ConfigDef enforces; the config was validated when it was read. */
export function checkLogManagerConfig(config: LogManagerConfig): void {
  assert(config.logDirs.length > 0, "log.dirs names at least one dir");
  assert(new Set(config.logDirs).size === config.logDirs.length, "log.dirs has no duplicate");
  assert(config.numRecoveryThreadsPerDataDir >= 1, "num.recovery.threads.per.data.dir >= 1");
  assert(config.logFlushSchedulerIntervalMs >= 1, "log.flush.scheduler.interval.ms >= 1");
  assert(config.logFlushOffsetCheckpointIntervalMs >= 1, "log.flush.offset.checkpoint >= 1");
  assert(config.logFlushStartOffsetCheckpointIntervalMs >= 1, "start offset checkpoint >= 1");
  assert(config.replicaHighWatermarkCheckpointIntervalMs >= 1, "high watermark checkpoint >= 1");
  assert(config.logRetentionCheckIntervalMs >= 1, "log.retention.check.interval.ms >= 1");
  assert(config.replicaFetchMaxBytes >= 1, "replica.fetch.max.bytes >= 1");
  assert(config.logCleanerBackoffMs >= 0, "log.cleaner.backoff.ms >= 0");
  assert(config.maxOpenFiles >= 1, "sluice.log.max.open.files >= 1");
  assert(config.logDirFullProbeIntervalMs >= 1, "sluice.log.dir.full.probe.interval.ms >= 1");
}
