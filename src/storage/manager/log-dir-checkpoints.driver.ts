/**
 * The three offset checkpoints at the top of a log dir: recovery points (where each log's flushed
 * prefix ends), log start offsets, and high watermarks (replication-offset-checkpoint). Each
 * holds the partitions whose log lives in that dir, keyed by `<topic>-<partition>`. They are read
 * at start, leniently, and written from the logs the dir holds: recovery points of every log, log
 * start offsets where they differ from the first segment's base offset (what Kafka writes), and
 * the high watermarks of current logs the replication layer reported.
 */
import { offset, partitionIndex } from "../../common/index.js";
import type { Logger } from "../../ports/index.js";
import {
  LOG_START_OFFSET_CHECKPOINT_FILE,
  offsetCheckpointFile,
  RECOVERY_POINT_CHECKPOINT_FILE,
  REPLICATION_CHECKPOINT_FILE,
  type CheckpointFile,
} from "../checkpoint-file.driver.js";
import type { OffsetCheckpointEntry } from "../checkpoint-format.js";
import type { PartitionLog, TopicPartition } from "../log/index.js";
import { MalformedFileError } from "../malformed-file-error.js";
import type { FileSystem } from "../../ports/index.js";
import type { HeldLog } from "./log-registry.js";
import { guarded, type ManagerCore } from "./manager-core.js";
import { currentDirName } from "./partition-dir-name.js";

/** Offsets by partition key (`<topic>-<partition>`). */
export type OffsetsByPartition = ReadonlyMap<string, number>;

export interface PartitionOffset {
  readonly topicPartition: TopicPartition;
  readonly offset: number;
}

export class LogDirCheckpoints {
  readonly recoveryPoints: CheckpointFile<OffsetCheckpointEntry>;
  readonly logStartOffsets: CheckpointFile<OffsetCheckpointEntry>;
  readonly highWatermarks: CheckpointFile<OffsetCheckpointEntry>;

  constructor(fileSystem: FileSystem, logDir: string) {
    this.recoveryPoints = offsetCheckpointFile(fileSystem, logDir, RECOVERY_POINT_CHECKPOINT_FILE);
    this.logStartOffsets = offsetCheckpointFile(
      fileSystem,
      logDir,
      LOG_START_OFFSET_CHECKPOINT_FILE,
    );
    this.highWatermarks = offsetCheckpointFile(fileSystem, logDir, REPLICATION_CHECKPOINT_FILE);
  }
}

/**
 * The offsets of a checkpoint. As Kafka does at start, a malformed checkpoint is logged and read
 * as empty (recovery then starts from the beginning of each log); a failure of the disk is
 * thrown, and takes the dir offline.
 */
export async function readOffsetsLeniently(
  file: CheckpointFile<OffsetCheckpointEntry>,
  logger: Logger,
): Promise<Map<string, number>> {
  let entries: OffsetCheckpointEntry[];
  try {
    entries = await file.read();
  } catch (error) {
    if (!(error instanceof MalformedFileError)) throw error;
    logger.warn("ignoring a malformed checkpoint; its offsets start from zero", {
      path: file.path,
      reason: error.reason,
    });
    return new Map();
  }
  const offsets = new Map<string, number>();
  for (const entry of entries) {
    offsets.set(currentDirName({ topic: entry.topic, partition: entry.partition }), entry.offset);
  }
  return offsets;
}

/** Writes `offsets` to `file`, sorted by topic and partition so the file is deterministic. */
export async function writeOffsets(
  file: CheckpointFile<OffsetCheckpointEntry>,
  offsets: readonly PartitionOffset[],
): Promise<void> {
  const entries = offsets
    .map((entry) => ({
      topic: entry.topicPartition.topic,
      partition: partitionIndex(entry.topicPartition.partition),
      offset: offset(entry.offset),
    }))
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
  await file.write(entries);
}

export interface CheckpointSelection {
  readonly recoveryPoints: boolean;
  readonly logStartOffsets: boolean;
  readonly highWatermarks: boolean;
}

export const ALL_CHECKPOINTS: CheckpointSelection = {
  recoveryPoints: true,
  logStartOffsets: true,
  highWatermarks: true,
};

export function recoveryPointsOf(logs: readonly HeldLog<PartitionLog>[]): PartitionOffset[] {
  return logs.map((held) => ({
    topicPartition: held.topicPartition,
    offset: held.log.recoveryPoint,
  }));
}

/**
 * The log start offsets worth keeping: Kafka leaves out a log whose start is its first segment's
 * base offset, since loading finds that one again.
 */
export function logStartOffsetsOf(logs: readonly HeldLog<PartitionLog>[]): PartitionOffset[] {
  return logs
    .filter((held) => held.log.logStartOffset > (held.log.segments()[0]?.baseOffset ?? 0))
    .map((held) => ({ topicPartition: held.topicPartition, offset: held.log.logStartOffset }));
}

/** The known high watermarks of the current logs held. */
export function highWatermarksOf(
  logs: readonly HeldLog<PartitionLog>[],
  highWatermarks: ReadonlyMap<string, number>,
): PartitionOffset[] {
  const offsets: PartitionOffset[] = [];
  for (const held of logs) {
    const highWatermark = highWatermarks.get(currentDirName(held.topicPartition));
    if (held.isFuture || highWatermark === undefined) continue;
    offsets.push({ topicPartition: held.topicPartition, offset: highWatermark });
  }
  return offsets;
}

/**
 * Writes the selected checkpoints of `logDir` from the logs it holds now; false when the dir is
 * offline or failed while writing (then it is offline).
 */
export async function checkpointLogDir(
  core: ManagerCore,
  logDir: string,
  selection: CheckpointSelection,
): Promise<boolean> {
  if (!core.registry.isOnline(logDir)) return false;
  const logs = core.registry.logsIn(logDir);
  const files = core.checkpointsOf(logDir);
  const outcome = await guarded(core, logDir, async () => {
    if (selection.recoveryPoints) await writeOffsets(files.recoveryPoints, recoveryPointsOf(logs));
    if (selection.logStartOffsets) {
      await writeOffsets(files.logStartOffsets, logStartOffsetsOf(logs));
    }
    if (selection.highWatermarks) {
      const offsets = highWatermarksOf(logs, core.registry.highWatermarks);
      await writeOffsets(files.highWatermarks, offsets);
    }
  });
  return outcome.ok;
}

/** Writes the selected checkpoints of every online dir, dirs side by side. */
export async function checkpointAllLogDirs(
  core: ManagerCore,
  selection: CheckpointSelection,
): Promise<void> {
  await Promise.all(
    core.registry.liveLogDirs().map((logDir) => checkpointLogDir(core, logDir, selection)),
  );
}
