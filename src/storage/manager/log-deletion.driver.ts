/**
 * Deleting a log as Kafka does it: the log leaves the registry, is closed, and its folder is
 * renamed `<topic>-<partition>.<id>-delete` at once (so that a restart does not load it again);
 * the folder itself is removed after `file.delete.delay.ms` by the periodic work.
 */
import { AssertionError, joinPath } from "../../common/index.js";
import type { PartitionLog, TopicPartition } from "../log/index.js";
import { ALL_CHECKPOINTS, checkpointLogDir } from "./log-dir-checkpoints.driver.js";
import { randomUuid } from "./log-dir-scan.driver.js";
import type { HeldLog } from "./log-registry.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { currentDirName, deleteDirName } from "./partition-dir-name.js";

/**
 * Deletes `held`, which the registry holds; false when its dir failed meanwhile (the dir is
 * offline then, and the log with it).
 */
export async function deleteHeldLog(
  core: ManagerCore,
  held: HeldLog<PartitionLog>,
): Promise<boolean> {
  const { registry } = core;
  const removed = registry.remove(held.topicPartition, held.isFuture);
  if (removed !== held) throw new AssertionError("a deleted log is the one the registry holds");
  const renamedPath = joinPath(
    held.logDir,
    deleteDirName(held.topicPartition, randomUuid(core.random)),
  );
  const outcome = await guarded(core, held.logDir, async () => {
    await held.log.close();
    await core.fileSystem.rename(held.log.dir, renamedPath);
    await core.fileSystem.syncDirectory(held.logDir);
  });
  if (!outcome.ok) return false;
  const delayMs = core.logConfigOf(held.topicPartition.topic).fileDeleteDelayMs;
  registry.addPendingDeletion({
    logDir: held.logDir,
    path: renamedPath,
    dueMs: core.clock.nowMs() + delayMs,
  });
  core.logger.info("log deleted; its folder goes after file.delete.delay.ms", {
    path: renamedPath,
    delayMs,
  });
  // The dir's checkpoints must stop naming the partition before a new log of it may appear.
  return checkpointLogDir(core, held.logDir, ALL_CHECKPOINTS);
}

/**
 * Deletes the current and future logs of a partition (LogManager.deleteLog); false when there
 * was none. The cleaner forgets the partition too.
 */
export async function deletePartitionLogs(
  core: ManagerCore,
  topicPartition: TopicPartition,
): Promise<boolean> {
  const future = core.registry.future(topicPartition);
  const current = core.registry.current(topicPartition);
  // The future log goes first, so that a crash in between never leaves a future log without a
  // current one, which start-up would take for an interrupted swap.
  if (future !== undefined) await deleteHeldLog(core, future);
  if (current !== undefined && (await deleteHeldLog(core, current)))
    await core.cleanerTask?.removeLog(current);
  core.registry.highWatermarks.delete(currentDirName(topicPartition));
  return future !== undefined || current !== undefined;
}

/** Closes logs of a failed dir, best effort: their disk failed, so close errors are expected. */
export async function closeQuietly(
  core: ManagerCore,
  logs: readonly HeldLog<PartitionLog>[],
): Promise<void> {
  for (const held of logs) {
    try {
      await held.log.close();
    } catch (error) {
      if (error instanceof AssertionError) throw error;
      core.logger.warn("closing a log of a failed dir failed", {
        dir: held.log.dir,
        error: String(error),
      });
    }
  }
}
