/**
 * The log manager's periodic work, each task as Kafka's LogManager schedules it: flushing logs
 * past `flush.ms`, the three checkpoints, retention, the log cleaner, and removing folders whose
 * `file.delete.delay.ms` has passed. Every task touches one dir at a time through `guarded`, so
 * a failing dir goes offline and the others carry on.
 */
import { assertNever } from "../../common/index.js";
import { NEVER, type PartitionLog } from "../log/index.js";
import { checkpointAllLogDirs } from "./log-dir-checkpoints.driver.js";
import type { LogManagerConfig } from "./log-manager-config.js";
import type { HeldLog } from "./log-registry.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { currentDirName } from "./partition-dir-name.js";
import { PeriodicSchedule } from "./periodic-schedule.js";
import { catchUpFutureLog } from "./replica-move.driver.js";

/** What one call of `runPeriodicTasks` did. */
export interface PeriodicWork {
  /** The scheduled tasks that ran (by Kafka's task names without the "kafka-" prefix). */
  readonly tasks: readonly string[];
  readonly flushedLogs: number;
  readonly deletedSegments: number;
  /** Logs the cleaner compacted (at most one per online dir per pass). */
  readonly cleanedLogs: number;
  readonly deletedFolders: number;
  readonly copiedBytes: number;
}

/** Kafka's periodic tasks of the log manager (and the replica manager's checkpoint). */
export type PeriodicTaskName =
  | "log-flusher"
  | "recovery-point-checkpoint"
  | "log-start-offset-checkpoint"
  | "high-watermark-checkpoint"
  | "log-retention"
  | "log-cleaner"
  | "log-dir-full-probe";

/**
 * Flushes each log whose last flush is at least its `flush.ms` old (Kafka's flushDirtyLogs);
 * the number flushed.
 */
export async function flushDirtyLogs(core: ManagerCore, nowMs: number): Promise<number> {
  let flushed = 0;
  for (const held of heldLogs(core)) {
    if (!isStillHeld(core, held)) continue;
    const outcome = await guarded(core, held.logDir, () => held.log.maybeFlush(nowMs));
    if (!outcome.ok || !outcome.value) continue;
    flushed++;
  }
  return flushed;
}

/**
 * Removes the files of segments the logs deleted (renamed `.deleted`) once their
 * `file.delete.delay.ms` has passed; the number of files removed.
 */
export async function deleteExpiredSegmentFiles(core: ManagerCore, nowMs: number): Promise<number> {
  let removed = 0;
  for (const held of heldLogs(core)) {
    if (!isStillHeld(core, held)) continue;
    const outcome = await guarded(core, held.logDir, () => held.log.deleteExpiredFiles(nowMs));
    if (outcome.ok) removed += outcome.value;
  }
  return removed;
}

function heldLogs(core: ManagerCore): HeldLog<PartitionLog>[] {
  return [...core.registry.allCurrent(), ...core.registry.allFuture()];
}

/** True while `held` is the registry's log for its partition (not deleted, moved or failed). */
export function isStillHeld(core: ManagerCore, held: HeldLog<PartitionLog>): boolean {
  const { registry } = core;
  const now = held.isFuture
    ? registry.future(held.topicPartition)
    : registry.current(held.topicPartition);
  return now === held;
}

/**
 * Deletes the segments retention lets go in every current log, below the high watermark the
 * replication layer reported (or the log start offset when it reported none). The number of
 * segments deleted.
 */
export async function deleteOldSegments(core: ManagerCore, nowMs: number): Promise<number> {
  let deleted = 0;
  for (const held of core.registry.allCurrent()) {
    if (!isStillHeld(core, held)) continue;
    const key = currentDirName(held.topicPartition);
    const highWatermark = core.registry.highWatermarks.get(key) ?? held.log.logStartOffset;
    const outcome = await guarded(core, held.logDir, () =>
      held.log.deleteOldSegments(nowMs, highWatermark),
    );
    if (outcome.ok) deleted += outcome.value;
  }
  return deleted;
}

