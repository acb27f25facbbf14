/**
 * The log manager: every partition log of a node across its log dirs (`log.dirs`, JBOD). It
 * loads the logs at start (recovering those of a dir without a clean-shutdown marker), places
 * new logs, deletes logs, runs the periodic work on the caller's clock, writes the checkpoints,
 * moves replicas between dirs, and takes a dir offline on its first I/O error, keeping the
 * others running. Operations run one at a time (OperationQueue); lookups are synchronous.
 */
import type { Uuid } from "../../common/index.js";
import type { ExpectedIdentity } from "../meta-properties.js";
import type { Clock, FileSystem, Logger, MetricsSink, Random } from "../../ports/index.js";
import type { LogConfig, PartitionLog, TopicPartition } from "../log/index.js";
import { previousBrokerEpoch } from "./clean-shutdown.js";
import { deletePartitionLogs } from "./log-deletion.driver.js";
import {
  ALL_CHECKPOINTS,
  LogDirCheckpoints,
  checkpointLogDir,
} from "./log-dir-checkpoints.driver.js";
import { checkLogManagerConfig, type LogManagerConfig } from "./log-manager-config.js";
import { LogManagerMetrics } from "./log-manager-metrics.js";
import { LogDirFailureChannel, type LogDirFailureListener } from "./log-dir-failure.driver.js";
import { loadLogs, NoOnlineLogDirError } from "./manager-start.driver.js";
import { LogRegistry, type LogLookup } from "./log-registry.js";
import type { ManagerCore, OpenLogRequest } from "./manager-core.js";
import { OperationQueue } from "./operation-queue.driver.js";
import {
  createLogs,
  openPartitionLog,
  type CreateLogRequest,
  type GetOrCreateLogResult,
} from "./log-creation.driver.js";
import { currentDirName } from "./partition-dir-name.js";
import { PeriodicSchedule } from "./periodic-schedule.js";
import {
  periodicSchedule,
  runDueWork,
  type PeriodicTaskName,
  type PeriodicWork,
} from "./periodic-tasks.driver.js";
import {
  alterReplicaLogDir,
  catchUpFutureLog,
  type AlterReplicaLogDirResult,
  type CatchUpResult,
} from "./replica-move.driver.js";
import { replaceCurrentWithFutureLog, type ReplaceLogResult } from "./future-log-swap.driver.js";
import { shutdownLogDir } from "./clean-shutdown.driver.js";
import { CleanerTask } from "./cleaner-task.driver.js";
import { isStorageFailure } from "./storage-failure.js";
import { FullDirRecovery } from "./log-dir-recovery.driver.js";
import { FileHandlePool } from "../file-handle-pool.driver.js";

export interface LogManagerOptions {
  readonly fileSystem: FileSystem;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly metrics: MetricsSink;
  readonly config: LogManagerConfig;
  /** The cluster and node every dir's meta.properties must name. */
  readonly identity: ExpectedIdentity;
  /** Format dirs without meta.properties (a new random directory.id each), as on first start. */
  readonly formatUnformatted: boolean;
  /** The topic configs of `topic` (defaults plus overrides); the defaults when absent. */
  readonly logConfigOf?: (topic: string) => LogConfig;
}

export class LogManager implements ManagerCore {
  readonly fileSystem: FileSystem;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly config: LogManagerConfig;
  readonly registry: LogRegistry<PartitionLog>;
  readonly cleanerTask: CleanerTask | undefined;
  readonly fullDirRecovery: FullDirRecovery;
  private readonly metrics: LogManagerMetrics;
  private readonly checkpointFiles = new Map<string, LogDirCheckpoints>();
  private directoryIds: ReadonlyMap<string, Uuid> = new Map();
  private readonly failureChannel: LogDirFailureChannel;
  private readonly queue = new OperationQueue();
  private readonly schedule: PeriodicSchedule<PeriodicTaskName>;
  private readonly configOf: (topic: string) => LogConfig;
  private brokerEpochAtStart: number | undefined;
  private isShutDown = false;

