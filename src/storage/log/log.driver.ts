/**
 * The partition log, Kafka's UnifiedLog over the FileSystem port: appends as leader or follower
 * with group commit, reads of whole batches as file slices, timestamp and epoch lookups,
 * truncation, retention and DeleteRecords, flushes by `flush.messages` and `flush.ms`, the
 * cleaner's swap. Opening it recovers what a crash left (`log-loader.driver.ts`).
 *
 * This file owns one state machine: the log, with every fact of it that changes: segments, log
 * start offset, config, waiting appends, removed segments (DeletedSegments), whether the folder
 * needs a sync, the last flush, the recovery point (its GroupCommit) and the producer state
 * (ProducerStateFiles, with its files). The rules are pure, beside it: append-*.ts,
 * segment-list.ts, segment-roll.ts, retention.ts.
 *
 * States: open, failed, closed. open -> failed on an I/O error in the background (a flush after
 * a roll, a group of appends); open -> closed by close or deleteFiles. Both are final: later
 * operations throw LogFailedError or LogClosedError. Every I/O error goes to `onIoError` first.
 * Operations that change the segments run on `queue` one at a time, as under Kafka's log lock;
 * those that remove, truncate or rename segments also hold the group commit's `exclusive`.
 */
import { assert, dirname } from "../../common/index.js";
import type { Clock, FileSystem, Logger } from "../../ports/index.js";
import type { LeaderEpochFileCache } from "../leader-epoch-cache.driver.js";
import { activeProducersOf, lastRecordsOf } from "../producer-state/index.js";
import type { ActiveProducer, LastRecordOfProducer } from "../producer-state/index.js";
import {
  appendGroupSize,
  planGroup,
  writtenAppends,
  type AppendInput,
  type AppendMode,
  type AppendResult,
  type LeaderAppend,
  type PlannedInput,
  type WrittenAppend,
} from "./append-plan.js";
import { planRuns, runWrite } from "./append-runs.js";
import { readAt } from "./batch-scan.driver.js";
import { DeletedSegments } from "./deleted-segments.driver.js";
import { GroupCommit } from "./group-commit.driver.js";
import { checkLogConfig, type LogConfig, type TopicPartition } from "./log-config.js";
import { LogAppendError, LogClosedError, LogFailedError, isIoError } from "./log-errors.js";
import { loadLog, type LoadedLog, type OpenLogOptions } from "./log-loader.driver.js";
import type { RecoveryReport } from "./log-loader.driver.js";
import {
  readSegments,
  type FileSlice,
  type LogOffsetMetadata,
  type LogReadResult,
  type ReadOptions,
} from "./log-read.driver.js";
import { LogSegment, type SegmentInfo, type SegmentOptions } from "./log-segment.driver.js";
import { fetchOffsetByTimestamp, type TimestampAndOffset } from "./log-timestamp.driver.js";
import { deletableSegmentCount, retentionReasons, type RetentionReason } from "./retention.js";
import { SegmentList } from "./segment-list.js";
import { replaceWithCleaned } from "./segment-swap.driver.js";
import { segmentOptionsFor } from "./segment-roll.js";
import { SerialQueue } from "./serial-queue.driver.js";
import { ProducerStateFiles } from "./producer-state-files.driver.js";
import type { AbortedTransaction, TransactionIndex } from "./transaction-index.driver.js";

type LogState =
  | { readonly kind: "open" }
  | { readonly kind: "failed"; readonly error: unknown }
  | { readonly kind: "closed" };

interface PendingAppend extends AppendInput {
  readonly resolve: (written: WrittenAppend) => void;
  readonly reject: (error: unknown) => void;
}

export class PartitionLog {
  readonly dir: string;
  readonly topicPartition: TopicPartition;
  /** What opening the log found and repaired. */
  readonly recoveryReport: RecoveryReport;
  private readonly fileSystem: FileSystem;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly onIoError: ((error: unknown) => void) | undefined;
  private readonly segmentList: SegmentList<LogSegment>;
  private readonly epochCache: LeaderEpochFileCache;
  private readonly queue: SerialQueue;
  private readonly groupCommit: GroupCommit;
  private state: LogState = { kind: "open" };
  private currentConfig: LogConfig;
  private startOffset: number;
  private lastFlushMs: number;
  private readonly pendingAppends: PendingAppend[] = [];
  private readonly deletedSegments = new DeletedSegments();
  private isDirectoryDirty = false;
  /** The producers, with their `.txnindex` and `.snapshot` files. */
  private readonly producerState: ProducerStateFiles;

