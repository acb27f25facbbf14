/**
 * The partition log: Kafka's UnifiedLog over the FileSystem port. It appends (as leader or
 * follower), reads whole batches as file slices, answers timestamp and epoch lookups, truncates,
 * applies retention and DeleteRecords, flushes by `flush.messages` and `flush.ms` with group
 * commit, and swaps in cleaned segments. Opening it recovers what a crash left.
 *
 * States: open, then closed (close or deleteFiles), which is final: later operations throw
 * LogClosedError. An I/O error in the background (a flush after a roll) makes every later
 * operation throw LogFailedError. Every I/O error goes to `onIoError` first.
 */
import type { Uuid } from "../../common/index.js";
import type { Clock, FileSystem, Logger } from "../../ports/index.js";
import { readPartitionMetadata, writePartitionMetadata } from "../partition-metadata.driver.js";
import { appendRecords } from "./log-append.driver.js";
import type { LogConfig, TopicPartition } from "./log-config.js";
import { checkLogConfig } from "./log-config.js";
import { LogCore, segmentOptionsFor, type LogContext } from "./log-core.driver.js";
import { loadLog } from "./log-loader.driver.js";
import * as maintenance from "./log-maintenance.driver.js";
import { readSegments, type FileSlice, type ReadOptions } from "./log-read.driver.js";
import type { LogSegment, SegmentOptions } from "./log-segment.driver.js";
import { fetchOffsetByTimestamp } from "./log-timestamp.driver.js";
import type {
  AppendResult,
  LogOffsetMetadata,
  LogReadResult,
  RecoveryReport,
  SegmentInfo,
  TimestampAndOffset,
} from "./log-types.js";
import { readAt } from "./batch-scan.driver.js";
import { SegmentList } from "./segment-list.js";

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

/** One partition's log. */
export class PartitionLog {
  private constructor(
    private readonly core: LogCore,
    /** What opening the log found and repaired. */
    readonly recoveryReport: RecoveryReport,
  ) {}

  /** Opens (creating or recovering as needed) the log in `options.dir`. */
  static async open(options: OpenLogOptions): Promise<PartitionLog> {
    checkLogConfig(options.config);
    const context: LogContext = {
      fileSystem: options.fs,
      clock: options.clock,
      logger: options.logger,
      dir: options.dir,
      topicPartition: options.topicPartition,
      onIoError: options.onIoError,
    };
    const loaded = await loadLog({
      fileSystem: options.fs,
      logger: options.logger,
      dir: options.dir,
      segmentOptions: (baseOffset) => segmentOptionsFor(context, options.config, baseOffset),
      indexIntervalBytes: options.config.indexIntervalBytes,
      segmentIndexBytes: options.config.segmentIndexBytes,
      recoveryPoint: options.recoveryPoint,
      logStartOffset: options.logStartOffset,
      hadCleanShutdown: options.hadCleanShutdown,
    });
    if (
      options.topicId !== undefined &&
      (await readPartitionMetadata(options.fs, options.dir)) === undefined
    ) {
      await writePartitionMetadata(options.fs, options.dir, options.topicId);
    }
    const state = { ...loaded, config: options.config };
    const core = new LogCore(context, new SegmentList(loaded.segments), loaded.epochCache, state);
    return new PartitionLog(core, loaded.report);
  }

  get topicPartition(): TopicPartition {
    return this.core.context.topicPartition;
  }
  get dir(): string {
    return this.core.context.dir;
  }
  get config(): LogConfig {
    return this.core.config;
  }
  /**
   * Applies a changed topic config (Kafka's UnifiedLog.updateConfig) to the next append, roll,
   * retention, cleaning and flush decisions; the segments already written stay as they are.
   */
  updateConfig(config: LogConfig): void {
    this.core.updateConfig(config);
  }
  get logStartOffset(): number {
    return this.core.logStartOffset;
  }
  get logEndOffset(): number {
    return this.core.logEndOffset;
  }
  /** Where the log end is on disk (Kafka's logEndOffsetMetadata). */
  get logEndOffsetMetadata(): LogOffsetMetadata {
    const active = this.core.segments.active;
    return {
      offset: active.nextOffset,
      segmentBaseOffset: active.baseOffset,
      position: active.sizeInBytes,
    };
  }
  /** Everything below it is durable (flushed). */
  get recoveryPoint(): number {
    return this.core.groupCommit.flushedOffset;
  }
  /** Bytes in all segments. */
  get size(): number {
    return this.core.segments.all().reduce((sum, segment) => sum + segment.sizeInBytes, 0);
  }
  get segmentCount(): number {
    return this.core.segments.count;
  }
  /** Flush rounds (fsync groups) run so far, for metrics and tests. */
  get flushCount(): number {
    return this.core.groupCommit.roundCount;
  }
  /** The latest leader epoch in the epoch cache, if any. */
  get latestEpoch(): number | undefined {
    return this.core.epochCache.latestEpoch();
  }

  /** The segments, oldest first. */
  segments(): readonly SegmentInfo[] {
    return this.core.segments.all().map((segment) => segment.info());
  }

  /**
   * Appends `records` (whole v2 batches, validated by the caller) as the leader of
   * `leaderEpoch`: offsets are assigned from the log end offset and the batches are stamped in
   * place. Throws LogAppendError, with nothing written, when the framing is wrong.
   */
  appendAsLeader(
    records: Uint8Array,
    options: { readonly leaderEpoch: number },
  ): Promise<AppendResult> {
    const mode = { kind: "leader", leaderEpoch: options.leaderEpoch } as const;
    return this.core.guarded(() => appendRecords(this.core, records, mode));
  }

