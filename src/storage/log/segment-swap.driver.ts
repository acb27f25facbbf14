/**
 * The last steps of the cleaner's swap (Kafka's replaceSegments), once the log has checked that
 * the cleaned segments cover exactly the old ones: the cleaned files become `.swap` durably, the
 * log's list takes them in place of the old segments, the old ones go to `.deleted`, then the
 * swap files go live. A crash between the steps is completed or rolled back at the next load.
 * Before, the `.txnindex` files of the old segments give way to those of the aborted
 * transactions the cleaner kept, each in the file of the new segment holding its marker.
 */
import { assert } from "../../common/index.js";
import type { FileSystem, Logger } from "../../ports/index.js";
import type { LogSegment } from "./log-segment.driver.js";
import { isCoveredBy, type SegmentList } from "./segment-list.js";
import type { AbortedTransaction, TransactionIndex } from "./transaction-index.driver.js";

/** What the swap changes of the log. */
export interface SwappedLog {
  readonly fileSystem: FileSystem;
  readonly dir: string;
  readonly logger: Logger;
  readonly segmentList: SegmentList<LogSegment>;
  readonly transactionIndex: TransactionIndex;
  /** Removes replaced segments from use: renamed `.deleted`, deleted after the delay. */
  readonly removeReplaced: (segments: readonly LogSegment[]) => Promise<void>;
}

/**
 * Swaps `newSegments` (stage "cleaned") in for the inactive segments at `oldBaseOffsets`, with
 * `keptAborts` as their aborted transactions; false, deleting the new segments, when the log no
 * longer holds exactly those old segments.
 */
export async function replaceWithCleaned(
  newSegments: readonly LogSegment[],
  oldBaseOffsets: readonly number[],
  keptAborts: readonly AbortedTransaction[],
  log: SwappedLog,
): Promise<boolean> {
  const sorted = [...newSegments].sort((a, b) => a.baseOffset - b.baseOffset);
  for (const segment of sorted)
    assert(segment.stage === "cleaned", "swapped-in segments are cleaned ones");
  const old = log.segmentList.inactiveRunAt(oldBaseOffsets);
  if (old === undefined || !isCoveredBy(sorted, old)) {
    for (const segment of sorted) await segment.deleteFiles();
    const fields = { dir: log.dir, oldBaseOffsets: oldBaseOffsets.join(",") };
    log.logger.info("dropped a cleaned group: the log changed while it was cleaned", fields);
    return false;
  }
  const kept = keptAborts.map((aborted) => {
    const holding = sorted.filter((segment) => segment.baseOffset <= aborted.lastOffset).at(-1);
    assert(holding !== undefined, "a kept marker is in a cleaned segment");
    return { ...aborted, segmentBaseOffset: holding.baseOffset };
  });
  await log.transactionIndex.replaceSegments(oldBaseOffsets, kept);
  await swapInCleaned(sorted, old, log);
  return true;
}

async function swapInCleaned(
  sorted: readonly LogSegment[],
  old: readonly LogSegment[],
  log: SwappedLog,
): Promise<void> {
  // Kafka keeps the last old segment's modification time, so cleaning never resets the clock
  // of time-based retention for segments without timestamps.
  const lastModifiedMs = (old[old.length - 1] as LogSegment).info().lastModifiedMs;
  for (const segment of sorted) {
    await segment.flush({ withIndexes: true });
    await segment.changeStage("swap");
    segment.setLastModifiedMs(lastModifiedMs);
  }
  await log.fileSystem.syncDirectory(log.dir);
  const kept = log.segmentList.all().filter((segment) => !old.includes(segment));
  log.segmentList.replaceAll([...kept, ...sorted]);
  await log.removeReplaced(old);
  for (const segment of sorted) await segment.changeStage("live");
  await log.fileSystem.syncDirectory(log.dir);
}
