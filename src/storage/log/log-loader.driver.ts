/**
 * Opening a partition log, as Kafka's LogLoader: handle leftover files, open every segment,
 * rebuild indexes that fail their sanity check, and after an unclean shutdown scan every segment
 * from the one holding the recovery point; the first bad batch ends the log there. The
 * leader-epoch cache is then cut to the recovered log, and partition.metadata written when
 * missing.
 */
import { basename, dirname, type Uuid } from "../../common/index.js";
import type { Clock, FileSystem, Logger } from "../../ports/index.js";
import { parseSegmentFileName } from "../file-names.js";
import { LeaderEpochFileCache } from "../leader-epoch-cache.driver.js";
import { readPartitionMetadata, writePartitionMetadata } from "../partition-metadata.driver.js";
import { handleLeftoverFiles } from "./leftover-files.driver.js";
import { LogSegment, type SegmentOptions } from "./log-segment.driver.js";
import type { LogConfig, TopicPartition } from "./log-config.js";
import {
  recoverSegment,
  type EpochStart,
  type SegmentRecovery,
} from "./segment-recovery.driver.js";
import { segmentOptionsFor } from "./segment-roll.js";

/** What opening a log did to it; the log manager turns it into metrics. */
export interface RecoveryReport {
  /** Segments whose batches were scanned and whose indexes were rebuilt. */
  readonly recoveredSegments: readonly SegmentRecovery[];
  /** Bytes cut off the log: torn tails plus whole segments after a bad batch. */
  readonly truncatedBytes: number;
  /** Segments deleted because they followed a bad batch. */
  readonly deletedSegmentCount: number;
  readonly logEndOffset: number;
  /** Segments whose indexes failed their sanity check and were rebuilt. */
  readonly rebuiltIndexCount: number;
  /** Leftover .cleaned, .swap, .deleted and orphan files handled. */
  readonly leftoverFileCount: number;
}

/** What `PartitionLog.open` needs. */
export interface OpenLogOptions {
  readonly fs: FileSystem;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The partition folder, `<log dir>/<topic>-<partition>`; created when missing. */
  readonly dir: string;
  readonly topicPartition: TopicPartition;
  /** The topic config the log opens with; `updateConfig` replaces it later. */
  readonly config: LogConfig;
  /** From recovery-point-offset-checkpoint: below it everything was flushed. */
  readonly recoveryPoint: number;
  /** From log-start-offset-checkpoint. */
  readonly logStartOffset: number;
  /** Whether the log manager found its clean-shutdown marker. */
  readonly hadCleanShutdown: boolean;
  /** Written to partition.metadata when the folder has none. */
  readonly topicId?: Uuid;
  /**
   * Told of every FileSystemError or MalformedFileError an operation meets (append, read,
   * flush, roll, truncation, retention, the cleaner's swap, deletion of `.deleted` files, close,
   * and background flushes), before the operation throws; never of a refused input or a broken
   * invariant. The log manager takes the log's dir offline on it.
   */
  readonly onIoError?: (error: unknown) => void;
}

/** What loading reads of the options, with each segment's options. */
interface LoadContext {
  readonly fileSystem: FileSystem;
  readonly logger: Logger;
  readonly dir: string;
  readonly segmentOptions: (baseOffset: number) => SegmentOptions;
  readonly indexIntervalBytes: number;
  readonly segmentIndexBytes: number;
  readonly recoveryPoint: number;
  readonly hadCleanShutdown: boolean;
}

export interface LoadedLog {
  readonly segments: LogSegment[];
  readonly epochCache: LeaderEpochFileCache;
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly recoveryPoint: number;
  readonly report: RecoveryReport;
}

/** Counters gathered while loading. */
interface LoadTally {
  recovered: SegmentRecovery[];
  epochStarts: EpochStart[];
  truncatedBytes: number;
  deletedSegmentCount: number;
  rebuiltIndexCount: number;
}

/** Creates the partition folder (and missing parents) when missing, durably. */
async function ensureFolder(fileSystem: FileSystem, dir: string): Promise<void> {
  const missing: string[] = [];
  for (let path = dir; (await fileSystem.stat(path)) === undefined; path = dirname(path)) {
    missing.push(path);
    if (dirname(path) === path) break;
  }
  if (missing.length === 0) return;
  await fileSystem.mkdir(dir, { recursive: true });
  // Each new folder's entry lives in its parent, which must be synced to keep it.
  for (const path of missing.reverse()) await fileSystem.syncDirectory(dirname(path));
}

