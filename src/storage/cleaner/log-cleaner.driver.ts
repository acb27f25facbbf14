/**
 * The log cleaner: `cleanOnce(nowMs)` looks at the compacted logs it is given, cleans the
 * filthiest one whose dirty ratio passes its `min.cleanable.dirty.ratio`, records the new
 * cleaner checkpoint, and then applies retention to the `compact,delete` logs, as one iteration
 * of Kafka's CleanerThread. The log manager calls it on its own schedule, one call at a time.
 * A log whose files cannot be read is marked uncleanable and skipped from then on, as Kafka's
 * LogCleanerManager does; I/O errors propagate to the caller, which takes the log dir offline.
 */
import type { FileSystem, Logger } from "../../ports/index.js";
import { WHOLE_BATCH_BYTES_MAX } from "../../protocol/index.js";
import type { LogConfig, TopicPartition } from "../log/log-config.js";
import {
  chooseFilthiestLog,
  cleanableRange,
  type CleanableRange,
  type LogView,
} from "./cleanable-range.js";
import { CleanerCheckpoint } from "./cleaner-checkpoint.driver.js";
import { checkCleanerConfig, defaultCleanerConfig, type CleanerConfig } from "./cleaner-config.js";
import { cleanLog, type CleanableLog, type CleaningStats } from "./clean-log.driver.js";
import { OffsetMap } from "./offset-map.js";
import { CleanerReadError, type SegmentReadOptions } from "./segment-batches.driver.js";

/** A log the cleaner may work on, with what the log manager knows about it. */
export interface CleanerLogEntry {
  readonly log: CleanableLog;
  /** The log dir holding the partition folder (and the cleaner-offset-checkpoint). */
  readonly logDir: string;
  readonly config: LogConfig;
  /** The cleaner never reaches this offset, nor the log's first unstable offset. */
  readonly highWatermark: number;
}

export interface LogCleanerOptions {
  readonly fileSystem: FileSystem;
  readonly logger: Logger;
  readonly config?: CleanerConfig;
  /** The logs of the node right now; asked at every `cleanOnce`. */
  readonly logs: () => readonly CleanerLogEntry[];
}

export interface CleanOnceResult {
  /** The pass over the chosen log, when one qualified. */
  readonly cleaned: CleaningStats | undefined;
  /** A log that failed to clean and is now skipped. */
  readonly markedUncleanable: TopicPartition | undefined;
  /** Segments removed by retention from `compact,delete` logs. */
  readonly deletedSegmentCount: number;
}

function partitionKey(topicPartition: TopicPartition): string {
  return `${topicPartition.topic}-${topicPartition.partition}`;
}

/** The cleaner of one node's log dirs. */
export class LogCleaner {
  private readonly config: CleanerConfig;
  private readonly map: OffsetMap;
  private readonly checkpoints = new Map<string, CleanerCheckpoint>();
  private readonly uncleanable = new Set<string>();

  constructor(private readonly options: LogCleanerOptions) {
    this.config = options.config ?? defaultCleanerConfig;
    checkCleanerConfig(this.config);
    this.map = new OffsetMap({
      memoryBytes: this.config.dedupeBufferBytes,
      loadFactor: this.config.dedupeBufferLoadFactor,
    });
  }

  /** Whether a log was given up on after a failure. */
  isUncleanable(topicPartition: TopicPartition): boolean {
    return this.uncleanable.has(partitionKey(topicPartition));
  }

  /** Forgets a deleted log: its checkpoint entry and its uncleanable mark. */
  async removeLog(logDir: string, topicPartition: TopicPartition): Promise<void> {
    this.uncleanable.delete(partitionKey(topicPartition));
    await this.checkpointOf(logDir).remove(topicPartition);
  }

  checkpointOf(logDir: string): CleanerCheckpoint {
    let checkpoint = this.checkpoints.get(logDir);
    if (checkpoint === undefined) {
      checkpoint = new CleanerCheckpoint(this.options.fileSystem, logDir);
      this.checkpoints.set(logDir, checkpoint);
    }
    return checkpoint;
  }

