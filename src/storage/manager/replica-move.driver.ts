/**
 * Moving a replica between log dirs (AlterReplicaLogDirs, KIP-113). A future log is created in
 * the target dir as `<topic>-<partition>.<id>-future` and fed from the current log with
 * `appendAsFollower`, batch bytes unchanged, until it reaches the current log end; then the two
 * swap. The swap is crash-safe at every step:
 *
 * 1. both logs are flushed, the target dir's checkpoints are written, both logs are closed;
 * 2. the current folder is renamed `-delete` (and the rename made durable);
 * 3. the future folder is renamed to `<topic>-<partition>` and the log reopened there.
 *
 * A crash before 2 leaves the old layout and a future log to resume; between 2 and 3 a future
 * log without a current one, complete and flushed, which start-up promotes (load-plan.ts);
 * after 3 the new layout and a `-delete` folder.
 */
import { assert, assertNever, ErrorCode, joinPath } from "../../common/index.js";
import type { PartitionLog, TopicPartition } from "../log/index.js";
import { readPartitionMetadata } from "../partition-metadata.driver.js";
import { ALL_CHECKPOINTS, checkpointLogDir } from "./log-dir-checkpoints.driver.js";
import { deleteHeldLog } from "./log-deletion.driver.js";
import { randomUuid } from "./log-dir-scan.driver.js";
import type { HeldLog } from "./log-registry.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { futureDirName } from "./partition-dir-name.js";
import { copyBatches, reconcileFutureLog } from "./future-log-copy.driver.js";

/** The answer of `alterReplicaLogDir` (AlterReplicaLogDirs). */
export type AlterReplicaLogDirResult =
  /** The future log exists in the target dir and catches up in the periodic work. */
  | { readonly kind: "moving"; readonly futureDir: string }
  /** The current log already lives in the target dir; a move elsewhere, if any, was cancelled. */
  | { readonly kind: "alreadyInDir" }
  /** The target is not one of `log.dirs`: LOG_DIR_NOT_FOUND. */
  | { readonly kind: "unknownLogDir" }
  /** The target dir is offline: KAFKA_STORAGE_ERROR. */
  | { readonly kind: "targetDirOffline" }
  /** The partition's current log is in an offline dir: KAFKA_STORAGE_ERROR. */
  | { readonly kind: "currentDirOffline" }
  /** This broker has no log of the partition: REPLICA_NOT_AVAILABLE. */
  | { readonly kind: "unknownPartition" };

/** The Kafka error code an AlterReplicaLogDirs result answers with. */
export function errorCodeOfAlterReplicaLogDir(result: AlterReplicaLogDirResult): number {
  switch (result.kind) {
    case "moving":
    case "alreadyInDir":
      return ErrorCode.NONE;
    case "unknownLogDir":
      return ErrorCode.LOG_DIR_NOT_FOUND;
    case "targetDirOffline":
    case "currentDirOffline":
      return ErrorCode.KAFKA_STORAGE_ERROR;
    case "unknownPartition":
      return ErrorCode.REPLICA_NOT_AVAILABLE;
    default:
      return assertNever(result, "alter replica log dir result");
  }
}

/** One step of copying a current log into its future log. */
export type CatchUpResult =
  | { readonly kind: "copied"; readonly bytes: number; readonly isCaughtUp: boolean }
  | { readonly kind: "noFutureLog" }
  | { readonly kind: "dirFailed"; readonly logDir: string };

