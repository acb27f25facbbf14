/**
 * Where a log dir goes offline (Kafka's LogDirFailureChannel): the registry drops the dir and its
 * logs, the logs are closed best effort, the offline gauge is set, and every listener hears
 * about the dir once, with the partitions it held (LogDirFailure).
 */
import type { TopicPartition } from "../log/index.js";
import type { LogManagerMetrics } from "./log-manager-metrics.js";
import { closeQuietly } from "./log-deletion.driver.js";
import type { RemovedByFailure } from "./log-registry.js";
import type { ManagerCore } from "./manager-core.js";

/** Raised once per dir when the dir goes offline (Kafka's LogDirFailureChannel). */
export interface LogDirFailure {
  readonly logDir: string;
  /** Partitions whose current log was in the dir; the broker reports them to the controller. */
  readonly partitions: readonly TopicPartition[];
  /** Partitions whose future log (a move under way) was in the dir. */
  readonly futurePartitions: readonly TopicPartition[];
  readonly cause: unknown;
  /** True when no dir is left online: Kafka halts the broker then. */
  readonly isLastOnlineDir: boolean;
}

/** The failure event for a dir whose logs `removed` lists. */
export function describeDirFailure<L>(
  logDir: string,
  removed: RemovedByFailure<L>,
  cause: unknown,
): LogDirFailure {
  return {
    logDir,
    partitions: removed.logs.filter((held) => !held.isFuture).map((held) => held.topicPartition),
    futurePartitions: removed.logs
      .filter((held) => held.isFuture)
      .map((held) => held.topicPartition),
    cause,
    isLastOnlineDir: removed.isLastOnlineDir,
  };
}

export type LogDirFailureListener = (failure: LogDirFailure) => void;

/** The listeners of dir failures, and the one place a dir is taken offline. */
export class LogDirFailureChannel {
  private readonly listeners: LogDirFailureListener[] = [];

  constructor(private readonly metrics: LogManagerMetrics) {}

  /** Adds `listener`; the function returned removes it. */
  subscribe(listener: LogDirFailureListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /** Takes `logDir` offline because of `cause`; a dir already offline is left as it is. */
  takeOffline(core: ManagerCore, logDir: string, cause: unknown): void {
    const removed = core.registry.markOffline(logDir);
    if (removed === undefined) return;
    this.metrics.setOffline(logDir, true);
    const failure = describeDirFailure(logDir, removed, cause);
    core.logger.error("log dir failed; its logs are offline", {
      logDir,
      partitions: failure.partitions.length,
      cause: String(cause),
    });
    // Closing touches the failed disk and may take a while; nothing waits for it.
    void closeQuietly(core, removed.logs);
    for (const listener of [...this.listeners]) listener(failure);
  }
}
