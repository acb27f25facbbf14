/**
 * Loading the logs at start: the dirs are opened and scanned (log-dir-scan.driver.ts), the
 * listings become a plan (load-plan.ts), interrupted swaps are finished, `-delete` folders are
 * scheduled for removal, and the logs of each dir are opened `num.recovery.threads.per.data.dir`
 * at a time, all dirs side by side.
 */
import { joinPath, type Uuid } from "../../common/index.js";
import type { PartitionLog, TopicPartition } from "../log/index.js";
import type { ExpectedIdentity } from "../meta-properties.js";
import { mapWithConcurrency } from "./bounded-concurrency.driver.js";
import { startLogDirs, type DirScan } from "./log-dir-scan.driver.js";
import type { LogManagerOptions } from "./log-manager.driver.js";
import { planLoad, type PartitionFolder } from "./load-plan.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { currentDirName } from "./partition-dir-name.js";

/** Every log dir failed: the node cannot run (Kafka halts). */
export class NoOnlineLogDirError extends Error {
  override readonly name = "NoOnlineLogDirError";
  constructor(readonly logDirs: readonly string[]) {
    super(`no log dir is online among ${logDirs.join(", ")}`);
  }
}

/** The manager as loading needs it. */
export interface LoadingHost extends ManagerCore {
  recordRecovery(logDir: string, truncatedBytes: number): void;
}

/** What loading learnt besides the logs. */
export interface LoadedState {
  readonly directoryIds: ReadonlyMap<string, Uuid>;
  /** One per configured dir, in order: the clean-shutdown marker's epoch, if readable. */
  readonly brokerEpochs: readonly (number | undefined)[];
  readonly highWatermarks: ReadonlyMap<string, number>;
}

/** Starts the dirs, builds the manager with `create`, and loads the logs into it. */
export async function loadLogs(
  options: LogManagerOptions,
  create: (offlineDirs: readonly string[]) => LoadingHost,
): Promise<LoadedState> {
  const context = { ...options, logger: options.logger.child({ component: "log-manager" }) };
  const starts = await startLogDirs(context, {
    logDirs: options.config.logDirs,
    identity: options.identity,
    formatUnformatted: options.formatUnformatted,
  });
  const scans = starts.flatMap((start) => (start.kind === "online" ? [start.scan] : []));
  const offlineDirs = starts.flatMap((start) => (start.kind === "offline" ? [start.logDir] : []));
  const host = create(offlineDirs);
  const plan = planLoad(scans, offlineDirs.length === 0);
  for (const { logDir, name } of plan.ignored) {
    host.logger.warn("left a folder that is not a partition log alone", { logDir, name });
  }
  const nowMs = host.clock.nowMs();
  for (const folder of plan.deletedFolders) {
    const delayMs = host.logConfigOf(folder.topicPartition.topic).fileDeleteDelayMs;
    const path = joinPath(folder.logDir, folder.name);
    host.registry.addPendingDeletion({ logDir: folder.logDir, path, dueMs: nowMs + delayMs });
  }
  const promoted = await promoteFutureFolders(host, plan.promotions);
  await Promise.all(
    scans.map(async (scan) => {
      const inDir = (folders: readonly PartitionFolder[], isFuture: boolean) =>
        folders.filter((f) => f.logDir === scan.logDir).map((folder) => ({ folder, isFuture }));
      const work = [
        ...inDir([...plan.currentLogs, ...promoted], false),
        ...inDir(plan.futureLogs, true),
      ];
      await mapWithConcurrency(work, options.config.numRecoveryThreadsPerDataDir, (item) =>
        loadFolder(host, scan, item.folder, item.isFuture),
      );
    }),
  );
  return summarise(options.config.logDirs, scans);
}

function summarise(logDirs: readonly string[], scans: readonly DirScan[]): LoadedState {
  const byDir = new Map(scans.map((scan) => [scan.logDir, scan]));
  const highWatermarks = new Map<string, number>();
  for (const scan of scans)
    for (const [key, value] of scan.highWatermarks) highWatermarks.set(key, value);
  return {
    directoryIds: new Map(scans.map((scan) => [scan.logDir, scan.directoryId])),
    brokerEpochs: logDirs.map((logDir) => byDir.get(logDir)?.brokerEpoch),
    highWatermarks,
  };
}

