/**
 * One segment of a partition log: the `.log` file of whole batches, its offset index and its time
 * index. This file owns one state machine, the segment's. States: open (active or inactive; only
 * the log's last segment is active and takes appends), then closed (close or deleteFiles); closed
 * is final. An open segment may change stage (live, cleaned, swap, deleted) by renaming its
 * files.
 */
import { assert } from "../../common/index.js";
import type { FileHandle } from "../../ports/index.js";
import type { SegmentFileStage } from "../file-names.js";
import type { IndexSanity } from "../index-common.js";
import type { OffsetIndex } from "../offset-index.js";
import type { TimeIndex } from "../time-index.js";
import { ensureDescriptor, lacksDescriptor } from "../pooled-file-handle.driver.js";
import { isResourceExhaustion } from "./log-errors.js";
import { readAt, type ScannedBatch } from "./batch-scan.driver.js";
import {
  openSegmentFiles,
  renameIndexFiles,
  rewriteIndexFiles,
  segmentFilePath,
  unlinkSegmentFiles,
  type SegmentHandles,
  type SegmentLocation,
} from "./segment-files.driver.js";
import { SegmentIndexing, type AppendedBatch, type RebuiltSegment } from "./segment-indexing.js";
import { findBatchHolding, loadTail, readFirstBatchTimestamp } from "./segment-scans.driver.js";
import type { ActiveSegmentState } from "./segment-roll.js";

/** A summary of one segment, for retention, metrics and DescribeLogDirs. */
export interface SegmentInfo {
  readonly baseOffset: number;
  /** The offset after the segment's last batch (its base offset when empty). */
  readonly nextOffset: number;
  readonly sizeInBytes: number;
  /** The largest batch maxTimestamp, or -1 when no batch has one. */
  readonly maxTimestamp: number;
  /** When the segment was last written (file time when loaded). */
  readonly lastModifiedMs: number;
  /** Kafka's largestTimestamp: maxTimestamp, or lastModifiedMs when there is none. */
  readonly largestTimestamp: number;
  /** The path of the segment's log file. */
  readonly path: string;
}

/** What a segment needs besides its location. */
export interface SegmentOptions extends SegmentLocation {
  readonly indexIntervalBytes: number;
  readonly rollJitterMs: number;
  readonly nowMs: number /* the log's clock when the segment object is made */;
}

/** The segment's in-memory facts that are not in its index objects. */
interface SegmentState {
  /** The path of the log file under its current stage (the handle follows the file). */
  logPath: string;
  sizeInBytes: number;
  nextOffset: number;
  firstBatchTimestamp: number;
  lastModifiedMs: number;
  createdMs: number;
}

export class LogSegment {
  private isClosed = false;
  private readonly indexing: SegmentIndexing;

  private constructor(
    private readonly options: SegmentOptions,
    private files: SegmentHandles,
    private currentStage: SegmentFileStage,
    private readonly state: SegmentState,
  ) {
    this.indexing = new SegmentIndexing(options.indexIntervalBytes);
  }

  /** Makes a new, empty segment (emptying any files left under its names). */
  static async create(
    options: SegmentOptions,
    stage: SegmentFileStage = "live",
  ): Promise<LogSegment> {
    const files = await openSegmentFiles(options, stage, { isNew: true });
    const state = LogSegment.emptyState(options, files.log.path);
    return new LogSegment(options, files, stage, state);
  }

  /**
   * Opens an existing segment and reads what its files say; `indexSanity` tells whether the
   * indexes may be trusted. Call `loadState` (trusted indexes) or recover it before use.
   */
  static async open(
    options: SegmentOptions,
    stage: SegmentFileStage = "live",
  ): Promise<{ segment: LogSegment; indexSanity: IndexSanity }> {
    const files = await openSegmentFiles(options, stage, { isNew: false });
    const state = LogSegment.emptyState(options, files.log.path);
    state.sizeInBytes = await files.log.size();
    const segment = new LogSegment(options, files, stage, state);
    return { segment, indexSanity: files.indexSanity };
  }

  private static emptyState(options: SegmentOptions, logPath: string): SegmentState {
    return {
      logPath,
      sizeInBytes: 0,
      nextOffset: options.baseOffset,
      firstBatchTimestamp: -1,
      lastModifiedMs: options.nowMs,
      createdMs: options.nowMs,
    };
  }

