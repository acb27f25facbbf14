/**
 * The first step of a cleaning pass: fill the offset map with the latest offset of every key in
 * the dirty range, segment by segment, as Kafka's Cleaner.buildOffsetMap. When the map fills,
 * the pass stops there and cleans only up to the last offset mapped; the rest stays dirty for
 * the next pass. As Kafka's, batches of aborted transactions (per the aborted transactions of
 * the range, walked as the cleaning walks them) and control batches put nothing in the map:
 * an aborted record must not hide a committed one. Committed transactional records take part.
 */
import type { FileSystem } from "../../ports/index.js";
import type { SegmentInfo } from "../log/log-segment.driver.js";
import type { OffsetMap } from "./offset-map.js";
import type { AbortedTransaction } from "../log/transaction-index.driver.js";
import { CleanedTransactions } from "./cleaned-transactions.js";
import {
  decodeSegmentBatch,
  readSegmentBatches,
  type SegmentReadOptions,
} from "./segment-batches.driver.js";

/** How far the map reaches: the pass cleans [log start, endOffset). */
export interface OffsetMapResult {
  /** The offset after the last one the map covers. */
  readonly endOffset: number;
  /** Whether the map covers the whole dirty range. */
  readonly isComplete: boolean;
}

/**
 * Fills `map` from the dirty segments (those overlapping [firstDirtyOffset,
 * firstUncleanableOffset), whole segments) and says where the pass ends.
 */
export async function buildOffsetMap(
  fileSystem: FileSystem,
  dirtySegments: readonly SegmentInfo[],
  range: { readonly firstDirtyOffset: number; readonly firstUncleanableOffset: number },
  map: OffsetMap,
  options: SegmentReadOptions,
  transactions: { readonly aborted: readonly AbortedTransaction[] },
): Promise<OffsetMapResult> {
  map.clear();
  const walk = { map, options, transactions: new CleanedTransactions(transactions.aborted) };
  for (const segment of dirtySegments) {
    const isFull = await mapSegment(fileSystem, segment, range.firstDirtyOffset, walk);
    if (isFull) return { endOffset: map.latestOffset + 1, isComplete: false };
  }
  return { endOffset: range.firstUncleanableOffset, isComplete: true };
}

/** Maps one segment's keys at or after `startOffset`; resolves to true when the map filled. */
async function mapSegment(
  fileSystem: FileSystem,
  segment: SegmentInfo,
  startOffset: number,
  walk: {
    readonly map: OffsetMap;
    readonly options: SegmentReadOptions;
    readonly transactions: CleanedTransactions;
  },
): Promise<boolean> {
  const { map, options, transactions } = walk;
  for await (const batch of readSegmentBatches(fileSystem, segment, options)) {
    const { header } = batch;
    if (header.isControl) {
      const decoded = decodeSegmentBatch(segment.path, batch, options);
      transactions.onRead(header, decoded.records);
    } else if (!transactions.onBatchRead(header) && header.lastOffset >= startOffset) {
      const decoded = decodeSegmentBatch(segment.path, batch, options);
      for (const record of decoded.records) {
        if (record.key === null || record.offset < startOffset) continue;
        if (!map.hasRoomFor(record.key)) return true;
        map.put(record.key, record.offset);
      }
    }
    map.markScannedThrough(batch.header.lastOffset);
  }
  return false;
}
