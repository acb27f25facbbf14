/**
 * The three offset checkpoints at the top of a log dir: recovery points (where each log's flushed
 * prefix ends), log start offsets, and high watermarks (replication-offset-checkpoint). Each
 * holds the partitions whose log lives in that dir, keyed by `<topic>-<partition>`.
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
import type { TopicPartition } from "../log/index.js";
import { MalformedFileError } from "../malformed-file-error.js";
import type { FileSystem } from "../../ports/index.js";
import { currentDirName } from "./partition-dir-name.js";

/** Offsets by partition key (`<topic>-<partition>`). */
export type OffsetsByPartition = ReadonlyMap<string, number>;

/** One offset to checkpoint. */
export interface PartitionOffset {
  readonly topicPartition: TopicPartition;
  readonly offset: number;
}

/** The checkpoint files of one log dir. */
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
