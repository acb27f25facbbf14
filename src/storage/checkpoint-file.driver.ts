/**
 * A checkpoint file on the FileSystem port: read (missing means empty, malformed is a
 * MalformedFileError) and atomic replacement. Writes through one CheckpointFile never overlap,
 * because two replacements sharing the `.tmp` file would corrupt each other.
 */
import { joinPath } from "../common/index.js";
import type { FileSystem } from "../ports/index.js";
import { readTextFileIfExists, writeTextFileAtomically } from "./atomic-file.driver.js";
import {
  formatCheckpoint,
  leaderEpochCheckpointFormat,
  offsetCheckpointFormat,
  parseCheckpoint,
  type CheckpointEntryFormat,
  type EpochEntry,
  type OffsetCheckpointEntry,
} from "./checkpoint-format.js";
import { parsedOrThrow } from "./malformed-file-error.js";

/** The names of the offset checkpoints Kafka keeps at the top of each log dir. */
export const RECOVERY_POINT_CHECKPOINT_FILE = "recovery-point-offset-checkpoint";
export const REPLICATION_CHECKPOINT_FILE = "replication-offset-checkpoint";
export const LOG_START_OFFSET_CHECKPOINT_FILE = "log-start-offset-checkpoint";
/** The name of the leader-epoch checkpoint inside each partition folder. */
export const LEADER_EPOCH_CHECKPOINT_FILE = "leader-epoch-checkpoint";

export class CheckpointFile<T> {
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(
    private readonly fileSystem: FileSystem,
    readonly path: string,
    private readonly entryFormat: CheckpointEntryFormat<T>,
  ) {}

  /** The checkpointed entries; none when the file does not exist. */
  async read(): Promise<T[]> {
    const text = await readTextFileIfExists(this.fileSystem, this.path);
    if (text === undefined) return [];
    return parsedOrThrow(parseCheckpoint(this.entryFormat, text), this.path);
  }

  /** Replaces the file with `entries`, atomically and durably, after any earlier write ends. */
  async write(entries: readonly T[]): Promise<void> {
    const text = formatCheckpoint(this.entryFormat, entries);
    const previous = this.lastWrite;
    const current = (async () => {
      // An earlier failure was reported to its own caller; this write still goes ahead.
      await previous.catch(() => undefined);
      await writeTextFileAtomically(this.fileSystem, this.path, text);
    })();
    this.lastWrite = current;
    await current;
  }
}

/** The checkpoint of `name` (one of the offset checkpoint names) in the log dir `logDir`. */
export function offsetCheckpointFile(
  fileSystem: FileSystem,
  logDir: string,
  name: string,
): CheckpointFile<OffsetCheckpointEntry> {
  return new CheckpointFile(fileSystem, joinPath(logDir, name), offsetCheckpointFormat);
}

/** The leader-epoch-checkpoint of the partition folder `partitionDir`. */
export function leaderEpochCheckpointFile(
  fileSystem: FileSystem,
  partitionDir: string,
): CheckpointFile<EpochEntry> {
  return new CheckpointFile(
    fileSystem,
    joinPath(partitionDir, LEADER_EPOCH_CHECKPOINT_FILE),
    leaderEpochCheckpointFormat,
  );
}