  private constructor(options: LogManagerOptions, offlineDirs: readonly string[]) {
    this.fileSystem = options.fileSystem;
    this.clock = options.clock;
    this.random = options.random;
    this.logger = options.logger.child({ component: "log-manager" });
    this.config = options.config;
    this.registry = new LogRegistry(options.config.logDirs, offlineDirs);
    this.metrics = new LogManagerMetrics(options.metrics, options.config.logDirs);
    this.failureChannel = new LogDirFailureChannel(this.metrics);
    this.fullDirRecovery = new FullDirRecovery(this, options.identity);
    this.failureChannel.subscribe((failure) => this.fullDirRecovery.onFailure(failure));
    this.fullDirRecovery.subscribe(({ logDir }) => this.metrics.setOffline(logDir, false));
    const defaults = options.config.defaultLogConfig;
    this.configOf = options.logConfigOf ?? (() => defaults);
    this.schedule = periodicSchedule(options.config, options.clock.nowMs());
    const cleanerOptions = { config: options.config, logger: this.logger };
    this.cleanerTask = options.config.logCleanerEnable
      ? new CleanerTask(this, cleanerOptions)
      : undefined;
  }

  /**
   * Opens the dirs and loads every log. Throws LogDirIdentityError for a dir of another cluster
   * or node, LogDirUnformattedError for a dir that may not be formatted, and
   * NoOnlineLogDirError when every dir failed.
   */
  static async start(given: LogManagerOptions): Promise<LogManager> {
    checkLogManagerConfig(given.config);
    // Every file of the logs goes through one descriptor budget (sluice.log.max.open.files).
    const pool = new FileHandlePool(given.fileSystem, given.config.maxOpenFiles, given.logger);
    const options = { ...given, fileSystem: pool };
    const built: LogManager[] = [];
    const loaded = await loadLogs(options, (offlineDirs) => {
      built.push(new LogManager(options, offlineDirs));
      return built[0] as LogManager;
    });
    const manager = built[0];
    if (manager === undefined || manager.registry.liveLogDirs().length === 0) {
      throw new NoOnlineLogDirError(options.config.logDirs);
    }
    manager.directoryIds = loaded.directoryIds;
    manager.brokerEpochAtStart = previousBrokerEpoch(loaded.brokerEpochs);
    for (const [key, value] of loaded.highWatermarks)
      manager.registry.highWatermarks.set(key, value);
    for (const logDir of options.config.logDirs) {
      manager.metrics.setOffline(logDir, !manager.registry.isOnline(logDir));
    }
    return manager;
  }

  /**
   * The broker epoch of the previous run when every dir ended it with a clean-shutdown marker
   * naming the same epoch (KIP-966), else undefined.
   */
  get previousBrokerEpoch(): number | undefined {
    return this.brokerEpochAtStart;
  }

  /** The directory.id of `logDir` (KIP-858), known for dirs that were online at start. */
  directoryIdOf(logDir: string): Uuid | undefined {
    return this.directoryIds.get(logDir);
  }

  /** The online dirs, in `log.dirs` order. */
  liveLogDirs(): string[] {
    return this.registry.liveLogDirs();
  }

  isLogDirOnline(logDir: string): boolean {
    return this.registry.isOnline(logDir);
  }

  logConfigOf(topic: string): LogConfig {
    return this.configOf(topic);
  }

  checkpointsOf(logDir: string): LogDirCheckpoints {
    let files = this.checkpointFiles.get(logDir);
    if (files === undefined) {
      files = new LogDirCheckpoints(this.fileSystem, logDir);
      this.checkpointFiles.set(logDir, files);
    }
    return files;
  }

  /** The current log of a partition, or why there is none. */
  getLog(topicPartition: TopicPartition): LogLookup {
    return this.registry.lookup(topicPartition);
  }

  /** The future log of a partition being moved between dirs, if any. */
  getFutureLog(topicPartition: TopicPartition): PartitionLog | undefined {
    return this.registry.future(topicPartition)?.log;
  }

  /** The current logs of the online dirs. */
  allLogs(): PartitionLog[] {
    return this.registry.allCurrent().map((held) => held.log);
  }

  /** The future logs of the online dirs. */
  allFutureLogs(): PartitionLog[] {
    return this.registry.allFuture().map((held) => held.log);
  }

  logDirOf(topicPartition: TopicPartition): string | undefined {
    return this.registry.current(topicPartition)?.logDir;
  }

  /** Each partition's log, in request order, created when missing (log-creation.driver.ts). */
  getOrCreateLogs(requests: readonly CreateLogRequest[]): Promise<GetOrCreateLogResult[]> {
    return this.queue.run(() => createLogs(this, requests));
  }

