/**
 * The cleaner checkpoint: how far the cleaner has cleaned each compacted log, kept per log dir
 * in Kafka's `cleaner-offset-checkpoint` file (the text format of the other offset checkpoints).
 * An offset here is the first dirty offset of the partition: everything below it is clean.
 */
import type { FileSystem } from "../../ports/index.js";
import { offsetCheckpointFile, type CheckpointFile } from "../checkpoint-file.driver.js";
import type { OffsetCheckpointEntry } from "../checkpoint-format.js";
import type { PartitionIndex } from "../../common/index.js";
import { offset, partitionIndex } from "../../common/index.js";

/** The name of the cleaner's checkpoint at the top of each log dir. */
export const CLEANER_OFFSET_CHECKPOINT_FILE = "cleaner-offset-checkpoint";

/** A partition, as the cleaner checkpoint names it. */
export interface CheckpointedPartition {
  readonly topic: string;
  readonly partition: number;
}

function keyOf(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

/**
 * The cleaner checkpoint of one log dir. Reads and writes go through one CheckpointFile, which
 * orders the writes; the cached entries are what was last read or written.
 */
export class CleanerCheckpoint {
  private readonly file: CheckpointFile<OffsetCheckpointEntry>;
  private entries: Map<string, OffsetCheckpointEntry> | undefined;

  constructor(fileSystem: FileSystem, logDir: string) {
    this.file = offsetCheckpointFile(fileSystem, logDir, CLEANER_OFFSET_CHECKPOINT_FILE);
  }

  /** The checkpointed first dirty offset of a partition, or undefined when it has none. */
  async read(topicPartition: CheckpointedPartition): Promise<number | undefined> {
    const entries = await this.load();
    return entries.get(keyOf(topicPartition.topic, topicPartition.partition))?.offset;
  }

  /** Records `firstDirtyOffset` for a partition, keeping the other partitions' entries. */
  async update(topicPartition: CheckpointedPartition, firstDirtyOffset: number): Promise<void> {
    const entries = await this.load();
    const partition: PartitionIndex = partitionIndex(topicPartition.partition);
    entries.set(keyOf(topicPartition.topic, topicPartition.partition), {
      topic: topicPartition.topic,
      partition,
      offset: offset(firstDirtyOffset),
    });
    await this.file.write([...entries.values()]);
  }

  /** Forgets a partition (its log was deleted), as Kafka does when a log goes away. */
  async remove(topicPartition: CheckpointedPartition): Promise<void> {
    const entries = await this.load();
    if (!entries.delete(keyOf(topicPartition.topic, topicPartition.partition))) return;
    await this.file.write([...entries.values()]);
  }

  private async load(): Promise<Map<string, OffsetCheckpointEntry>> {
    if (this.entries === undefined) {
      const read = await this.file.read();
      this.entries = new Map(read.map((entry) => [keyOf(entry.topic, entry.partition), entry]));
    }
    return this.entries;
  }
}