  private constructor(options: OpenLogOptions, loaded: LoadedLog) {
    this.dir = options.dir;
    this.topicPartition = options.topicPartition;
    this.recoveryReport = loaded.report;
    this.fileSystem = options.fs;
    this.clock = options.clock;
    this.logger = options.logger;
    this.onIoError = options.onIoError;
    this.segmentList = new SegmentList(loaded.segments);
    this.producerState = new ProducerStateFiles(options);
    this.epochCache = loaded.epochCache;
    this.currentConfig = options.config;
    this.startOffset = loaded.logStartOffset;
    this.lastFlushMs = options.clock.nowMs();
    this.queue = new SerialQueue(() => this.groupCommit.onWriteSettled());
    this.groupCommit = new GroupCommit(
      {
        writtenEndOffset: () => this.logEndOffset,
        isWriting: () => this.queue.isBusy,
        flushTo: (endOffset) => this.flushSegments(endOffset),
        onBackgroundFailure: (error) => this.fail(error),
      },
      loaded.recoveryPoint,
    );
  }

  /** Opens (creating or recovering as needed) the log in `options.dir`. */
  static async open(options: OpenLogOptions): Promise<PartitionLog> {
    checkLogConfig(options.config);
    const log = new PartitionLog(options, await loadLog(options));
    const bounds = { logStartOffset: log.startOffset, logEndOffset: log.logEndOffset };
    const loading = { recoveryPoint: log.recoveryPoint, config: log.config };
    log.isDirectoryDirty = await log.producerState.load(log.segmentList.all(), bounds, loading);
    return log;
  }

  /** The aborted transactions, in `.txnindex` files beside the segments. */
  get transactionIndex(): TransactionIndex {
    return this.producerState.transactionIndex;
  }
  get config(): LogConfig {
    return this.currentConfig;
  }
  get logStartOffset(): number {
    return this.startOffset;
  }
  /** The offset after the last batch whose write completed. */
  get logEndOffset(): number {
    return this.segmentList.active.nextOffset;
  }
  /** Where the log end is on disk (Kafka's logEndOffsetMetadata). */
  get logEndOffsetMetadata(): LogOffsetMetadata {
    const active = this.segmentList.active;
    const position = active.sizeInBytes;
    return { offset: active.nextOffset, segmentBaseOffset: active.baseOffset, position };
  }
  /** Everything below it is durable (flushed). */
  get recoveryPoint(): number {
    return this.groupCommit.flushedOffset;
  }
  /** Bytes in all segments. */
  get size(): number {
    return this.segmentList.all().reduce((sum, segment) => sum + segment.sizeInBytes, 0);
  }
  get segmentCount(): number {
    return this.segmentList.count;
  }
  /** Flush rounds (fsync groups) run so far, for metrics and tests. */
  get flushCount(): number {
    return this.groupCommit.roundCount;
  }
  get latestEpoch(): number | undefined {
    return this.epochCache.latestEpoch();
  }
  /** The transactions' stability: the last stable offset's bound at a high watermark. */
  get transactions(): ProducerStateFiles["transactions"] {
    return this.producerState.transactions;
  }
  /** The producers this partition holds state for (DescribeProducers). */
  activeProducers(): ActiveProducer[] {
    return activeProducersOf(this.producerState.producers);
  }
  /** Each producer's last record, which the cleaner keeps (lastRecordsOfActiveProducers). */
  lastRecordsOfProducers(): Map<number, LastRecordOfProducer> {
    return lastRecordsOf(this.producerState.producers);
  }
  /** Oldest first. */
  segments(): readonly SegmentInfo[] {
    return this.segmentList.all().map((segment) => segment.info());
  }

  /**
   * Applies a changed topic config (Kafka's updateConfig) to the next append, roll, retention,
   * cleaning and flush decisions; the segments written stay as they are.
   */
  updateConfig(config: LogConfig): void {
    checkLogConfig(config);
    this.currentConfig = config;
  }