/** Opens the live segments, rebuilding the indexes of those that fail their checks. */
async function openSegments(context: LoadContext, tally: LoadTally): Promise<LogSegment[]> {
  const { fileSystem, dir } = context;
  const names = await fileSystem.readdir(dir);
  const present = new Set(names);
  const segments: LogSegment[] = [];
  for (const name of names) {
    const parsed = parseSegmentFileName(name);
    if (parsed === undefined || parsed.kind !== "log" || parsed.stage !== "live") continue;
    const stem = name.slice(0, -".log".length);
    const hasIndexes = present.has(`${stem}.index`) && present.has(`${stem}.timeindex`);
    const options = context.segmentOptions(parsed.baseOffset);
    const { segment, indexSanity } = await LogSegment.open(options);
    const stat = await fileSystem.stat(segment.path);
    let isTrusted = hasIndexes && indexSanity.kind === "sane";
    if (isTrusted)
      isTrusted =
        (await segment.loadState(stat?.modifiedMs ?? options.nowMs)) &&
        (await indexesAgree(segment));
    if (!isTrusted) {
      context.logger.warn("rebuilding the indexes of a segment", {
        dir,
        baseOffset: segment.baseOffset,
        sanity: indexSanity,
      });
      tally.rebuiltIndexCount++;
      await recoverInto(segment, context, tally);
    }
    segments.push(segment);
  }
  return segments.sort((a, b) => a.baseOffset - b.baseOffset);
}

/**
 * Whether the last offset index entry points at the batch it names and both indexes stay below
 * the segment's next offset: an index written ahead of a log file that lost its tail disagrees.
 */
async function indexesAgree(segment: LogSegment): Promise<boolean> {
  const offsetIndex = segment.offsetIndex;
  const timeEntry = segment.timeIndex.lastEntry();
  if (segment.timeIndex.entryCount > 0 && timeEntry.offset >= segment.nextOffset) return false;
  if (offsetIndex.entryCount === 0) return true;
  const last = offsetIndex.entry(offsetIndex.entryCount - 1);
  if (last.offset >= segment.nextOffset || last.position >= segment.sizeInBytes) return false;
  const batch = await segment.translateOffset(last.offset, last.position);
  return (
    batch !== undefined && batch.position === last.position && batch.lastOffset === last.offset
  );
}

async function recoverInto(
  segment: LogSegment,
  context: LoadContext,
  tally: LoadTally,
): Promise<SegmentRecovery> {
  const outcome = await recoverSegment(segment, context);
  tally.recovered.push(outcome);
  tally.epochStarts.push(...outcome.epochStarts);
  tally.truncatedBytes += outcome.truncatedBytes;
  if (outcome.truncatedBytes > 0) {
    context.logger.warn("truncated a segment at its first invalid batch", {
      dir: context.dir,
      partition: basename(context.dir),
      baseOffset: outcome.baseOffset,
      nextOffset: outcome.nextOffset,
      truncatedBytes: outcome.truncatedBytes,
      reason: outcome.reason,
    });
  }
  return outcome;
}

/**
 * After an unclean shutdown: scans the segments from the one holding the recovery point; the
 * first that had to be cut ends the log, and the segments after it are deleted.
 */
async function recoverUnflushed(
  segments: LogSegment[],
  context: LoadContext,
  tally: LoadTally,
): Promise<LogSegment[]> {
  const recoveredAlready = new Set(tally.recovered.map((outcome) => outcome.baseOffset));
  let start = 0;
  for (let index = 0; index < segments.length; index++) {
    if ((segments[index] as LogSegment).baseOffset <= context.recoveryPoint) start = index;
  }
  for (let index = start; index < segments.length; index++) {
    const segment = segments[index] as LogSegment;
    const isRecovered = recoveredAlready.has(segment.baseOffset);
    const outcome = isRecovered
      ? tally.recovered.find((each) => each.baseOffset === segment.baseOffset)
      : await recoverInto(segment, context, tally);
    if (outcome === undefined || outcome.truncatedBytes === 0) continue;
    const dropped = segments.splice(index + 1);
    if (dropped.length > 0) {
      const droppedBytes = dropped.reduce((sum, later) => sum + later.sizeInBytes, 0);
      const fields = { dir: context.dir, fromOffset: outcome.nextOffset, droppedBytes };
      context.logger.warn("deleting the segments after an invalid batch", fields);
    }
    for (const later of dropped) {
      tally.truncatedBytes += later.sizeInBytes;
      tally.deletedSegmentCount++;
      await later.deleteFiles();
    }
    break;
  }
  return segments;
}