  get baseOffset(): number {
    return this.options.baseOffset;
  }
  /** The bytes of whole batches written (and, while open, readable). */
  get sizeInBytes(): number {
    return this.state.sizeInBytes;
  }
  /** The offset after the last batch, or the base offset when the segment is empty. */
  get nextOffset(): number {
    return this.state.nextOffset;
  }
  get stage(): SegmentFileStage {
    return this.currentStage;
  }
  get handle(): FileHandle {
    return this.files.log;
  }
  get path(): string {
    return this.state.logPath;
  }
  /** The offset index in memory (read only: the segment changes it). */
  get offsetIndex(): OffsetIndex {
    return this.files.offsetIndex.index;
  }
  /** The time index in memory (read only: the segment changes it). */
  get timeIndex(): TimeIndex {
    return this.files.timeIndex.index;
  }
  /** The largest batch maxTimestamp, or -1. */
  get maxTimestamp(): number {
    return this.indexing.maxTimestampSoFar;
  }

  rollState(): ActiveSegmentState {
    return {
      baseOffset: this.baseOffset,
      sizeInBytes: this.state.sizeInBytes,
      firstBatchTimestamp: this.state.firstBatchTimestamp,
      createdMs: this.state.createdMs,
      rollJitterMs: this.options.rollJitterMs,
      isOffsetIndexFull: this.offsetIndex.isFull(),
      isTimeIndexFull: this.timeIndex.isFull(),
    };
  }

  info(): SegmentInfo {
    const { nextOffset, sizeInBytes, lastModifiedMs } = this.state;
    const maxTimestamp = this.indexing.maxTimestampSoFar;
    const largestTimestamp = maxTimestamp >= 0 ? maxTimestamp : lastModifiedMs;
    const { baseOffset, path } = this;
    const sizes = { nextOffset, sizeInBytes, maxTimestamp };
    return { baseOffset, ...sizes, lastModifiedMs, largestTimestamp, path };
  }

  private loadTail(): Promise<{ nextOffset: number; isWhole: boolean }> {
    const tail = { ...this.state, baseOffset: this.baseOffset, indexing: this.indexing };
    return loadTail(this.files.log, this, tail);
  }

  /**
   * Reads what trusted indexes do not keep (see loadTail) and the first batch's timestamp;
   * false when the file does not end on a whole batch, which only a recovery may repair.
   */
  async loadState(lastModifiedMs: number): Promise<boolean> {
    this.state.lastModifiedMs = lastModifiedMs;
    const tail = await this.loadTail();
    this.state.nextOffset = tail.nextOffset;
    const size = this.state.sizeInBytes;
    this.state.firstBatchTimestamp = await readFirstBatchTimestamp(this.files.log, size);
    return tail.isWhole;
  }

  private async openFiles(): Promise<void> {
    await ensureDescriptor(this.files.log);
    await this.files.offsetIndex.openFile();
    await this.files.timeIndex.openFile();
  }

  /**
   * Opens the files a descriptor budget closed before an append changes anything, so that
   * running out of descriptors (EMFILE, ENFILE) refuses the appends of `group` and leaves the
   * log as it is instead of cutting a write short. True at once when every file is open (the
   * usual case, which awaits nothing); else resolves to false, with every append rejected, when
   * the files cannot be opened. Another error is the disk's: `onDiskError` fails the log.
   */
  openBeforeAppend(
    group: readonly { reject(error: unknown): void }[],
    onDiskError: (error: unknown) => void,
  ): true | Promise<boolean> {
    const { log, offsetIndex, timeIndex } = this.files;
    const isOpen = !lacksDescriptor(log) && !offsetIndex.lacksDescriptor;
    if (this.isClosed || (isOpen && !timeIndex.lacksDescriptor)) return true;
    return this.openFiles().then(
      () => true,
      (error: unknown) => {
        if (!isResourceExhaustion(error)) onDiskError(error);
        for (const each of group) each.reject(error);
        return false;
      },
    );
  }

  /**
   * Appends `pieces` (one vectored write), which hold `batches` back to back (complete, stamped,
   * offsets past nextOffset), at the end of the log file, adding index entries by Kafka's rule:
   * an offset entry once more than `index.interval.bytes` were written since the last.
   */
  async append(pieces: readonly Uint8Array[], batches: readonly AppendedBatch[], nowMs: number) {
    this.checkOpen();
    const [first, last] = [batches[0], batches[batches.length - 1]];
    assert(first !== undefined && last !== undefined, "an append holds at least one batch");
    assert(first.baseOffset >= this.state.nextOffset, "offsets increase");
    const startPosition = this.state.sizeInBytes;
    const entries = this.indexing.entriesFor(batches, startPosition);
    SegmentIndexing.addEntries(this.offsetIndex, this.timeIndex, entries);
    const writes: Promise<unknown>[] = [this.files.log.append(pieces)];
    if (entries.length > 0)
      writes.push(this.files.offsetIndex.entriesAdded(), this.files.timeIndex.entriesAdded());
    const [position] = await Promise.all(writes);
    assert(position === startPosition, `segment ${this.path} appends at its end`);
    if (startPosition === 0) this.state.firstBatchTimestamp = first.maxTimestamp;
    this.state.sizeInBytes = startPosition + last.offsetInInput + last.sizeInBytes;
    this.state.nextOffset = last.lastOffset + 1;
    this.state.lastModifiedMs = nowMs;
  }