/**
 * Finishes swaps a crash interrupted between their two renames (see replica-move.driver.ts):
 * the future folder takes the partition's own name. Resolves to the renamed folders.
 */
async function promoteFutureFolders(
  host: LoadingHost,
  promotions: readonly PartitionFolder[],
): Promise<PartitionFolder[]> {
  const promoted: PartitionFolder[] = [];
  for (const folder of promotions) {
    const name = currentDirName(folder.topicPartition);
    const outcome = await guarded(host, folder.logDir, async () => {
      await host.fileSystem.rename(
        joinPath(folder.logDir, folder.name),
        joinPath(folder.logDir, name),
      );
      await host.fileSystem.syncDirectory(folder.logDir);
    });
    if (!outcome.ok) continue;
    host.logger.warn("finished a replica move that a crash interrupted", {
      logDir: folder.logDir,
      partition: name,
    });
    promoted.push({ ...folder, name });
  }
  return promoted;
}

/**
 * Opens `logDir` again after it was offline, as at start: identity, checkpoints and listing, then
 * its logs with recovery (the dir's clean-shutdown marker went at start). Future logs of moves are
 * loaded, but none is promoted: the other dirs went on meanwhile. Resolves to the partitions of
 * the current logs loaded, or undefined when the dir failed again (and is offline).
 */
export async function reloadLogDir(
  host: LoadingHost,
  options: { readonly logDir: string; readonly identity: ExpectedIdentity },
): Promise<TopicPartition[] | undefined> {
  const { logDir } = options;
  const [start] = await startLogDirs(host, {
    logDirs: [logDir],
    identity: options.identity,
    formatUnformatted: false,
  });
  if (start?.kind !== "online") return undefined;
  const { scan } = start;
  host.registry.markOnline(logDir);
  for (const [key, value] of scan.highWatermarks) {
    if (!host.registry.highWatermarks.has(key)) host.registry.highWatermarks.set(key, value);
  }
  const plan = planLoad([scan], false);
  const work = [
    ...plan.currentLogs.map((folder) => ({ folder, isFuture: false })),
    ...plan.futureLogs.map((folder) => ({ folder, isFuture: true })),
  ];
  await mapWithConcurrency(work, host.config.numRecoveryThreadsPerDataDir, (item) =>
    loadFolder(host, scan, item.folder, item.isFuture),
  );
  if (!host.registry.isOnline(logDir)) return undefined;
  return plan.currentLogs.map((folder) => folder.topicPartition);
}

/** Opens one log of a scanned dir and adds it to the registry; a failure fails the dir. */
async function loadFolder(
  host: LoadingHost,
  scan: DirScan,
  folder: PartitionFolder,
  isFuture: boolean,
): Promise<void> {
  const { logDir } = scan;
  if (!host.registry.isOnline(logDir)) return;
  const key = currentDirName(folder.topicPartition);
  await guarded(host, logDir, async () => {
    const log = await host.openLog({
      logDir,
      folderName: folder.name,
      topicPartition: folder.topicPartition,
      recoveryPoint: scan.recoveryPoints.get(key) ?? 0,
      logStartOffset: scan.logStartOffsets.get(key) ?? 0,
      hadCleanShutdown: scan.hadCleanShutdown,
    });
    if (log === undefined) return;
    host.registry.add({
      log,
      logDir,
      topicPartition: folder.topicPartition,
      isFuture,
    });
    const truncatedBytes = log.recoveryReport.truncatedBytes;
    host.recordRecovery(logDir, truncatedBytes);
    logLoaded(host, log, { isFuture, truncatedBytes, hadCleanShutdown: scan.hadCleanShutdown });
  });
}

function logLoaded(
  host: LoadingHost,
  log: PartitionLog,
  facts: { isFuture: boolean; truncatedBytes: number; hadCleanShutdown: boolean },
): void {
  const fields = {
    dir: log.dir,
    ...facts,
    segments: log.segmentCount,
    logStartOffset: log.logStartOffset,
    logEndOffset: log.logEndOffset,
  };
  if (facts.truncatedBytes > 0) host.logger.warn("recovery truncated a log", fields);
  else host.logger.info("loaded a log", fields);
}
