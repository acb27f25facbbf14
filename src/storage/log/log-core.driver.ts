/**
 * The state of an open partition log and the primitives its operations share: rolling, flushing
 * segments, removing segments (renamed `.deleted`, files removed after `file.delete.delay.ms`)
 * and moving the log start offset. Operations that change the segments run on `queue`, one at a
 * time; those that remove or truncate segments also hold the group commit's `exclusive`.
 */
import { assert } from "../../common/index.js";
import type { Clock, FileSystem, Logger } from "../../ports/index.js";
import type { LeaderEpochFileCache } from "../leader-epoch-cache.driver.js";
import { GroupCommit } from "./group-commit.driver.js";
import { checkLogConfig, type LogConfig, type TopicPartition } from "./log-config.js";
import { LogClosedError, LogFailedError, isIoError } from "./log-errors.js";
import { LogSegment, type SegmentOptions } from "./log-segment.driver.js";
import { rollJitterMs } from "./segment-roll.js";
import { SegmentList } from "./segment-list.js";
import { SerialQueue } from "./serial-queue.driver.js";

/** The log's collaborators and identity. */
export interface LogContext {
  readonly fileSystem: FileSystem;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly dir: string;
  readonly topicPartition: TopicPartition;
  /** Told of every I/O error an operation of the log meets (see OpenLogOptions.onIoError). */
  readonly onIoError: ((error: unknown) => void) | undefined;
}

/** A removed segment waiting for its files to be deleted. */
interface PendingDeletion {
  readonly segment: LogSegment;
  readonly deleteAtMs: number;
}

/** The state of an open log. */
export class LogCore {
  readonly queue: SerialQueue;
  readonly groupCommit: GroupCommit;
  logStartOffset: number;
  lastFlushMs: number;
  isClosed = false;
  private currentConfig: LogConfig;
  private pendingDeletions: PendingDeletion[] = [];
  private isDirectoryDirty = false;
  private failure: { readonly error: unknown } | undefined;

  constructor(
    readonly context: LogContext,
    readonly segments: SegmentList<LogSegment>,
    readonly epochCache: LeaderEpochFileCache,
    state: {
      readonly config: LogConfig;
      readonly logStartOffset: number;
      readonly recoveryPoint: number;
    },
  ) {
    this.currentConfig = state.config;
    this.logStartOffset = state.logStartOffset;
    this.lastFlushMs = context.clock.nowMs();
    this.queue = new SerialQueue(() => this.groupCommit.onWriteSettled());
    this.groupCommit = new GroupCommit(
      {
        writtenEndOffset: () => this.logEndOffset,
        isWriting: () => this.queue.isBusy,
        flushTo: (endOffset) => this.flushSegments(endOffset),
        onBackgroundFailure: (error) => this.fail(error),
      },
      state.recoveryPoint,
    );
  }

  /** The topic config in force: every append, roll, retention and flush decision reads it. */
  get config(): LogConfig {
    return this.currentConfig;
  }

  /**
   * Replaces the config for the decisions still to come (Kafka's UnifiedLog.updateConfig). The
   * active segment keeps its files; a smaller `segment.bytes` rolls it at the next append.
   */
  updateConfig(config: LogConfig): void {
    checkLogConfig(config);
    this.currentConfig = config;
  }

  /** The offset after the last batch whose write completed. */
  get logEndOffset(): number {
    return this.segments.active.nextOffset;
  }

  /** The options of the segment based at `baseOffset` in this log. */
  segmentOptions(baseOffset: number): SegmentOptions {
    return segmentOptionsFor(this.context, this.config, baseOffset);
  }

  /** Throws when the log is closed or an earlier background I/O error failed it. */
  checkUsable(): void {
    // Not an assertion: a dir failure closes logs that callers may be using at that moment.
    if (this.isClosed) throw new LogClosedError(this.context.dir);
    if (this.failure !== undefined) {
      throw new LogFailedError(this.context.dir, { cause: this.failure.error });
    }
  }