  /** Deletes the current and future logs of a partition; false when there was none. */
  deleteLog(topicPartition: TopicPartition): Promise<boolean> {
    return this.queue.run(() => deletePartitionLogs(this, topicPartition));
  }

  /** Records the high watermark of a partition for the replication-offset checkpoint. */
  setHighWatermark(topicPartition: TopicPartition, highWatermark: number): void {
    this.registry.highWatermarks.set(currentDirName(topicPartition), highWatermark);
  }

  /** The high watermark of a partition: the last one set, or the checkpointed one from start. */
  highWatermarkOf(topicPartition: TopicPartition): number | undefined {
    return this.registry.highWatermarks.get(currentDirName(topicPartition));
  }

  /** Calls `listener` once per dir that goes offline; returns a function that unsubscribes. */
  onLogDirFailure(listener: LogDirFailureListener): () => void {
    return this.failureChannel.subscribe(listener);
  }

  /**
   * Reports an I/O error met on `logDir` outside the manager (a log operation of the caller);
   * storage failures take the dir offline, other errors are ignored here and stay the caller's.
   */
  reportIoError(logDir: string, error: unknown): void {
    if (isStorageFailure(error)) this.failDir(logDir, error);
  }

  /** Takes `logDir` offline: its logs are closed and dropped, and the listeners hear once. */
  failDir(logDir: string, cause: unknown): void {
    this.failureChannel.takeOffline(this, logDir, cause);
  }

  /** Opens one log with the manager's hook for its I/O errors. */
  async openLog(request: OpenLogRequest): Promise<PartitionLog | undefined> {
    return openPartitionLog(this, request, (error) => this.reportIoError(request.logDir, error));
  }

  recordRecovery(logDir: string, truncatedBytes: number): void {
    this.metrics.recoveryTruncated(logDir, truncatedBytes);
  }

  /**
   * Runs the periodic work due at `nowMs`: the scheduled tasks, removal of `-delete` folders
   * whose delay has passed, and one copy step of each replica move.
   */
  runPeriodicTasks(nowMs: number): Promise<PeriodicWork> {
    return this.queue.run(() => runDueWork(this, this.schedule, nowMs));
  }

  /** When the next scheduled task is due, for a driver that sleeps until then. */
  nextTaskDueAtMs(): number {
    return this.schedule.nextDueAtMs();
  }

  /** Writes every checkpoint of every online dir now. */
  checkpointAll(): Promise<void> {
    return this.queue.run(async () => {
      for (const logDir of this.registry.liveLogDirs()) {
        await checkpointLogDir(this, logDir, ALL_CHECKPOINTS);
      }
    });
  }

  /** Starts moving a partition's replica to `targetDir` (AlterReplicaLogDirs). */
  alterReplicaLogDir(
    topicPartition: TopicPartition,
    targetDir: string,
  ): Promise<AlterReplicaLogDirResult> {
    return this.queue.run(() => alterReplicaLogDir(this, topicPartition, targetDir));
  }

  /** One bounded copy step of a replica move (the periodic work also takes these steps). */
  catchUpFutureLog(topicPartition: TopicPartition): Promise<CatchUpResult> {
    return this.queue.run(() => catchUpFutureLog(this, topicPartition));
  }

  /**
   * Finishes a replica move: the future log catches up and replaces the current log. The caller
   * must not append to the current log until this resolves; it gets the new log in the result.
   */
  replaceCurrentWithFutureLog(topicPartition: TopicPartition): Promise<ReplaceLogResult> {
    return this.queue.run(() => replaceCurrentWithFutureLog(this, topicPartition));
  }

  /**
   * Flushes and closes every log, writes every checkpoint, then the clean-shutdown marker with
   * `brokerEpoch` in each dir where all of that succeeded. The manager takes no more work.
   */
  shutdown(brokerEpoch = -1): Promise<void> {
    return this.queue.run(async () => {
      if (this.isShutDown) return;
      this.isShutDown = true;
      const dirs = this.registry.liveLogDirs();
      await Promise.all(dirs.map((logDir) => shutdownLogDir(this, logDir, brokerEpoch)));
      this.logger.info("log manager shut down", { dirs: dirs.length });
    });
  }
}
