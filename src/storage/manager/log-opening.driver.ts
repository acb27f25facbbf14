/**
 * Opening one partition log for the manager: the log gets the topic's configs and a hook that
 * reports its I/O errors, so that a failure in an append or a read takes the dir offline.
 */
import { joinPath } from "../../common/index.js";
import { PartitionLog } from "../log/index.js";
import { closeQuietly } from "./log-deletion.driver.js";
import type { ManagerCore, OpenLogRequest } from "./manager-core.js";

/** Opens the log `request` names; undefined (and closed again) when its dir failed meanwhile. */
export async function openPartitionLog(
  core: ManagerCore,
  request: OpenLogRequest,
  onIoError: (error: unknown) => void,
): Promise<PartitionLog | undefined> {
  const { logDir, topicPartition } = request;
  // Every I/O error an operation of the log meets reaches `onIoError` before the operation
  // throws, so an append or a read that fails takes the dir offline at once.
  const log = await PartitionLog.open({
    fs: core.fileSystem,
    clock: core.clock,
    logger: core.logger.child({ partition: request.folderName }),
    dir: joinPath(logDir, request.folderName),
    topicPartition,
    config: core.logConfigOf(topicPartition.topic),
    recoveryPoint: request.recoveryPoint,
    logStartOffset: request.logStartOffset,
    hadCleanShutdown: request.hadCleanShutdown,
    ...(request.topicId === undefined ? {} : { topicId: request.topicId }),
    onIoError,
  });
  if (core.registry.isOnline(logDir)) return log;
  const held = { log, logDir, topicPartition, isFuture: false };
  await closeQuietly(core, [held]);
  return undefined;
}
