/**
 * A small segmented log for the cleaner's tests, built from the log's own LogSegment, standing
 * in for PartitionLog until it exists: appends roll at segment.bytes, and replaceSegments follows
 * the swap protocol proposed in NOTES-for-log.md (.cleaned -> .swap, old -> .deleted, .swap ->
 * live), so that crash tests can stop it at any file-system call.
 */
import { assert, joinPath } from "../../common/index.js";
import type { FileSystem } from "../../ports/index.js";
import { encodeBatch, type NewRecord } from "../../protocol/index.js";
import { defaultLogConfig, type LogConfig, type TopicPartition } from "../log/log-config.js";
import { LogSegment, type SegmentOptions } from "../log/log-segment.driver.js";
import type { SegmentInfo } from "../log/log-types.js";
import type { CleanableLog } from "./clean-log.driver.js";
import { decodeSegmentBatch, readSegmentBatches } from "./segment-batches.driver.js";

/** The folders above `dir`, outermost first ("/a/b/c" gives "/a", "/a/b"). */
function ancestorsOf(dir: string): string[] {
  const parts = dir.split("/").filter((part) => part !== "");
  return parts.slice(0, -1).map((_, index) => `/${parts.slice(0, index + 1).join("/")}`);
}

/** A record as a consumer sees it, for comparisons. */
export interface SeenRecord {
  readonly offset: number;
  readonly key: string | null;
  readonly value: string | null;
}

const text = new TextDecoder();
export const READ_OPTIONS = {
  ioBufferBytes: 4096,
  maxBatchBytes: 1 << 20,
  maxDecompressedBytes: 1 << 22,
};

/** The test log. */
export class TestLog implements CleanableLog {
  readonly topicPartition: TopicPartition = { topic: "compacted", partition: 0 };
  private list: LogSegment[] = [];

  private constructor(
    readonly fileSystem: FileSystem,
    readonly dir: string,
    readonly config: LogConfig,
  ) {}

  static async create(
    fileSystem: FileSystem,
    dir: string,
    config: Partial<LogConfig>,
  ): Promise<TestLog> {
    await fileSystem.mkdir(dir, { recursive: true });
    // The folders themselves must survive a simulated crash.
    for (const parent of ["/", ...ancestorsOf(dir)]) await fileSystem.syncDirectory(parent);
    const log = new TestLog(fileSystem, dir, { ...defaultLogConfig, ...config });
    log.list.push(await LogSegment.create(log.optionsFor(0, 0)));
    await fileSystem.syncDirectory(dir);
    return log;
  }

  optionsFor(baseOffset: number, nowMs: number): SegmentOptions {
    return {
      fileSystem: this.fileSystem,
      dir: this.dir,
      baseOffset,
      segmentIndexBytes: this.config.segmentIndexBytes,
      indexIntervalBytes: this.config.indexIntervalBytes,
      rollJitterMs: 0,
      nowMs,
    };
  }

  get active(): LogSegment {
    return this.list[this.list.length - 1] as LogSegment;
  }
  get logStartOffset(): number {
    return (this.list[0] as LogSegment).baseOffset;
  }
  get logEndOffset(): number {
    return this.active.nextOffset;
  }

  segments(): readonly SegmentInfo[] {
    return this.list.map((segment) => segment.info());
  }

  /** Appends one batch of `records` at the log end, rolling first when it would not fit. */
  async append(records: readonly NewRecord[], nowMs: number): Promise<void> {
    const baseOffset = this.logEndOffset;
    const batch = encodeBatch({
      baseOffset,
      partitionLeaderEpoch: 0,
      compression: "none",
      timestampType: "createTime",
      isTransactional: false,
      isControl: false,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      records,
    });
    if (
      this.active.sizeInBytes > 0 &&
      this.active.sizeInBytes + batch.length > this.config.segmentBytes
    ) {
      await this.active.onBecomeInactive();
      await this.active.flush({ withIndexes: true });
      this.list.push(await LogSegment.create(this.optionsFor(baseOffset, nowMs)));
      await this.fileSystem.syncDirectory(this.dir);
    }
    const lastOffset = baseOffset + records.length - 1;
    const maxTimestamp = Math.max(...records.map((record) => record.timestamp));
    const appended = {
      offsetInInput: 0,
      sizeInBytes: batch.length,
      baseOffset,
      lastOffset,
      maxTimestamp,
    };
    await this.active.append(batch, [appended], nowMs);
    await this.active.flush({ withIndexes: true });
  }

  async replaceSegments(
    newSegments: readonly LogSegment[],
    oldBaseOffsets: readonly number[],
  ): Promise<boolean> {
    for (const segment of newSegments) await segment.changeStage("swap");
    await this.fileSystem.syncDirectory(this.dir);
    const old = this.list.filter((segment) => oldBaseOffsets.includes(segment.baseOffset));
    assert(old.length === oldBaseOffsets.length, "the old segments are in the log");
    for (const segment of old) await segment.changeStage("deleted");
    const kept = this.list.filter((segment) => !old.includes(segment));
    this.list = [...kept, ...newSegments].sort((a, b) => a.baseOffset - b.baseOffset);
    for (const segment of newSegments) await segment.changeStage("live");
    await this.fileSystem.syncDirectory(this.dir);
    for (const segment of old) await segment.deleteFiles();
    await this.fileSystem.syncDirectory(this.dir);
    return true;
  }

  async deleteOldSegments(): Promise<number> {
    return 0;
  }
}

/** Every record of the live `.log` files in `dir`, in offset order. */
export async function readLiveRecords(fileSystem: FileSystem, dir: string): Promise<SeenRecord[]> {
  const names = (await fileSystem.readdir(dir)).filter((name) => /^\d{20}\.log$/.test(name));
  const records: SeenRecord[] = [];
  for (const name of names.sort()) {
    const path = joinPath(dir, name);
    const handle = await fileSystem.open(path, { readOnly: true });
    const sizeInBytes = await handle.size();
    await handle.close();
    for await (const batch of readSegmentBatches(fileSystem, { path, sizeInBytes }, READ_OPTIONS)) {
      for (const record of decodeSegmentBatch(path, batch, READ_OPTIONS).records) {
        records.push({
          offset: record.offset,
          key: record.key === null ? null : text.decode(record.key),
          value: record.value === null ? null : text.decode(record.value),
        });
      }
    }
  }
  return records;
}
