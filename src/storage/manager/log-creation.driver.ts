/**
 * Bringing partition logs into the manager: opening one (at start, on creation, for a replica
 * move) with the topic's config and a hook that reports its I/O errors, so that a failure in an
 * append or a read takes the dir offline; and creating a partition's log (Kafka's getOrCreateLog)
 * in the dir the caller names, or by Kafka's placement rule in the online dir holding the fewest
 * logs, several at once when a metadata change brings many. The folder is created durably
 * before the log opens in it, and partition.metadata records the topic id (KIP-516).
 */
import { assert, joinPath, type Uuid } from "../../common/index.js";
import { PartitionLog, type TopicPartition } from "../log/index.js";
import { mapWithConcurrency } from "./bounded-concurrency.driver.js";
import { closeQuietly } from "./log-deletion.driver.js";
import { guarded, type ManagerCore, type OpenLogRequest } from "./manager-core.js";
import { currentDirName } from "./partition-dir-name.js";
import { chooseLogDir } from "./placement.js";

/** The answer of `getOrCreateLog`. */
export type GetOrCreateLogResult =
  | {
      readonly kind: "log";
      readonly log: PartitionLog;
      readonly logDir: string;
      /** False when the log existed already. */
      readonly isNew: boolean;
    }
  /** The partition's log is in a dir that failed; a new one elsewhere would lose its data. */
  | { readonly kind: "offlineDir"; readonly logDir: string }
  /** Every log dir is offline, or the dir asked for is: KAFKA_STORAGE_ERROR. */
  | { readonly kind: "noOnlineDir" }
  /** A future log needs a current log to copy from, in another dir. */
  | { readonly kind: "noCurrentLog" };

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

/** One partition whose log `createLogs` returns, made when missing. */
export interface CreateLogRequest {
  readonly topicPartition: TopicPartition;
  readonly topicId?: Uuid;
  /** The dir to create it in; by default the placement rule's choice. */
  readonly logDir?: string;
}

/** How many new logs are made at once: their folders and files wait on the disk, not the CPU. */
const CREATION_CONCURRENCY = 8;

/**
 * The current log of each partition requested, in request order, created when there is none.
 * Dirs are chosen first, each choice counting the logs placed before it, so a batch spreads
 * over the dirs as one creation after another would; then up to CREATION_CONCURRENCY logs are
 * made at once.
 */
export async function createLogs(
  core: ManagerCore,
  requests: readonly CreateLogRequest[],
): Promise<GetOrCreateLogResult[]> {
  const { registry } = core;
  const candidates = registry.placementCandidates();
  const planned = new Map<string, { request: CreateLogRequest; logDir: string | undefined }>();
  const answers = new Map<string, GetOrCreateLogResult>();
  for (const request of requests) {
    const name = currentDirName(request.topicPartition);
    if (planned.has(name) || answers.has(name)) continue;
    const existing = registry.current(request.topicPartition);
    const offlineDir = registry.offlineDirOf(request.topicPartition);
    if (existing !== undefined) {
      answers.set(name, { kind: "log", log: existing.log, logDir: existing.logDir, isNew: false });
    } else if (offlineDir !== undefined) {
      answers.set(name, { kind: "offlineDir", logDir: offlineDir });
    } else {
      const logDir = request.logDir ?? chooseLogDir(candidates);
      const chosen = candidates.findIndex((candidate) => candidate.dir === logDir);
      const counted = candidates[chosen];
      if (counted !== undefined) {
        candidates[chosen] = { ...counted, logCount: counted.logCount + 1 };
      }
      planned.set(name, { request, logDir });
    }
  }
  await mapWithConcurrency([...planned], CREATION_CONCURRENCY, async ([name, plan]) => {
    answers.set(name, await createPlannedLog(core, plan.request, plan.logDir));
  });
  return requests.map(({ topicPartition }) => {
    const answer = answers.get(currentDirName(topicPartition));
    assert(answer !== undefined, "every request has its answer");
    return answer;
  });
}

async function createPlannedLog(
  core: ManagerCore,
  { topicPartition, topicId }: CreateLogRequest,
  logDir: string | undefined,
): Promise<GetOrCreateLogResult> {
  const { registry } = core;
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
      ...(topicId === undefined ? {} : { topicId }),
    });
  });
  if (!opened.ok || opened.value === undefined) return { kind: "noOnlineDir" };
  const log = opened.value;
  registry.add({ log, logDir, topicPartition, isFuture: false });
  // Internal topics (__consumer_offsets' fifty partitions) are chatter at info: debug.
  const level = topicPartition.topic.startsWith("__") ? "debug" : "info";
  core.logger[level]("created a log", {
    topic: topicPartition.topic,
    partition: topicPartition.partition,
    dir: log.dir,
  });
  return { kind: "log", log, logDir, isNew: true };
}
