/**
 * Rebuilds a partition's producer state (Kafka's ProducerStateManager reload): the producers of
 * the latest usable snapshot, then every batch header from the snapshot's offset (or the first
 * segment, without one) to the log end, in order, taken in as a replicated batch is. Runs when
 * the log opens and after a truncation, so a follower that becomes leader, or a restarted
 * broker, answers retries as the old leader did.
 *
 * A segment whose newest batch is `producer.id.expiration.ms` old is not read: every producer
 * whose last batch lies there is expired at the first check anyway, and a live producer loses
 * only the retained metadata of its batches from that long ago, which no retry can still need.
 * So opening a log reads the headers of about a day of data, not of the whole log.
 */
import type { Clock } from "../../ports/index.js";
import { isProducerBatch, type ProducerStateManager } from "../producer-state/index.js";
import { readAt, scanBatches, type ScannedBatch } from "./batch-scan.driver.js";
import { markerOfBytes } from "./producer-append.js";
import type { LogConfig } from "./log-config.js";
import type { LogSegment } from "./log-segment.driver.js";
import type { LoadedSnapshot } from "./producer-snapshots.driver.js";
import {
  abortedOf,
  type AbortedTransaction,
  type IndexedAbort,
} from "./transaction-index.driver.js";

/**
 * Clears `producers` and takes in the producer batches of `segments` (oldest first): data
 * batches, whose transactional ones open their producer's transaction, and end markers, which
 * close it (read back from the file, as their coordinator epoch is in the record). Resolves to
 * the transactions the ABORT markers read ended, for the transaction index.
 */
export async function loadProducerState(
  producers: ProducerStateManager,
  segments: readonly LogSegment[],
  clock: Clock,
  config: Pick<LogConfig, "producerIdExpirationMs">,
  snapshot?: LoadedSnapshot,
): Promise<IndexedAbort[]> {
  producers.clear();
  const aborted: IndexedAbort[] = [];
  const expiredBeforeMs = clock.nowMs() - config.producerIdExpirationMs;
  for (const { producerId, entry } of snapshot?.producers ?? []) {
    // A producer with an ongoing transaction never expires (Kafka's isProducerExpired).
    const mayExpire = entry.currentTxnFirstOffset === undefined;
    if (mayExpire && entry.lastTimestamp <= expiredBeforeMs) continue;
    producers.restore(producerId, entry);
  }
  const fromOffset = snapshot?.offset ?? -1;
  for (const segment of segments) {
    if (segment.nextOffset <= fromOffset) continue;
    // -1: no timestamp known, so the segment is read.
    if (segment.maxTimestamp >= 0 && segment.maxTimestamp < expiredBeforeMs) continue;
    const range = { fromPosition: 0, endPosition: segment.sizeInBytes };
    const taken: ScannedBatch[] = [];
    await scanBatches(segment.handle, range, (batch) => {
      const isMarker = batch.isControl && batch.isTransactional && batch.producerId >= 0;
      const isTaken = batch.baseOffset >= fromOffset && (isMarker || isProducerBatch(batch));
      if (isTaken) taken.push(batch);
      return true;
    });
    for (const batch of taken) {
      const abort = await takeIn(producers, segment, batch);
      if (abort !== undefined) aborted.push({ ...abort, segmentBaseOffset: segment.baseOffset });
    }
  }
  return aborted;
}

async function takeIn(
  producers: ProducerStateManager,
  segment: LogSegment,
  batch: ScannedBatch,
): Promise<AbortedTransaction | undefined> {
  if (batch.isControl) {
    const marker = markerOfBytes(await readAt(segment.handle, batch.position, batch.sizeInBytes));
    if (marker === undefined) return undefined;
    const done = producers.completeTransaction({
      producerId: batch.producerId,
      producerEpoch: batch.producerEpoch,
      coordinatorEpoch: marker.coordinatorEpoch,
      offset: batch.baseOffset,
      timestamp: batch.maxTimestamp,
    });
    if (done === undefined || marker.type !== "abort") return undefined;
    return abortedOf(
      [{ completed: [{ ...done, isAborted: true }] }],
      producers.firstUndecidedOffset(),
    )[0];
  }
  producers.update({
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    baseSequence: batch.baseSequence,
    lastOffsetDelta: batch.lastOffset - batch.baseOffset,
    baseOffset: batch.baseOffset,
    maxTimestamp: batch.maxTimestamp,
    isTransactional: batch.isTransactional,
  });
  return undefined;
}