/** Starts (or confirms, or cancels) the move of a partition's replica to `targetDir`. */
export async function alterReplicaLogDir(
  core: ManagerCore,
  topicPartition: TopicPartition,
  targetDir: string,
): Promise<AlterReplicaLogDirResult> {
  const { registry } = core;
  if (!registry.logDirs.includes(targetDir)) return { kind: "unknownLogDir" };
  if (!registry.isOnline(targetDir)) return { kind: "targetDirOffline" };
  const current = registry.current(topicPartition);
  if (current === undefined) {
    const isOffline = registry.offlineDirOf(topicPartition) !== undefined;
    return { kind: isOffline ? "currentDirOffline" : "unknownPartition" };
  }
  const existing = registry.future(topicPartition);
  if (existing?.logDir === targetDir) return { kind: "moving", futureDir: targetDir };
  // Kafka drops a move under way when the replica is sent elsewhere, or back home.
  if (existing !== undefined) await deleteHeldLog(core, existing);
  if (current.logDir === targetDir) return { kind: "alreadyInDir" };
  const created = await createFutureLog(core, current, targetDir);
  return created ? { kind: "moving", futureDir: targetDir } : { kind: "targetDirOffline" };
}

/** Creates the empty future log in `targetDir`, starting where the current log starts. */
async function createFutureLog(
  core: ManagerCore,
  current: HeldLog<PartitionLog>,
  targetDir: string,
): Promise<boolean> {
  const topicId = await guarded(core, current.logDir, () =>
    readPartitionMetadata(core.fileSystem, current.log.dir),
  );
  if (!topicId.ok) return false;
  const folderName = futureDirName(current.topicPartition, randomUuid(core.random));
  const logStartOffset = current.log.logStartOffset;
  const opened = await guarded(core, targetDir, async () => {
    await core.fileSystem.mkdir(joinPath(targetDir, folderName));
    await core.fileSystem.syncDirectory(targetDir);
    const log = await core.openLog({
      logDir: targetDir,
      folderName,
      topicPartition: current.topicPartition,
      recoveryPoint: 0,
      logStartOffset,
      hadCleanShutdown: true,
      ...(topicId.value === undefined ? {} : { topicId: topicId.value }),
    });
    if (log !== undefined && log.logEndOffset < logStartOffset) {
      await log.truncateFullyAndStartAt(logStartOffset);
    }
    return log;
  });
  if (!opened.ok || opened.value === undefined) return false;
  const held = { log: opened.value, logDir: targetDir, isFuture: true };
  core.registry.add({ ...held, topicPartition: current.topicPartition });
  core.logger.info("moving a replica between log dirs", {
    partition: folderName,
    from: current.logDir,
    to: targetDir,
  });
  return true;
}

/** One bounded step of copying the current log into the future log. */
export async function catchUpFutureLog(
  core: ManagerCore,
  topicPartition: TopicPartition,
): Promise<CatchUpResult> {
  const current = core.registry.current(topicPartition);
  const future = core.registry.future(topicPartition);
  if (current === undefined || future === undefined) return { kind: "noFutureLog" };
  const reconciled = await reconcileFutureLog(core, current, future);
  if (reconciled !== undefined) return { kind: "dirFailed", logDir: reconciled };
  const copied = await copyBatches(core, current, future);
  if (copied.kind === "dirFailed") return copied;
  const isCaughtUp = future.log.logEndOffset === current.log.logEndOffset;
  return { kind: "copied", bytes: copied.bytes, isCaughtUp };
}

/**
 * Copies until the future log is at the current log end. The caller has stopped appends to the
 * current log, so each step copies or truncates something and the loop ends.
 */
export async function finishCatchUp(
  core: ManagerCore,
  topicPartition: TopicPartition,
): Promise<CatchUpResult> {
  let stalledSteps = 0;
  for (;;) {
    const step = await catchUpFutureLog(core, topicPartition);
    if (step.kind !== "copied" || step.isCaughtUp) return step;
    stalledSteps = step.bytes === 0 ? stalledSteps + 1 : 0;
    // A step without bytes only truncates the future log; two in a row cannot happen.
    assert(stalledSteps < 3, "catching up a future log makes progress");
  }
}

/** Writes both dirs' checkpoints after a swap or a failed one. */
export async function checkpointBoth(core: ManagerCore, dirs: readonly string[]): Promise<void> {
  for (const logDir of new Set(dirs)) await checkpointLogDir(core, logDir, ALL_CHECKPOINTS);
}