/** Removes the `-delete` folders whose delay has passed; the number removed. */
export async function deleteDueFolders(core: ManagerCore, nowMs: number): Promise<number> {
  let removed = 0;
  for (const deletion of core.registry.takeDueDeletions(nowMs)) {
    if (!core.registry.isOnline(deletion.logDir)) continue;
    const outcome = await guarded(core, deletion.logDir, async () => {
      await core.fileSystem.rmdir(deletion.path, { recursive: true });
      await core.fileSystem.syncDirectory(deletion.logDir);
    });
    if (!outcome.ok) continue;
    core.logger.info("deleted the folder of a deleted log", { path: deletion.path });
    removed++;
  }
  return removed;
}

/** Runs one scheduled task; the flushes or deleted segments it counted. */
export async function runPeriodicTask(
  core: ManagerCore,
  task: PeriodicTaskName,
  nowMs: number,
): Promise<{ flushedLogs: number; deletedSegments: number; cleanedLogs: number }> {
  const none = { flushedLogs: 0, deletedSegments: 0, cleanedLogs: 0 };
  switch (task) {
    case "log-flusher":
      return { ...none, flushedLogs: await flushDirtyLogs(core, nowMs) };
    case "recovery-point-checkpoint":
      await checkpointAllLogDirs(core, only("recoveryPoints"));
      return none;
    case "log-start-offset-checkpoint":
      await checkpointAllLogDirs(core, only("logStartOffsets"));
      return none;
    case "high-watermark-checkpoint":
      await checkpointAllLogDirs(core, only("highWatermarks"));
      return none;
    case "log-retention":
      return { ...none, deletedSegments: await deleteOldSegments(core, nowMs) };
    case "log-cleaner":
      return { ...none, cleanedLogs: (await core.cleanerTask?.run(nowMs)) ?? 0 };
    case "log-dir-full-probe":
      await core.fullDirRecovery?.run();
      return none;
    default:
      return assertNever(task, "periodic task");
  }
}

function only(name: "recoveryPoints" | "logStartOffsets" | "highWatermarks") {
  return {
    recoveryPoints: name === "recoveryPoints",
    logStartOffsets: name === "logStartOffsets",
    highWatermarks: name === "highWatermarks",
  };
}

/** The schedule of the periodic tasks under the broker's intervals, starting at `startMs`. */
export function periodicSchedule(
  config: LogManagerConfig,
  startMs: number,
): PeriodicSchedule<PeriodicTaskName> {
  return new PeriodicSchedule<PeriodicTaskName>(
    {
      "log-flusher": config.logFlushSchedulerIntervalMs,
      "recovery-point-checkpoint": config.logFlushOffsetCheckpointIntervalMs,
      "log-start-offset-checkpoint": config.logFlushStartOffsetCheckpointIntervalMs,
      "high-watermark-checkpoint": config.replicaHighWatermarkCheckpointIntervalMs,
      "log-retention": config.logRetentionCheckIntervalMs,
      // A backoff of 0 means "again at the next call"; a disabled cleaner never runs.
      "log-cleaner": config.logCleanerEnable ? Math.max(1, config.logCleanerBackoffMs) : NEVER,
      "log-dir-full-probe": config.logDirFullProbeIntervalMs,
    },
    startMs,
  );
}

/**
 * The work due at `nowMs`: the scheduled tasks, removal of `-delete` folders whose delay has
 * passed, and one bounded copy step of each replica move.
 */
export async function runDueWork(
  core: ManagerCore,
  schedule: PeriodicSchedule<PeriodicTaskName>,
  nowMs: number,
): Promise<PeriodicWork> {
  const tasks = schedule.takeDue(nowMs);
  let flushedLogs = 0;
  let deletedSegments = 0;
  let cleanedLogs = 0;
  for (const task of tasks) {
    const done = await runPeriodicTask(core, task, nowMs);
    flushedLogs += done.flushedLogs;
    deletedSegments += done.deletedSegments;
    cleanedLogs += done.cleanedLogs;
  }
  // Kafka's cleaner backs off only after a pass that found nothing to clean.
  if (cleanedLogs > 0) schedule.makeDue("log-cleaner", nowMs);
  const deletedFolders = await deleteDueFolders(core, nowMs);
  await deleteExpiredSegmentFiles(core, nowMs);
  let copiedBytes = 0;
  for (const future of core.registry.allFuture()) {
    const step = await catchUpFutureLog(core, future.topicPartition);
    if (step.kind === "copied") copiedBytes += step.bytes;
  }
  return { tasks, flushedLogs, deletedSegments, cleanedLogs, deletedFolders, copiedBytes };
}
