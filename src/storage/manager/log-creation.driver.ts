/**
 * Creating a partition's log (Kafka's getOrCreateLog): in the dir the caller names, or by Kafka's
 * placement rule in the online dir holding the fewest logs. The folder is created durably before
 * the log opens in it, and partition.metadata records the topic id (KIP-516).
 */
import { joinPath, type Uuid } from "../../common/index.js";
import type { TopicPartition } from "../log/index.js";
import type { GetOrCreateLogResult } from "./log-manager-types.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { currentDirName } from "./partition-dir-name.js";
import { chooseLogDir } from "./placement.js";

/** The partition's current log, created when there is none. */
export async function createLog(
  core: ManagerCore,
  topicPartition: TopicPartition,
  options: { topicId?: Uuid; logDir?: string },
): Promise<GetOrCreateLogResult> {
  const { registry } = core;
  const existing = registry.current(topicPartition);
  if (existing !== undefined) {
    return { kind: "log", log: existing.log, logDir: existing.logDir, isNew: false };
  }
  const offlineDir = registry.offlineDirOf(topicPartition);
  if (offlineDir !== undefined) return { kind: "offlineDir", logDir: offlineDir };
  const logDir = options.logDir ?? chooseLogDir(registry.placementCandidates());
  if (logDir === undefined || !registry.isOnline(logDir)) return { kind: "noOnlineDir" };
  const folderName = currentDirName(topicPartition);
  const opened = await guarded(core, logDir, async () => {
    await core.fileSystem.mkdir(joinPath(logDir, folderName), { recursive: true });
    await core.fileSystem.syncDirectory(logDir);
    return core.openLog({
      logDir,
      folderName,
      topicPartition,
      recoveryPoint: 0,
      logStartOffset: 0,
      hadCleanShutdown: true,
      ...(options.topicId === undefined ? {} : { topicId: options.topicId }),
    });
  });
  if (!opened.ok || opened.value === undefined) return { kind: "noOnlineDir" };
  const log = opened.value;
  registry.add({ log, logDir, topicPartition, isFuture: false });
  core.logger.info("created a log", { dir: log.dir, topicId: options.topicId });
  return { kind: "log", log, logDir, isNew: true };
}
