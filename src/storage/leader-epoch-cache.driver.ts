/**
 * A partition's leader-epoch cache backed by its leader-epoch-checkpoint file. As in Kafka, an
 * assignment is written to the checkpoint before `assign` resolves, so the file never misses an
 * epoch; truncations only mark the checkpoint stale and `flush` writes it (a stale checkpoint is
 * repaired by the same truncation when the log is loaded again).
 */
import type { FileSystem } from "../ports/index.js";
import type { EpochEntry } from "./checkpoint-format.js";
import { leaderEpochCheckpointFile, type CheckpointFile } from "./checkpoint-file.driver.js";
import { LeaderEpochCache, type EpochEndOffset } from "./leader-epoch-cache.js";
import { MalformedFileError } from "./malformed-file-error.js";

export class LeaderEpochFileCache {
  private isDirty = false;
  private lastWrite: Promise<void> = Promise.resolve();

  private constructor(
    private readonly checkpoint: CheckpointFile<EpochEntry>,
    /** The in-memory entries; read it freely, change it only through this class. */
    readonly cache: LeaderEpochCache,
  ) {}

  /**
   * Loads the cache of the partition folder `partitionDir` (empty when it has no checkpoint).
   * A malformed checkpoint, or one with a negative epoch or offset, is a MalformedFileError.
   */
  static async load(fileSystem: FileSystem, partitionDir: string): Promise<LeaderEpochFileCache> {
    const checkpoint = leaderEpochCheckpointFile(fileSystem, partitionDir);
    const entries = await checkpoint.read();
    for (const entry of entries) {
      if (entry.epoch < 0 || entry.startOffset < 0) {
        const reason = `invalid epoch entry ${entry.epoch} ${entry.startOffset}`;
        throw new MalformedFileError(checkpoint.path, reason);
      }
    }
    return new LeaderEpochFileCache(checkpoint, new LeaderEpochCache(entries));
  }

  get path(): string {
    return this.checkpoint.path;
  }

  /** Records that `epoch` starts at `startOffset`; when that changes the cache, writes it. */
  async assign(epoch: number, startOffset: number): Promise<boolean> {
    if (!this.cache.assign(epoch, startOffset)) return false;
    this.isDirty = true;
    await this.flush();
    return true;
  }

  /**
   * Records each new epoch `batches` (about to be appended, in offset order) carry with its first
   * offset, durably, before they are written, as Kafka's append does: the checkpoint then never
   * misses an epoch that is in the log. A negative epoch (none) is skipped.
   */
  async assignEpochsOf(
    batches: readonly { readonly partitionLeaderEpoch: number; readonly baseOffset: number }[],
  ): Promise<void> {
    let latest: number | undefined = this.cache.latestEpoch();
    for (const batch of batches) {
      const epoch = batch.partitionLeaderEpoch;
      // The common case, the latest epoch again, needs no write and no await.
      if (epoch < 0 || epoch === latest) continue;
      await this.assign(epoch, batch.baseOffset);
      latest = epoch;
    }
  }

  latestEpoch(): number | undefined {
    return this.cache.latestEpoch();
  }

  /** The answer to OffsetsForLeaderEpoch for `requestedEpoch` (see LeaderEpochCache). */
  endOffsetFor(requestedEpoch: number, logEndOffset: number): EpochEndOffset {
    return this.cache.endOffsetFor(requestedEpoch, logEndOffset);
  }

  /** The epoch that wrote `target`, if known. */
  epochForOffset(target: number): number | undefined {
    return this.cache.epochForOffset(target);
  }

  /** The entries, oldest first. */
  epochEntries(): readonly EpochEntry[] {
    return this.cache.epochEntries();
  }

  /** Removes entries starting at or after `endOffset`; the checkpoint is written by `flush`. */
  truncateFromEnd(endOffset: number): boolean {
    const changed = this.cache.truncateFromEnd(endOffset);
    if (changed) this.isDirty = true;
    return changed;
  }

  /** Drops entries below `startOffset`; the checkpoint is written by `flush`. */
  truncateFromStart(startOffset: number): boolean {
    const changed = this.cache.truncateFromStart(startOffset);
    if (changed) this.isDirty = true;
    return changed;
  }

  /** Removes every entry and writes the empty checkpoint. */
  async clearAndFlush(): Promise<void> {
    this.cache.clear();
    this.isDirty = true;
    await this.flush();
  }

  /**
   * Writes the checkpoint atomically when the cache changed since the last write; otherwise
   * waits for the write under way, so that the checkpoint is durable when it resolves.
   */
  async flush(): Promise<void> {
    if (!this.isDirty) return this.lastWrite;
    // Cleared before writing: a change made while the write is under way marks it dirty again.
    this.isDirty = false;
    const write = this.checkpoint.write(this.cache.epochEntries());
    this.lastWrite = write;
    try {
      await write;
    } catch (error) {
      this.isDirty = true;
      throw error;
    }
  }
}
