/**
 * One cleaning pass over one log, as Kafka's Cleaner.clean: build the offset map over the dirty
 * range, then recopy every segment below the end of the map, group by group, each group into a
 * `.cleaned` segment that the log swaps in for the group (PartitionLog.replaceSegments, Kafka's
 * .cleaned -> .swap -> live protocol). Offsets never change; only records are removed. Both
 * walks know the aborted transactions of what they read, from the log's `.txnindex` entries.
 */
import { assert } from "../../common/index.js";
import type { FileSystem } from "../../ports/index.js";
import type { LogConfig, TopicPartition } from "../log/log-config.js";
import type { PartitionLog } from "../log/log.driver.js";
import { buildOffsetMap } from "./build-offset-map.driver.js";
import type { CleanableRange } from "./cleanable-range.js";
import { segmentsOverlapping } from "./cleanable-range.js";
import { cleanGroup, type GroupStats } from "./clean-group.driver.js";
import type { OffsetMap } from "./offset-map.js";
import { CleanedTransactions } from "./cleaned-transactions.js";
import { CleanerReadError } from "./segment-batches.driver.js";
import type { SegmentReadOptions } from "./segment-batches.driver.js";
import { groupSegmentsBySize } from "./segment-groups.js";

/**
 * The parts of PartitionLog the cleaner uses: it cleans real logs, and a type made of the log's
 * own members cannot drift from them.
 */
export type CleanableLog = Pick<
  PartitionLog,
  | "topicPartition"
  | "dir"
  | "logStartOffset"
  | "logEndOffset"
  | "segments"
  | "replaceSegments"
  | "deleteOldSegments"
  | "transactions"
  | "transactionIndex"
  | "lastRecordsOfProducers"
>;

/** What one pass did. */
export interface CleaningStats extends GroupStats {
  readonly topicPartition: TopicPartition;
  readonly firstDirtyOffset: number;
  /** The new cleaner checkpoint: everything below it is clean. */
  readonly endOffset: number;
  /** Whether the offset map covered the whole dirty range. */
  readonly isComplete: boolean;
  readonly groupCount: number;
  /** Groups the log refused to swap in because it changed meanwhile. */
  readonly abandonedGroupCount: number;
}

export async function cleanLog(context: {
  readonly fileSystem: FileSystem;
  readonly log: CleanableLog;
  readonly config: LogConfig;
  readonly range: CleanableRange;
  readonly map: OffsetMap;
  readonly readOptions: SegmentReadOptions;
  readonly nowMs: number;
}): Promise<CleaningStats> {
  const { fileSystem, log, range, readOptions } = context;
  const all = log.segments();
  const active = all[all.length - 1];
  assert(active !== undefined, "a log has an active segment");
  const inactive = all.slice(0, -1);
  const dirty = segmentsOverlapping(inactive, range.firstDirtyOffset, range.firstUncleanableOffset);
  const { firstDirtyOffset, firstUncleanableOffset } = range;
  const abortedOfDirty = log.transactionIndex.collect(firstDirtyOffset, firstUncleanableOffset);
  const mapped = await buildOffsetMap(fileSystem, dirty, range, context.map, readOptions, {
    aborted: abortedOfDirty,
  });
  if (mapped.endOffset <= range.firstDirtyOffset) {
    throw new CleanerReadError(log.dir, 0, "the offset map cannot hold even one key");
  }
  const toClean = segmentsOverlapping(inactive, -1, mapped.endOffset);
  assert(
    toClean.every((segment) => segment.baseOffset < active.baseOffset),
    "never the active",
  );
  const transactions = new CleanedTransactions(
    log.transactionIndex.collect(log.logStartOffset, mapped.endOffset),
  );
  const lastRecords = log.lastRecordsOfProducers();
  const groupContext = {
    ...{ ...context, dir: log.dir, lastRecords, transactions },
    upperBoundOffset: firstUncleanableOffset,
  };
  const totals: GroupStats = { bytesRead: 0, bytesWritten: 0, recordsRead: 0, recordsRetained: 0 };
  const groups = groupSegmentsBySize(toClean, context.config.segmentBytes);
  let abandonedGroupCount = 0;
  for (const group of groups) {
    const { segment, stats, keptAborts } = await cleanGroup(groupContext, group);
    const oldBaseOffsets = group.map((old) => old.baseOffset);
    const isSwapped = await log.replaceSegments([segment], oldBaseOffsets, keptAborts);
    if (!isSwapped) abandonedGroupCount++;
    totals.bytesRead += stats.bytesRead;
    totals.bytesWritten += stats.bytesWritten;
    totals.recordsRead += stats.recordsRead;
    totals.recordsRetained += stats.recordsRetained;
  }
  return {
    ...totals,
    topicPartition: log.topicPartition,
    firstDirtyOffset: range.firstDirtyOffset,
    endOffset: mapped.endOffset,
    isComplete: mapped.isComplete,
    groupCount: groups.length,
    abandonedGroupCount,
  };
}