  /**
   * Appends validated v2 batches as the leader of `leaderEpoch`, assigning offsets and stamping
   * them in place; throws LogAppendError, with nothing written, when the framing is wrong.
   */
  appendAsLeader(
    records: Uint8Array,
    options: Omit<LeaderAppend, "origin"> & Partial<Pick<LeaderAppend, "origin">>,
  ): Promise<AppendResult> {
    const mode = { kind: "leader", origin: "client", ...options } as const;
    return this.guarded(() => this.append(records, mode));
  }

  /** Appends a follower's `records` with their offsets; throws LogAppendError on a refusal. */
  appendAsFollower(records: Uint8Array): Promise<AppendResult> {
    return this.guarded(() => this.append(records, { kind: "follower" }));
  }

  /** Reads whole batches from `fromOffset` (see ReadOptions); out of range is a result. */
  read(options: ReadOptions): Promise<LogReadResult> {
    return this.guarded(async () => {
      this.checkUsable();
      const bounds = { logStartOffset: this.logStartOffset, logEndOffset: this.logEndOffset };
      const from = Math.max(0, this.segmentList.floorIndex(options.fromOffset));
      return readSegments(this.segmentList.all().slice(from), options, bounds);
    });
  }

  /** The bytes of a slice that `read` returned. */
  readBytes(slice: FileSlice): Promise<Uint8Array> {
    return this.guarded(() => readAt(slice.handle, slice.position, slice.sizeInBytes));
  }

  /**
   * ListOffsets: the first record with a timestamp >= `timestampMs` with its batch's leader
   * epoch; -2 (earliest), -1 (latest) and -3 (max timestamp, KIP-734) as Kafka answers them.
   */
  fetchOffsetByTimestamp(timestampMs: number): Promise<TimestampAndOffset | undefined> {
    return this.guarded(async () => {
      this.checkUsable();
      const { logStartOffset, logEndOffset, epochCache } = this;
      const { maxMessageBytes } = this.config;
      const segments = this.segmentList.all();
      const log = { segments, logStartOffset, logEndOffset, maxMessageBytes, epochCache };
      return fetchOffsetByTimestamp(log, timestampMs);
    });
  }

  /** OffsetsForLeaderEpoch: where `epoch` ends in this log (Kafka's endOffsetForEpoch). */
  endOffsetForEpoch(epoch: number): { epoch: number; endOffset: number } {
    const answer = this.epochCache.endOffsetFor(epoch, this.logEndOffset);
    return { epoch: answer.leaderEpoch, endOffset: answer.endOffset };
  }

  /**
   * Removes every batch from the one holding `offset` on (Kafka's truncateTo); resolves to
   * whether anything was removed. The cut, the epoch cache and the removed segments' renames are
   * made durable before it resolves, so a crash cannot bring the removed batches back.
   */
  truncateTo(offset: number): Promise<boolean> {
    return this.queued(async () => {
      if (offset >= this.logEndOffset) return false;
      if (offset < this.segmentList.first.baseOffset) {
        await this.startAt(offset);
        return true;
      }
      const later = this.segmentList.all().filter((segment) => segment.baseOffset > offset);
      await this.removeSegments(later);
      const active = this.segmentList.active;
      await active.truncateTo(offset);
      const log = { segments: this.segmentList.all(), logStartOffset: this.startOffset };
      await this.producerState.truncateTo(this.logEndOffset, log, this.config);
      await active.flush({ withIndexes: false });
      await this.fileSystem.syncDirectory(this.dir);
      this.epochCache.truncateFromEnd(this.logEndOffset);
      await this.epochCache.flush();
      this.startOffset = Math.min(this.startOffset, this.logEndOffset);
      this.groupCommit.truncatedTo(this.logEndOffset);
      return true;
    });
  }

  /** Removes every segment and restarts the log empty at `offset`. */
  truncateFullyAndStartAt(offset: number): Promise<void> {
    return this.queued(() => this.startAt(offset));
  }

  /**
   * DeleteRecords: moves the log start offset up to `offset`, deleting the segments below it;
   * resolves to whether it moved. The caller checks `offset` against the high watermark.
   */
  maybeIncrementLogStartOffset(offset: number): Promise<boolean> {
    return this.queued(async () => {
      assert(offset <= this.logEndOffset, "a new log start offset is at most the log end offset");
      if (!(await this.advanceLogStartOffset(offset))) return false;
      const options = { nowMs: this.clock.nowMs(), highWatermark: offset };
      await this.deleteByReason("logStartOffset", options);
      return true;
    });
  }

