/**
 * The last step of a replica move: the future log takes the current log's place. The steps and
 * what a crash between them leaves are described in replica-move.driver.ts. The caller has
 * stopped appends to the current log for the duration, as Kafka's Partition holds its write lock
 * around the swap.
 */
import { basename, joinPath } from "../../common/index.js";
import type { PartitionLog, TopicPartition } from "../log/index.js";
import { ALL_CHECKPOINTS, checkpointLogDir } from "./log-dir-checkpoints.driver.js";
import { randomUuid } from "./log-dir-scan.driver.js";
import type { HeldLog } from "./log-registry.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { currentDirName, deleteDirName } from "./partition-dir-name.js";
import { checkpointBoth, finishCatchUp } from "./replica-move.driver.js";

/** The answer of `replaceCurrentWithFutureLog`, the last step of a replica move. */
export type ReplaceLogResult =
  | { readonly kind: "replaced"; readonly log: PartitionLog; readonly logDir: string }
  /** There is no move of the partition under way. */
  | { readonly kind: "noFutureLog" }
  /** A dir failed during the swap; it is offline now and the failure event has fired. */
  | { readonly kind: "dirFailed"; readonly logDir: string };

/** Replaces the current log of `topicPartition` with its caught-up future log. */
export async function replaceCurrentWithFutureLog(
  core: ManagerCore,
  topicPartition: TopicPartition,
): Promise<ReplaceLogResult> {
  const caughtUp = await finishCatchUp(core, topicPartition);
  if (caughtUp.kind !== "copied") return caughtUp;
  const current = core.registry.current(topicPartition);
  const future = core.registry.future(topicPartition);
  if (current === undefined || future === undefined) return { kind: "noFutureLog" };
  const closed = await flushAndClose(core, current, future);
  if (closed !== undefined) return { kind: "dirFailed", logDir: closed };
  const sourceDir = current.logDir;
  const deletedPath = joinPath(sourceDir, deleteDirName(topicPartition, randomUuid(core.random)));
  const retired = await guarded(core, sourceDir, async () => {
    await core.fileSystem.rename(current.log.dir, deletedPath);
    await core.fileSystem.syncDirectory(sourceDir);
  });
  if (!retired.ok) {
    // The dir failure took the current log; the future folder stays for a restart to resume.
    core.registry.remove(topicPartition, true);
    return { kind: "dirFailed", logDir: sourceDir };
  }
  // From here the partition's data is the future log's: if its dir fails, the partition is
  // offline there, so the registry holds the (closed) future log as the current one.
  core.registry.remove(topicPartition, false);
  core.registry.remove(topicPartition, true);
  core.registry.add({ ...future, isFuture: false });
  core.registry.addPendingDeletion({
    logDir: sourceDir,
    path: deletedPath,
    dueMs: core.clock.nowMs() + core.logConfigOf(topicPartition.topic).fileDeleteDelayMs,
  });
  const reopened = await promoteFutureFolder(core, future, current.log.logStartOffset);
  await checkpointBoth(core, [sourceDir, future.logDir]);
  if (reopened === undefined) return { kind: "dirFailed", logDir: future.logDir };
  return { kind: "replaced", log: reopened, logDir: future.logDir };
}

/**
 * Makes both logs durable and closes them, the future log first: should its dir fail, the
 * current log is still open and serving. Resolves to the dir that failed, if one did.
 */
async function flushAndClose(
  core: ManagerCore,
  current: HeldLog<PartitionLog>,
  future: HeldLog<PartitionLog>,
): Promise<string | undefined> {
  const targetDir = future.logDir;
  const logStartOffset = current.log.logStartOffset;
  const futureReady = await guarded(core, targetDir, async () => {
    if (future.log.logStartOffset < logStartOffset) {
      await future.log.maybeIncrementLogStartOffset(logStartOffset);
    }
    await future.log.flush();
  });
  if (!futureReady.ok) return targetDir;
  const currentFlushed = await guarded(core, current.logDir, () => current.log.flush());
  if (!currentFlushed.ok) return current.logDir;
  // The target dir's checkpoints now hold the future log's recovery point and start offset,
  // which is what a restart reads if it must promote the future folder.
  if (!(await checkpointLogDir(core, targetDir, ALL_CHECKPOINTS))) return targetDir;
  const futureClosed = await guarded(core, targetDir, () => future.log.close());
  if (!futureClosed.ok) return targetDir;
  const currentClosed = await guarded(core, current.logDir, () => current.log.close());
  if (currentClosed.ok) return undefined;
  core.registry.remove(current.topicPartition, true);
  return current.logDir;
}

/** Renames the future folder to the partition's own name and opens the log there. */
async function promoteFutureFolder(
  core: ManagerCore,
  future: HeldLog<PartitionLog>,
  logStartOffset: number,
): Promise<PartitionLog | undefined> {
  const folderName = currentDirName(future.topicPartition);
  const recoveryPoint = future.log.logEndOffset;
  const opened = await guarded(core, future.logDir, async () => {
    await core.fileSystem.rename(future.log.dir, joinPath(future.logDir, folderName));
    await core.fileSystem.syncDirectory(future.logDir);
    return core.openLog({
      logDir: future.logDir,
      folderName,
      topicPartition: future.topicPartition,
      recoveryPoint,
      logStartOffset,
      hadCleanShutdown: true,
    });
  });
  if (!opened.ok || opened.value === undefined) return undefined;
  core.registry.remove(future.topicPartition, false);
  core.registry.add({ ...future, log: opened.value, isFuture: false });
  core.logger.info("replica moved between log dirs", {
    partition: folderName,
    dir: future.logDir,
    from: basename(future.log.dir),
  });
  return opened.value;
}