  /** One iteration: clean the filthiest log, then apply retention to compact,delete logs. */
  async cleanOnce(nowMs: number): Promise<CleanOnceResult> {
    const entries = this.options.logs();
    const compacted = entries.filter(
      (entry) =>
        entry.config.cleanupPolicy.compact && !this.isUncleanable(entry.log.topicPartition),
    );
    const candidates = [];
    for (const entry of compacted) candidates.push(await this.rangeOf(entry, nowMs));
    const chosen = chooseFilthiestLog(candidates);
    const outcome =
      chosen === undefined
        ? { cleaned: undefined, markedUncleanable: undefined }
        : await this.clean(candidates[chosen] as (typeof candidates)[number], nowMs);
    let deletedSegmentCount = 0;
    for (const entry of compacted) {
      if (!entry.config.cleanupPolicy.delete) continue;
      deletedSegmentCount += await entry.log.deleteOldSegments(nowMs, entry.highWatermark);
    }
    return { ...outcome, deletedSegmentCount };
  }

  /** The cleanable range of a log, resetting a checkpoint that lies outside the log. */
  private async rangeOf(
    entry: CleanerLogEntry,
    nowMs: number,
  ): Promise<{ entry: CleanerLogEntry; range: CleanableRange; minCleanableDirtyRatio: number }> {
    const { log, config } = entry;
    const checkpoint = this.checkpointOf(entry.logDir);
    const view: LogView = {
      segments: log.segments(),
      logStartOffset: log.logStartOffset,
      logEndOffset: log.logEndOffset,
      // Never past the last stable offset: an open transaction's outcome is not known yet.
      uncleanableFromOffset: Math.min(
        entry.highWatermark,
        log.transactions.firstUnstableOffset(entry.highWatermark) ?? Infinity,
      ),
      checkpointOffset: await checkpoint.read(log.topicPartition),
      minCompactionLagMs: config.minCompactionLagMs,
    };
    const range = cleanableRange(view, nowMs);
    if (range.isCheckpointReset)
      await checkpoint.update(log.topicPartition, range.firstDirtyOffset);
    return { entry, range, minCleanableDirtyRatio: config.minCleanableDirtyRatio };
  }

  /** Cleans the chosen log and moves its checkpoint; a read failure marks it uncleanable. */
  private async clean(
    candidate: { entry: CleanerLogEntry; range: CleanableRange },
    nowMs: number,
  ): Promise<Omit<CleanOnceResult, "deletedSegmentCount">> {
    const { entry, range } = candidate;
    const { log, config } = entry;
    const logger = this.options.logger.child({
      topic: log.topicPartition.topic,
      partition: log.topicPartition.partition,
    });
    let cleaned: CleaningStats;
    try {
      cleaned = await cleanLog({
        fileSystem: this.options.fileSystem,
        log,
        config,
        range,
        map: this.map,
        readOptions: this.readOptionsFor(config),
        nowMs,
      });
    } catch (error) {
      if (!(error instanceof CleanerReadError)) throw error;
      this.uncleanable.add(partitionKey(log.topicPartition));
      logger.error("the log cannot be cleaned and is skipped from now on", {
        reason: error.message,
      });
      return { cleaned: undefined, markedUncleanable: log.topicPartition };
    }
    // A group the log refused means it changed under the pass; that range stays dirty.
    if (cleaned.abandonedGroupCount === 0) {
      await this.checkpointOf(entry.logDir).update(log.topicPartition, cleaned.endOffset);
    }
    logger.info("cleaned the log", { ...cleaned, topicPartition: undefined });
    return { cleaned, markedUncleanable: undefined };
  }

  private readOptionsFor(config: LogConfig): SegmentReadOptions {
    return {
      ioBufferBytes: this.config.ioBufferBytes,
      // A batch is never larger than the segment it was written to, whatever the configs became.
      maxBatchBytes: Math.min(0x7fffffff, Math.max(config.maxMessageBytes, config.segmentBytes)),
      // Produce accepts a batch whatever it inflates to (records are streamed); the cleaner
      // rewrites from a batch's records, so it inflates it whole, within the widest bound.
      maxDecompressedBytes: WHOLE_BATCH_BYTES_MAX,
    };
  }
}
