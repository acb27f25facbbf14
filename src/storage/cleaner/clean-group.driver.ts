/**
 * Cleans one group of segments into one new segment in stage "cleaned", as Kafka's
 * Cleaner.cleanSegments: every batch of the group is kept, re-encoded with fewer records, or
 * dropped (batch-filter.ts); the survivors are appended with their original offsets to a new
 * segment based at the group's first base offset, whose indexes are built as the log builds them.
 * The pass's transaction walk (cleaned-transactions.ts) goes on from group to group; the aborted
 * transactions whose markers a group kept become the cleaned segment's `.txnindex` entries.
 */
import type { FileSystem } from "../../ports/index.js";
import { readBatchHeader } from "../../protocol/index.js";
import { assert } from "../../common/index.js";
import type { LogConfig } from "../log/log-config.js";
import { LogSegment } from "../log/log-segment.driver.js";
import type { SegmentInfo } from "../log/log-segment.driver.js";
import type { AppendedBatch } from "../log/segment-indexing.js";
import type { LastRecordOfProducer } from "../producer-state/index.js";
import type { AbortedTransaction } from "../log/transaction-index.driver.js";
import { filterBatch, holdsLastRecord } from "./batch-filter.js";
import type { CleanedTransactions } from "./cleaned-transactions.js";
import type { OffsetMap } from "./offset-map.js";
import { encodeRetainedBatch } from "./retained-batch.js";
import {
  decodeSegmentBatch,
  readSegmentBatches,
  type SegmentBatch,
  type SegmentReadOptions,
} from "./segment-batches.driver.js";

/** What cleaning a group reads besides the group. */
export interface GroupCleaning {
  readonly fileSystem: FileSystem;
  readonly dir: string;
  readonly config: LogConfig;
  readonly nowMs: number;
  readonly map: OffsetMap;
  readonly readOptions: SegmentReadOptions;
  /** Each producer's last record, which stays (the log's producer state). */
  readonly lastRecords: ReadonlyMap<number, LastRecordOfProducer>;
  readonly transactions: CleanedTransactions;
  /** The pass's first uncleanable offset, where its last batch ends. */
  readonly upperBoundOffset: number;
}

/** Counts of one cleaned group, for the cleaner's report. */
export interface GroupStats {
  bytesRead: number;
  bytesWritten: number;
  recordsRead: number;
  recordsRetained: number;
}

/** Output batches waiting to be appended together. */
class PendingAppend {
  chunks: Uint8Array[] = [];
  batches: AppendedBatch[] = [];
  bytes = 0;

  add(bytes: Uint8Array): void {
    const read = readBatchHeader(bytes);
    assert(read.ok, "the cleaner writes only well-framed batches");
    const { header } = read;
    this.batches.push({
      offsetInInput: this.bytes,
      sizeInBytes: bytes.length,
      baseOffset: header.baseOffset,
      lastOffset: header.lastOffset,
      maxTimestamp: header.maxTimestamp,
    });
    this.chunks.push(bytes);
    this.bytes += bytes.length;
  }

  async flushTo(segment: LogSegment, nowMs: number): Promise<void> {
    if (this.batches.length === 0) return;
    // One vectored write of the batches as they are, not a joined copy.
    await segment.append(this.chunks, this.batches, nowMs);
    this.chunks = [];
    this.batches = [];
    this.bytes = 0;
  }
}

/** The bytes to write for one batch of the group, or undefined to drop it. */
function cleanBatch(
  context: GroupCleaning,
  path: string,
  batch: SegmentBatch,
  stats: GroupStats,
): Uint8Array | undefined {
  const decoded = decodeSegmentBatch(path, batch, context.readOptions);
  const { header } = decoded;
  const decision = filterBatch(decoded, {
    latestOffsetOf: (key) => context.map.get(key),
    mapLatestOffset: context.map.latestOffset,
    nowMs: context.nowMs,
    deleteRetentionMs: context.config.deleteRetentionMs,
    isLastBatchOfProducer: holdsLastRecord(header, context.lastRecords.get(header.producerId)),
    isLastBatchOfPass: header.lastOffset + 1 === context.upperBoundOffset,
    isDiscardable: context.transactions.onRead(header, decoded.records),
  });
  stats.recordsRead += decoded.records.length;
  switch (decision.kind) {
    case "keep":
      stats.recordsRetained += decoded.records.length;
      return batch.bytes.slice();
    case "rewrite":
      stats.recordsRetained += decision.records.length;
      return encodeRetainedBatch(header, decision.records, decision.deleteHorizonMs);
    case "drop":
      return undefined;
  }
}

/**
 * Writes the cleaned copy of `group` as a new segment in stage "cleaned", flushed with its
 * indexes; the caller swaps it in or deletes it.
 */
export async function cleanGroup(
  context: GroupCleaning,
  group: readonly SegmentInfo[],
): Promise<{ segment: LogSegment; stats: GroupStats; keptAborts: AbortedTransaction[] }> {
  const first = group[0];
  assert(first !== undefined, "a group has a segment");
  const segment = await LogSegment.create(
    {
      fileSystem: context.fileSystem,
      dir: context.dir,
      baseOffset: first.baseOffset,
      segmentIndexBytes: context.config.segmentIndexBytes,
      indexIntervalBytes: context.config.indexIntervalBytes,
      rollJitterMs: 0,
      nowMs: context.nowMs,
    },
    "cleaned",
  );
  const stats: GroupStats = { bytesRead: 0, bytesWritten: 0, recordsRead: 0, recordsRetained: 0 };
  try {
    await copyRetained(context, group, segment, stats);
    await segment.onBecomeInactive();
    await segment.flush({ withIndexes: true });
  } catch (error) {
    await segment.deleteFiles();
    throw error;
  }
  return { segment, stats, keptAborts: context.transactions.takeKeptAborts() };
}

async function copyRetained(
  context: GroupCleaning,
  group: readonly SegmentInfo[],
  segment: LogSegment,
  stats: GroupStats,
): Promise<void> {
  const pending = new PendingAppend();
  for (const source of group) {
    for await (const batch of readSegmentBatches(context.fileSystem, source, context.readOptions)) {
      stats.bytesRead += batch.bytes.length;
      const output = cleanBatch(context, source.path, batch, stats);
      if (output === undefined) continue;
      pending.add(output);
      stats.bytesWritten += output.length;
      if (pending.bytes >= context.readOptions.ioBufferBytes) {
        await pending.flushTo(segment, context.nowMs);
      }
    }
  }
  await pending.flushTo(segment, context.nowMs);
}
