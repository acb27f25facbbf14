/**
 * Where a log dir goes offline (Kafka's LogDirFailureChannel): the registry drops the dir and its
 * logs, the logs are closed best effort, the offline gauge is set, and every listener hears
 * about the dir once, with the partitions it held.
 */
import type { LogDirFailure } from "./log-manager-types.js";
import type { LogManagerMetrics } from "./log-manager-metrics.js";
import { closeQuietly } from "./log-deletion.driver.js";
import { describeDirFailure } from "./log-registry.js";
import type { ManagerCore } from "./manager-core.js";

/** A listener of dir failures. */
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