  /** Records a background I/O failure: the log takes no more operations. */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.context.logger.error("the log failed in the background", { dir: this.context.dir, error });
    this.reportIoError(error);
  }

  /** Hands an I/O error to the log's owner (the log manager takes the dir offline). */
  reportIoError(error: unknown): void {
    if (isIoError(error)) this.context.onIoError?.(error);
  }

  /**
   * Runs an operation of the log; an I/O error it meets is reported before it is thrown on to
   * the caller, so the dir goes offline at once and not at the manager's next own operation.
   */
  async guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.reportIoError(error);
      throw error;
    }
  }

  /**
   * Rolls to a new active segment based at the log end offset or `expectedBaseOffset`, whichever
   * is larger (a follower's input may start past the log end). An empty active segment already
   * based there is kept. As Kafka does, the rolled segment is flushed in the background.
   */
  async roll(expectedBaseOffset = 0): Promise<LogSegment> {
    const active = this.segments.active;
    const baseOffset = Math.max(expectedBaseOffset, this.logEndOffset);
    if (active.baseOffset === baseOffset && active.sizeInBytes === 0) return active;
    assert(baseOffset > active.baseOffset, "a new segment starts after the active one");
    await active.onBecomeInactive();
    const segment = await LogSegment.create(this.segmentOptions(baseOffset));
    this.segments.push(segment);
    this.isDirectoryDirty = true;
    this.groupCommit.requestFlushTo(baseOffset);
    return segment;
  }

  /**
   * Makes every batch below `endOffset` durable: the segments from the one holding the recovery
   * point, with their indexes except in the segment holding `endOffset` (a recovery rescans that
   * one), and the folder when segments were created.
   */
  private async flushSegments(endOffset: number): Promise<void> {
    const floorOfEnd = this.segments.floor(endOffset);
    for (const segment of this.segments.range(this.groupCommit.flushedOffset, endOffset)) {
      await segment.flush({ withIndexes: segment !== floorOfEnd });
    }
    await this.maybeSyncDirectory();
    this.lastFlushMs = this.context.clock.nowMs();
  }

  /** Makes the folder's entries durable when segments were created since the last time. */
  async maybeSyncDirectory(): Promise<void> {
    if (!this.isDirectoryDirty) return;
    this.isDirectoryDirty = false;
    try {
      await this.context.fileSystem.syncDirectory(this.context.dir);
    } catch (error) {
      this.isDirectoryDirty = true;
      throw error;
    }
  }

  /** Notes that folder entries changed and the next flush must sync the folder. */
  markDirectoryDirty(): void {
    this.isDirectoryDirty = true;
  }

  /**
   * Takes `segments` out of the log and renames their files `.deleted`; the files go after
   * `file.delete.delay.ms` (deleteExpiredFiles), so reads under way finish first.
   */
  async removeSegments(
    segments: readonly LogSegment[],
    options: { readonly isReplaced?: boolean } = {},
  ): Promise<void> {
    if (segments.length === 0) return;
    if (options.isReplaced !== true) this.segments.remove(segments);
    const deleteAtMs = this.context.clock.nowMs() + this.config.fileDeleteDelayMs;
    for (const segment of segments) {
      await segment.changeStage("deleted");
      this.pendingDeletions.push({ segment, deleteAtMs });
    }
    this.isDirectoryDirty = true;
  }

  /** Deletes the files of removed segments whose delay has passed; resolves to how many. */
  async deleteExpiredFiles(nowMs: number): Promise<number> {
    const due = this.pendingDeletions.filter((pending) => pending.deleteAtMs <= nowMs);
    this.pendingDeletions = this.pendingDeletions.filter((pending) => pending.deleteAtMs > nowMs);
    for (const pending of due) await pending.segment.deleteFiles();
    return due.length;
  }

  /** Closes the files of removed segments without deleting them (a restart removes them). */
  async closePendingDeletions(): Promise<void> {
    for (const pending of this.pendingDeletions.splice(0)) await pending.segment.close();
  }

  /**
   * Moves the log start offset up to `offset` (DeleteRecords, retention) and cuts the epoch cache
   * below it. Nothing below the log start is ever read again, so the recovery point follows.
   */
  async advanceLogStartOffset(offset: number): Promise<boolean> {
    if (offset <= this.logStartOffset) return false;
    assert(offset <= this.logEndOffset, "the log start offset never passes the log end offset");
    this.logStartOffset = offset;
    this.epochCache.truncateFromStart(offset);
    await this.epochCache.flush();
    this.groupCommit.markFlushed(offset);
    return true;
  }
}

/** The options of the segment based at `baseOffset` of the log `context` under `config`. */
export function segmentOptionsFor(
  context: LogContext,
  config: LogConfig,
  baseOffset: number,
): SegmentOptions {
  const { topicPartition } = context;
  return {
    fileSystem: context.fileSystem,
    dir: context.dir,
    baseOffset,
    segmentIndexBytes: config.segmentIndexBytes,
    indexIntervalBytes: config.indexIntervalBytes,
    rollJitterMs: rollJitterMs(config, { ...topicPartition, baseOffset }),
    nowMs: context.clock.nowMs(),
  };
}