  /** Appends a follower's `records` with their offsets; throws LogAppendError on a refusal. */
  appendAsFollower(records: Uint8Array): Promise<AppendResult> {
    return this.core.guarded(() => appendRecords(this.core, records, { kind: "follower" }));
  }

  /** Reads whole batches from `fromOffset` (see ReadOptions); out of range is a result. */
  read(options: ReadOptions): Promise<LogReadResult> {
    return this.core.guarded(async () => {
      this.core.checkUsable();
      const bounds = { logStartOffset: this.logStartOffset, logEndOffset: this.logEndOffset };
      const segments = this.core.segments;
      const from = Math.max(0, segments.floorIndex(options.fromOffset));
      return readSegments(segments.all().slice(from), options, bounds);
    });
  }

  /** The bytes of a slice that `read` returned. */
  readBytes(slice: FileSlice): Promise<Uint8Array> {
    return this.core.guarded(() => readAt(slice.handle, slice.position, slice.sizeInBytes));
  }

  /**
   * ListOffsets: the first record with a timestamp >= `timestampMs` at or after the log start,
   * with its batch's leader epoch; -2 (earliest), -1 (latest) and -3 (max timestamp) as Kafka.
   */
  fetchOffsetByTimestamp(timestampMs: number): Promise<TimestampAndOffset | undefined> {
    return this.core.guarded(() => fetchOffsetByTimestamp(this.core, timestampMs));
  }

  /** OffsetsForLeaderEpoch: where `epoch` ends in this log (Kafka's endOffsetForEpoch). */
  endOffsetForEpoch(epoch: number): { epoch: number; endOffset: number } {
    const answer = this.core.epochCache.endOffsetFor(epoch, this.logEndOffset);
    return { epoch: answer.leaderEpoch, endOffset: answer.endOffset };
  }

  /** Removes the batches from the one holding `offset` on; resolves to whether any went. */
  truncateTo(offset: number): Promise<boolean> {
    return this.core.guarded(() => maintenance.truncateTo(this.core, offset));
  }

  /** Removes everything and restarts the log empty at `offset`. */
  truncateFullyAndStartAt(offset: number): Promise<void> {
    return this.core.guarded(() => maintenance.truncateFullyAndStartAt(this.core, offset));
  }

  /** DeleteRecords: moves the log start up to `offset` (at most the high watermark). */
  maybeIncrementLogStartOffset(offset: number): Promise<boolean> {
    return this.core.guarded(() => maintenance.maybeIncrementLogStartOffset(this.core, offset));
  }

  /** Retention; resolves to the count of segments deleted (renamed, see deleteExpiredFiles). */
  deleteOldSegments(nowMs: number, highWatermark: number): Promise<number> {
    const options = { nowMs, highWatermark };
    return this.core.guarded(() => maintenance.deleteOldSegments(this.core, options));
  }

  /** Deletes removed segments' files after `file.delete.delay.ms` (the log manager calls it). */
  deleteExpiredFiles(nowMs: number): Promise<number> {
    return this.core.guarded(() => this.core.deleteExpiredFiles(nowMs));
  }

  /**
   * The cleaner's swap (Kafka's replaceSegments): `newSegments` (stage "cleaned", flushed)
   * replace the live segments based at `oldBaseOffsets`, crash-safely. Resolves to false,
   * deleting the new segments, when the log no longer holds exactly those old segments or one
   * of them became the active segment.
   */
  replaceSegments(
    newSegments: readonly LogSegment[],
    oldBaseOffsets: readonly number[],
  ): Promise<boolean> {
    return this.core.guarded(() =>
      maintenance.replaceSegments(this.core, newSegments, oldBaseOffsets),
    );
  }

  /** The options a new segment of this log needs (the cleaner creates its `.cleaned` ones so). */
  newSegmentOptions(baseOffset: number): SegmentOptions {
    return this.core.segmentOptions(baseOffset);
  }

  /** Rolls to a new active segment now (an empty active segment stays). */
  async roll(): Promise<void> {
    this.core.checkUsable();
    const roll = () => {
      this.core.checkUsable();
      return this.core.roll();
    };
    await this.core.guarded(() => this.core.queue.enqueue(roll));
  }

  /** Makes everything below `upToOffset` (default: the log end) durable. */
  async flush(upToOffset?: number): Promise<void> {
    this.core.checkUsable();
    const endOffset = Math.min(upToOffset ?? this.logEndOffset, this.logEndOffset);
    await this.core.guarded(() => this.core.groupCommit.flushTo(endOffset));
  }

  /** Flushes when `flush.ms` has passed since the last flush; resolves to whether it did. */
  async maybeFlush(nowMs: number): Promise<boolean> {
    this.core.checkUsable();
    if (this.logEndOffset <= this.recoveryPoint) return false;
    if (nowMs - this.core.lastFlushMs < this.config.flushMs) return false;
    await this.flush();
    return true;
  }

  /**
   * Flushes everything with its indexes and closes the files. The active segment's time index
   * gets its final entry, so the next open reads the largest timestamp without a scan.
   */
  async close(): Promise<void> {
    this.core.checkUsable();
    await this.core.guarded(() => maintenance.closeLog(this.core));
  }

  /** Closes the log and removes its folder with everything in it. */
  async deleteFiles(): Promise<void> {
    this.core.checkUsable();
    await this.core.guarded(() => maintenance.deleteLog(this.core));
  }
}
