/**
 * The log cleaner as one of the log manager's periodic tasks (Kafka's CleanerThread, driven by
 * the caller's clock): each run gives the cleaner one pass per online dir over the dir's logs
 * with `cleanup.policy` compact, each bounded by the high watermark the replication layer
 * reported. After a pass that cleaned nothing the task waits `log.cleaner.backoff.ms`, as
 * Kafka's thread does; after one that cleaned a log it is due again at once. A dir whose disk
 * fails during its pass goes offline like any other; the cleaner's checkpoint of each dir is
 * its `cleaner-offset-checkpoint` file.
 */
import { LogCleaner, type CleanerLogEntry } from "../cleaner/index.js";
import type { Logger } from "../../ports/index.js";
import type { TopicPartition } from "../log/index.js";
import type { LogManagerConfig } from "./log-manager-config.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { currentDirName } from "./partition-dir-name.js";

/** The cleaner of a manager, pointed at one dir per pass. */
export class CleanerTask {
  readonly cleaner: LogCleaner;
  private dirOfPass: string | undefined;

  constructor(
    private readonly core: ManagerCore,
    options: { readonly config: LogManagerConfig; readonly logger: Logger },
  ) {
    this.cleaner = new LogCleaner({
      fileSystem: core.fileSystem,
      logger: options.logger.child({ component: "log-cleaner" }),
      config: options.config.cleaner,
      logs: () => (this.dirOfPass === undefined ? [] : compactedLogsIn(core, this.dirOfPass)),
    });
  }

  /** One pass over each online dir; resolves to the number of logs cleaned. */
  async run(nowMs: number): Promise<number> {
    let cleanedLogs = 0;
    for (const logDir of this.core.registry.liveLogDirs()) {
      this.dirOfPass = logDir;
      try {
        const outcome = await guarded(this.core, logDir, () => this.cleaner.cleanOnce(nowMs));
        if (outcome.ok && outcome.value.cleaned !== undefined) cleanedLogs++;
      } finally {
        this.dirOfPass = undefined;
      }
    }
    return cleanedLogs;
  }

  /** Forgets a deleted log: its entry leaves the `cleaner-offset-checkpoint` of `logDir`. */
  async removeLog(held: {
    readonly logDir: string;
    readonly topicPartition: TopicPartition;
  }): Promise<void> {
    if (!this.core.registry.isOnline(held.logDir)) return;
    const { logDir, topicPartition } = held;
    await guarded(this.core, logDir, () => this.cleaner.removeLog(logDir, topicPartition));
  }
}

/** The compacted current logs of `logDir` with the offsets the cleaner may not pass. */
function compactedLogsIn(core: Pick<ManagerCore, "registry">, logDir: string): CleanerLogEntry[] {
  const { registry } = core;
  return registry
    .logsIn(logDir)
    .filter((held) => !held.isFuture && held.log.config.cleanupPolicy.compact)
    .map((held) => ({
      log: held.log,
      logDir,
      config: held.log.config,
      // Without a reported high watermark nothing is known to be committed: nothing is cleaned.
      highWatermark:
        registry.highWatermarks.get(currentDirName(held.topicPartition)) ?? held.log.logStartOffset,
    }));
}
