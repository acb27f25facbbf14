/**
 * The log manager's metrics, labelled by log dir: whether the dir is offline (Kafka's
 * LogDirectoryOffline gauge) and the bytes recovery cut from its logs at start.
 */
import type { Counter, Gauge, MetricsSink } from "../../ports/index.js";

export class LogManagerMetrics {
  private readonly offline = new Map<string, Gauge>();
  private readonly truncatedBytes = new Map<string, Counter>();

  constructor(metrics: MetricsSink, logDirs: readonly string[]) {
    for (const logDir of logDirs) {
      const labels = { dir: logDir };
      this.offline.set(
        logDir,
        metrics.gauge("sluice_log_dir_offline", "1 when the log dir has failed, else 0.", labels),
      );
      this.truncatedBytes.set(
        logDir,
        metrics.counter(
          "sluice_log_recovery_truncated_bytes_total",
          "Bytes cut from the end of logs by recovery at start (torn or corrupt tails).",
          labels,
        ),
      );
    }
  }

  setOffline(logDir: string, isOffline: boolean): void {
    this.offline.get(logDir)?.set(isOffline ? 1 : 0);
  }

  recoveryTruncated(logDir: string, bytes: number): void {
    if (bytes > 0) this.truncatedBytes.get(logDir)?.inc(bytes);
  }
}