/** Loads the log in `options.dir` (creating the folder when missing). */
export async function loadLog(options: OpenLogOptions): Promise<LoadedLog> {
  const { fs: fileSystem, dir, config } = options;
  const context: LoadContext = {
    fileSystem,
    logger: options.logger,
    dir,
    segmentOptions: (baseOffset) => {
      const log = { fileSystem, dir, topicPartition: options.topicPartition };
      return segmentOptionsFor({ ...log, nowMs: options.clock.nowMs() }, config, baseOffset);
    },
    indexIntervalBytes: config.indexIntervalBytes,
    segmentIndexBytes: config.segmentIndexBytes,
    recoveryPoint: options.recoveryPoint,
    hadCleanShutdown: options.hadCleanShutdown,
  };
  await ensureFolder(fileSystem, dir);
  const leftoverFileCount = await handleLeftoverFiles(context);
  const tally: LoadTally = {
    recovered: [],
    epochStarts: [],
    truncatedBytes: 0,
    deletedSegmentCount: 0,
    rebuiltIndexCount: 0,
  };
  let segments = await openSegments(context, tally);
  if (!context.hadCleanShutdown) segments = await recoverUnflushed(segments, context, tally);
  const epochCache = await LeaderEpochFileCache.load(fileSystem, dir);
  let logEndOffset = segments[segments.length - 1]?.nextOffset ?? options.logStartOffset;
  if (segments.length > 0 && logEndOffset < options.logStartOffset) {
    // The log start moved past everything on disk (DeleteRecords, then a crash): start empty there.
    context.logger.warn("the log ends before its start offset; starting it empty", {
      dir,
      logEndOffset,
    });
    for (const segment of segments) await segment.deleteFiles();
    tally.deletedSegmentCount += segments.length;
    segments = [];
    await epochCache.clearAndFlush();
  }
  if (segments.length === 0) {
    segments.push(await LogSegment.create(context.segmentOptions(options.logStartOffset)));
    logEndOffset = options.logStartOffset;
    await fileSystem.syncDirectory(dir);
  }
  const logStartOffset = Math.max(options.logStartOffset, (segments[0] as LogSegment).baseOffset);
  await repairEpochCache(epochCache, tally.epochStarts, { logStartOffset, logEndOffset });
  const recoveryPoint = context.hadCleanShutdown
    ? logEndOffset
    : Math.min(context.recoveryPoint, logEndOffset);
  const report: RecoveryReport = {
    recoveredSegments: tally.recovered,
    truncatedBytes: tally.truncatedBytes,
    deletedSegmentCount: tally.deletedSegmentCount,
    logEndOffset,
    rebuiltIndexCount: tally.rebuiltIndexCount,
    leftoverFileCount,
  };
  const { topicId } = options;
  if (topicId !== undefined && (await readPartitionMetadata(fileSystem, dir)) === undefined) {
    await writePartitionMetadata(fileSystem, dir, topicId);
  }
  return { segments, epochCache, logStartOffset, logEndOffset, recoveryPoint, report };
}

/** Adds the epochs the recovery met, then cuts the cache to the log's offsets. */
async function repairEpochCache(
  epochCache: LeaderEpochFileCache,
  epochStarts: readonly EpochStart[],
  bounds: { readonly logStartOffset: number; readonly logEndOffset: number },
): Promise<void> {
  for (const start of epochStarts) {
    if (start.startOffset >= bounds.logEndOffset) continue;
    const latest = epochCache.latestEpoch();
    if (latest === undefined || start.epoch > latest)
      await epochCache.assign(start.epoch, start.startOffset);
  }
  epochCache.truncateFromEnd(bounds.logEndOffset);
  epochCache.truncateFromStart(bounds.logStartOffset);
  await epochCache.flush();
}