  /** Retention (retention.ts); resolves to how many segments went `.deleted`. */
  deleteOldSegments(nowMs: number, highWatermark: number): Promise<number> {
    const options = { nowMs, highWatermark };
    return this.queued(async () => {
      let deleted = 0;
      for (const reason of retentionReasons(this.config))
        deleted += await this.deleteByReason(reason, options);
      if (deleted > 0) await this.maybeSyncDirectory();
      return deleted;
    });
  }

  /** Deletes removed segments' files after `file.delete.delay.ms`; resolves to how many went. */
  deleteExpiredFiles(nowMs: number): Promise<number> {
    return this.guarded(() => this.deletedSegments.deleteDue(nowMs));
  }

  /**
   * The cleaner's swap (Kafka's replaceSegments): `newSegments` (flushed, stage `cleaned`)
   * replace the live segments at `oldBaseOffsets`: new files `.swap` (durably), old ones
   * `.deleted` (readable for slices handed out until file.delete.delay.ms), then the swap files
   * live; a crash is completed or rolled back at the next load. `keptAborts` (the aborted
   * transactions that still have data) replace the old segments' `.txnindex` entries. Resolves
   * to false, deleting the new segments, when the log no longer holds exactly those inactive
   * old segments.
   */
  replaceSegments(
    newSegments: readonly LogSegment[],
    oldBaseOffsets: readonly number[],
    keptAborts: readonly AbortedTransaction[] = [],
  ): Promise<boolean> {
    return this.queued(() =>
      replaceWithCleaned(newSegments, oldBaseOffsets, keptAborts, {
        ...{ fileSystem: this.fileSystem, dir: this.dir, logger: this.logger },
        ...{ segmentList: this.segmentList, transactionIndex: this.transactionIndex },
        removeReplaced: (segments) => this.removeSegments(segments, { isReplaced: true }),
      }),
    );
  }

  /** The options a new segment of this log needs (the cleaner creates its `.cleaned` ones so). */
  newSegmentOptions(baseOffset: number): SegmentOptions {
    const { fileSystem, dir, topicPartition } = this;
    const log = { fileSystem, dir, topicPartition, nowMs: this.clock.nowMs() };
    return segmentOptionsFor(log, this.config, baseOffset);
  }

  /** Rolls to a new active segment now (an empty active segment stays). */
  async roll(): Promise<void> {
    await this.queued(() => this.rollActive(), { isExclusive: false });
  }

  /** Makes everything below `upToOffset` (default: the log end) durable. */
  async flush(upToOffset?: number): Promise<void> {
    this.checkUsable();
    const endOffset = Math.min(upToOffset ?? this.logEndOffset, this.logEndOffset);
    await this.guarded(() => this.groupCommit.flushTo(endOffset));
  }

  /** Flushes when `flush.ms` has passed since the last flush; resolves to whether it did. */
  async maybeFlush(nowMs: number): Promise<boolean> {
    this.checkUsable();
    if (this.logEndOffset <= this.recoveryPoint) return false;
    if (nowMs - this.lastFlushMs < this.config.flushMs) return false;
    await this.flush();
    return true;
  }

  /** Flushes all with indexes (the time index's last entry spares the next open a scan). */
  async close(): Promise<void> {
    await this.queued(async () => {
      this.state = { kind: "closed" };
      await this.segmentList.active.onBecomeInactive();
      for (const segment of this.segmentList.all()) await segment.flush({ withIndexes: true });
      await this.producerState.close(this.logEndOffset);
      await this.fileSystem.syncDirectory(this.dir);
      this.groupCommit.markFlushed(this.logEndOffset);
      await this.closeFiles();
    });
  }

  /** Closes the log and removes its folder with everything in it. */
  async deleteFiles(): Promise<void> {
    await this.queued(async () => {
      this.state = { kind: "closed" };
      await this.closeFiles();
      await this.fileSystem.rmdir(this.dir, { recursive: true });
      await this.fileSystem.syncDirectory(dirname(this.dir));
    });
  }

  private checkUsable(): void {
    // Not an assertion: a dir failure closes logs that callers may be using at that moment.
    if (this.state.kind === "closed") throw new LogClosedError(this.dir);
    if (this.state.kind === "failed") {
      throw new LogFailedError(this.dir, { cause: this.state.error });
    }
  }

