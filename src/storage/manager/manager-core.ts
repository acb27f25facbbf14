/**
 * What the parts of the log manager share: the ports, the registry, and the one way a failure of
 * the disk is handled, by taking the dir offline. The drivers of periodic work, checkpoints and
 * replica moves take this instead of the whole manager.
 */
import type { Uuid } from "../../common/index.js";
import type { Clock, FileSystem, Logger, Random } from "../../ports/index.js";
import type { LogConfig, PartitionLog, TopicPartition } from "../log/index.js";
import type { CleanerTask } from "./cleaner-task.driver.js";
import type { LogDirCheckpoints } from "./log-dir-checkpoints.driver.js";
import type { LogManagerConfig } from "./log-manager-config.js";
import type { LogRegistry } from "./log-registry.js";
import { rethrowUnlessStorageFailure } from "./storage-failure.js";

/** How to open one log. */
export interface OpenLogRequest {
  readonly logDir: string;
  /** The partition folder's name in `logDir`. */
  readonly folderName: string;
  readonly topicPartition: TopicPartition;
  readonly recoveryPoint: number;
  readonly logStartOffset: number;
  readonly hadCleanShutdown: boolean;
  readonly topicId?: Uuid;
}

/** The shared state and services of the log manager. */
export interface ManagerCore {
  readonly fileSystem: FileSystem;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly config: LogManagerConfig;
  readonly registry: LogRegistry<PartitionLog>;
  /** The log cleaner, or undefined when `log.cleaner.enable` is false. */
  readonly cleanerTask: CleanerTask | undefined;
  /** The probes of dirs offline for a full disk (log-dir-recovery.driver.ts). */
  readonly fullDirRecovery?: { run(): Promise<number> };
  checkpointsOf(logDir: string): LogDirCheckpoints;
  logConfigOf(topic: string): LogConfig;
  /** Takes `logDir` offline because of `cause` (once; later calls do nothing). */
  failDir(logDir: string, cause: unknown): void;
  /** Opens a log; undefined when its dir went offline meanwhile. Storage failures are thrown. */
  openLog(request: OpenLogRequest): Promise<PartitionLog | undefined>;
}

/** The value of an operation on a dir, or the fact that the dir failed during it. */
export type Guarded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

/**
 * Runs `operation`, which touches only `logDir`; a storage failure takes the dir offline and
 * gives `{ ok: false }`. Any other error, an AssertionError above all, is thrown on.
 */
export async function guarded<T>(
  core: ManagerCore,
  logDir: string,
  operation: () => Promise<T>,
): Promise<Guarded<T>> {
  try {
    return { ok: true, value: await operation() };
  } catch (error) {
    rethrowUnlessStorageFailure(error);
    core.failDir(logDir, error);
    return { ok: false };
  }
}