  /**
   * The first batch whose last offset is >= `offset`, found from the offset index and a header
   * scan, or undefined when the segment ends before it. `startingPosition` skips the file head.
   */
  async translateOffset(offset: number, startingPosition = 0): Promise<ScannedBatch | undefined> {
    this.checkOpen();
    const range = { offset, startingPosition, endPosition: this.state.sizeInBytes };
    return findBatchHolding(this.files.log, this.offsetIndex, range);
  }

  /**
   * Removes every batch from the one holding `offset` on, and the index entries of those
   * offsets; resolves to the bytes cut. The next offset becomes `offset` or the base offset of
   * the first batch cut, whichever is lower.
   */
  async truncateTo(offset: number): Promise<number> {
    this.checkOpen();
    const cut = await this.translateOffset(offset);
    await this.files.offsetIndex.truncateTo(offset);
    await this.files.timeIndex.truncateTo(offset);
    if (cut === undefined) return 0;
    const truncatedBytes = this.state.sizeInBytes - cut.position;
    await this.files.log.truncate(cut.position);
    this.state.sizeInBytes = cut.position;
    this.state.nextOffset = Math.max(this.baseOffset, Math.min(offset, cut.baseOffset));
    // The largest timestamp may have been cut off: read it again from what is left.
    await this.loadTail();
    if (cut.position === 0) this.state.firstBatchTimestamp = -1;
    this.indexing.resetBytesSinceLastEntry();
    return truncatedBytes;
  }

  async readBytes(position: number, sizeInBytes: number): Promise<Uint8Array> {
    return readAt(this.files.log, position, sizeInBytes);
  }

  /** Done on a roll and before a clean close: final time index entry, trimmed index files. */
  async onBecomeInactive(): Promise<void> {
    this.checkOpen();
    this.indexing.addFinalTimeEntry(this.timeIndex);
    await this.files.offsetIndex.trimToValidSize();
    await this.files.timeIndex.trimToValidSize();
  }

  /** Makes the log file durable, and with `withIndexes` the index files too. */
  async flush(options: { readonly withIndexes: boolean }): Promise<void> {
    this.checkOpen();
    await this.files.log.sync();
    if (!options.withIndexes) return;
    await this.files.offsetIndex.flush();
    await this.files.timeIndex.flush();
  }

  /** Replaces both indexes by those a recovery rebuilt, and takes the state it found. */
  async replaceIndexes(rebuilt: RebuiltSegment): Promise<void> {
    this.checkOpen();
    await this.files.offsetIndex.abandon();
    await this.files.timeIndex.abandon();
    const indexes = await rewriteIndexFiles(this.options, this.currentStage, rebuilt);
    assert(indexes.indexSanity.kind === "sane", `rebuilt indexes of ${this.path} are sane`);
    this.files = { ...this.files, ...indexes };
    this.state.sizeInBytes = rebuilt.sizeInBytes;
    this.state.nextOffset = rebuilt.nextOffset;
    this.state.firstBatchTimestamp = rebuilt.firstBatchTimestamp;
    this.indexing.resetMaxTimestamp(rebuilt.maxTimestamp, rebuilt.offsetOfMaxTimestamp);
    this.indexing.resetBytesSinceLastEntry(rebuilt.bytesSinceLastIndexEntry);
  }

  /**
   * Renames the three files to `stage` (Kafka's changeFileSuffixes). The log handle follows the
   * file, not the name, so slices handed out before keep reading it.
   */
  async changeStage(stage: SegmentFileStage): Promise<void> {
    this.checkOpen();
    if (stage === this.currentStage) return;
    await renameIndexFiles(this.options, this.files, stage);
    const logPath = segmentFilePath(this.options, "log", stage);
    await this.options.fileSystem.rename(this.state.logPath, logPath);
    this.state.logPath = logPath;
    this.currentStage = stage;
  }

  /** Kafka's setLastModified, in memory only: the port cannot set a file's time. */
  setLastModifiedMs(lastModifiedMs: number): void {
    this.state.lastModifiedMs = lastModifiedMs;
  }

  /** Trims the indexes and closes every file. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await this.files.offsetIndex.close();
    await this.files.timeIndex.close();
    await this.files.log.close();
  }

  async deleteFiles(): Promise<void> {
    await this.close();
    await unlinkSegmentFiles(this.options, this.currentStage);
  }

  private checkOpen(): void {
    assert(!this.isClosed, `segment ${this.options.baseOffset} in ${this.options.dir} is open`);
  }
}