  private fail(error: unknown): void {
    if (this.state.kind === "open") this.state = { kind: "failed", error };
    this.logger.error("the log failed in the background", { dir: this.dir, error });
    if (isIoError(error)) this.onIoError?.(error);
  }

  /** Reports an I/O error of `operation` before throwing it on: the dir goes offline at once. */
  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (isIoError(error)) this.onIoError?.(error);
      throw error;
    }
  }

  /**
   * Runs `operation` guarded and queued if the log is still usable at its turn (a close may have
   * run before); `isExclusive` also keeps every flush out meanwhile.
   */
  private queued<T>(operation: () => Promise<T>, options = { isExclusive: true }): Promise<T> {
    return this.guarded(() => {
      this.checkUsable();
      return this.queue.enqueue(() => {
        this.checkUsable();
        return options.isExclusive ? this.groupCommit.exclusive(operation) : operation();
      });
    });
  }

  /**
   * Waits for the group that takes this append (see writeGroup). With `flush.messages` reached,
   * it then waits for the group commit outside the queue: later appends are written meanwhile.
   */
  private async append(records: Uint8Array, mode: AppendMode): Promise<AppendResult> {
    this.checkUsable();
    const written = await new Promise<WrittenAppend>((resolve, reject) => {
      this.pendingAppends.push({ records, mode, resolve, reject });
      // One queued group operation serves every append waiting when it runs.
      if (this.pendingAppends.length === 1) void this.queue.enqueue(() => this.writeGroup());
    });
    if (written.flushTo !== undefined) await this.groupCommit.flushTo(written.flushTo);
    return written.result;
  }

  /**
   * One queued operation takes the waiting appends (within the group limits), plans them in
   * order and writes them with one file append per segment; a refused one alone fails.
   */
  private async writeGroup(): Promise<void> {
    const group = this.pendingAppends.splice(0, appendGroupSize(this.pendingAppends));
    if (this.pendingAppends.length > 0) void this.queue.enqueue(() => this.writeGroup());
    const ready = this.segmentList.active.openBeforeAppend(group, (error) => this.fail(error));
    if (ready !== true && !(await ready)) return;
    try {
      this.checkUsable();
      const nowMs = this.clock.nowMs();
      const at = { config: this.config, logEndOffset: this.logEndOffset, nowMs };
      const { accepted, refused } = planGroup(group, at, this.producerState.producers);
      for (const each of refused) each.input.reject(new LogAppendError(each.refusal));
      const written = await this.writeAccepted(accepted);
      accepted.forEach((each, index) => each.input.resolve(written[index] as WrittenAppend));
    } catch (error) {
      // An I/O error fails every append of the group, none of which is known to be written, and
      // the log: the log manager takes its dir offline, as Kafka does.
      if (!(error instanceof LogClosedError)) this.fail(error);
      for (const each of group) each.reject(error);
    }
  }

  private async writeAccepted(accepted: readonly PlannedInput[]): Promise<WrittenAppend[]> {
    const batches = accepted.flatMap((each) => each.batches);
    if (batches.length > 0) {
      await this.epochCache.assignEpochsOf(batches);
      const nowMs = this.clock.nowMs();
      const active = this.segmentList.active.rollState();
      const runs = planRuns(batches, active, { config: this.config, nowMs });
      for (const run of runs) {
        const write = runWrite(run);
        if (run.rollFirst) await this.rollActive(write.baseOffset);
        await this.segmentList.active.append(write.pieces, write.batches, nowMs);
      }
      const log = { active: this.segmentList.active, rolled: runs.some((run) => run.rollFirst) };
      if (await this.producerState.afterAppend(accepted, log)) this.isDirectoryDirty = true;
    }
    return writtenAppends(accepted, {
      logEndOffset: this.logEndOffset,
      flushedOffset: this.groupCommit.flushedOffset,
      flushMessages: this.config.flushMessages,
    });
  }

  /**
   * Rolls to a new active segment at the larger of the log end and `expectedBaseOffset` (an
   * empty one already there is kept); the rolled segment is flushed in the background.
   */
  private async rollActive(expectedBaseOffset = 0): Promise<LogSegment> {
    const active = this.segmentList.active;
    const baseOffset = Math.max(expectedBaseOffset, this.logEndOffset);
    if (active.baseOffset === baseOffset && active.sizeInBytes === 0) return active;
    assert(baseOffset > active.baseOffset, "a new segment starts after the active one");
    await active.onBecomeInactive();
    const segment = await LogSegment.create(this.newSegmentOptions(baseOffset));
    this.segmentList.push(segment);
    this.isDirectoryDirty = true;
    this.groupCommit.requestFlushTo(baseOffset);
    return segment;
  }

  /**
   * Makes every batch below `endOffset` durable: the segments from the recovery point on (with
   * indexes, but the one holding `endOffset`), the `.txnindex` files written, and the folder.
   */
  private async flushSegments(endOffset: number): Promise<void> {
    const floorOfEnd = this.segmentList.floor(endOffset);
    for (const segment of this.segmentList.range(this.groupCommit.flushedOffset, endOffset)) {
      await segment.flush({ withIndexes: segment !== floorOfEnd });
    }
    if (await this.producerState.flush()) this.isDirectoryDirty = true;
    await this.maybeSyncDirectory();
    this.lastFlushMs = this.clock.nowMs();
  }

  private async maybeSyncDirectory(): Promise<void> {
    if (!this.isDirectoryDirty) return;
    this.isDirectoryDirty = false;
    try {
      await this.fileSystem.syncDirectory(this.dir);
    } catch (error) {
      this.isDirectoryDirty = true;
      throw error;
    }
  }

  private async startAt(offset: number): Promise<void> {
    const old = this.segmentList.all();
    await this.removeSegments(old, { isReplaced: true });
    const fresh = await LogSegment.create(this.newSegmentOptions(offset));
    this.segmentList.replaceAll([fresh]);
    await this.producerState.clear();
    await this.fileSystem.syncDirectory(this.dir);
    await this.epochCache.clearAndFlush();
    this.startOffset = offset;
    this.groupCommit.truncatedTo(offset);
    this.groupCommit.markFlushed(offset);
  }

  /**
   * Moves the log start offset up to `offset` (DeleteRecords, retention) and cuts the epoch cache
   * below it. Nothing below the log start is ever read again, so the recovery point follows.
   */
  private async advanceLogStartOffset(offset: number): Promise<boolean> {
    if (offset <= this.startOffset) return false;
    assert(offset <= this.logEndOffset, "the log start offset never passes the log end offset");
    this.startOffset = offset;
    this.epochCache.truncateFromStart(offset);
    await this.epochCache.flush();
    this.groupCommit.markFlushed(offset);
    return true;
  }

  private async deleteByReason(
    reason: RetentionReason,
    options: { readonly nowMs: number; readonly highWatermark: number },
  ): Promise<number> {
    const count = deletableSegmentCount(reason, {
      segments: this.segments(),
      logStartOffset: this.startOffset,
      logEndOffset: this.logEndOffset,
      highWatermark: Math.min(options.highWatermark, this.logEndOffset),
      nowMs: options.nowMs,
      config: this.config,
    });
    if (count === 0) return 0;
    const doomed = this.segmentList.all().slice(0, count);
    // A log keeps one segment: when all must go, roll first; an empty active one stays.
    if (count === this.segmentList.count) {
      const fresh = await this.rollActive();
      if (doomed[doomed.length - 1] === fresh) doomed.pop();
    }
    await this.removeSegments(doomed);
    await this.producerState.removeSegments(doomed, this.segmentList.first.baseOffset);
    this.logger.info("deleted old segments", { dir: this.dir, reason, count: doomed.length });
    await this.advanceLogStartOffset(this.segmentList.first.baseOffset);
    return doomed.length;
  }

  /** Takes `segments` out (unless replaced already); their files go later (DeletedSegments). */
  private async removeSegments(
    segments: readonly LogSegment[],
    options: { readonly isReplaced?: boolean } = {},
  ): Promise<void> {
    if (segments.length === 0) return;
    if (options.isReplaced !== true) this.segmentList.remove(segments);
    await this.deletedSegments.add(segments, this.clock.nowMs() + this.config.fileDeleteDelayMs);
    this.isDirectoryDirty = true;
  }

  private async closeFiles(): Promise<void> {
    for (const segment of this.segmentList.all()) await segment.close();
    await this.deletedSegments.closeAll();
  }
}
