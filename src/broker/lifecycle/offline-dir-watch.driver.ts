/**
 * The broker's watch over failed log dirs it must report (KIP-858): after each change of its
 * dirs, once `log.dir.failure.timeout.ms` has passed, every dir still offline must have been
 * named in a heartbeat the controller accepted; if one was not, the broker shuts down, as
 * Kafka's BrokerLifecycleManager does.
 */
import type { Uuid } from "../../common/index.js";
import type { Logger, Timer, Timers } from "../../ports/index.js";

export interface OfflineDirWatchOptions {
  readonly timers: Timers;
  readonly logger: Logger;
  readonly timeoutMs: number;
  /** The dirs offline now. */
  readonly offlineDirs: () => readonly Uuid[];
  readonly isAcknowledged: (dir: Uuid) => boolean;
  /** Told the dirs the controller has not heard of when a check finds any. */
  readonly onUnreported: (dirs: readonly Uuid[]) => void;
}

/** The pending checks; see the file comment. */
export class OfflineDirWatch {
  private readonly checks = new Set<Timer>();

  constructor(private readonly options: OfflineDirWatchOptions) {}

  /** The dirs changed: check, after the timeout, that the controller heard of every failure. */
  dirsChanged(): void {
    const check = this.options.timers.schedule(this.options.timeoutMs, () => {
      this.checks.delete(check);
      this.check();
    });
    this.checks.add(check);
  }

  /** Cancels every pending check. */
  close(): void {
    for (const check of this.checks) check.cancel();
    this.checks.clear();
  }

  private check(): void {
    const { offlineDirs, isAcknowledged, logger, timeoutMs } = this.options;
    const unreported = offlineDirs().filter((dir) => !isAcknowledged(dir));
    if (unreported.length === 0) return;
    logger.error(
      "the controller was not told of failed log dirs within log.dir.failure.timeout.ms; " +
        "the broker shuts down",
      { dirs: unreported.join(","), timeoutMs },
    );
    this.options.onUnreported(unreported);
  }
}
