/**
 * Rebuilds a partition's producer state from its batches (Kafka's ProducerStateManager reload
 * without a snapshot): every batch header from the first segment to the log end, in order, taken
 * in as a replicated batch is. Runs when the log opens and after a truncation, so a follower
 * that becomes leader, or a restarted broker, answers retries as the old leader did for every
 * producer whose batches the log still holds.
 */
import { isProducerBatch, type ProducerStateManager } from "../producer-state/index.js";
import { scanBatches } from "./batch-scan.driver.js";
import type { LogSegment } from "./log-segment.driver.js";

/** Clears `producers` and takes in every producer batch of `segments` (oldest first). */
export async function loadProducerState(
  producers: ProducerStateManager,
  segments: readonly LogSegment[],
): Promise<void> {
  producers.clear();
  for (const segment of segments) {
    const range = { fromPosition: 0, endPosition: segment.sizeInBytes };
    await scanBatches(segment.handle, range, (batch) => {
      if (!isProducerBatch(batch)) return true;
      producers.update({
        producerId: batch.producerId,
        producerEpoch: batch.producerEpoch,
        baseSequence: batch.baseSequence,
        lastOffsetDelta: batch.lastOffset - batch.baseOffset,
        baseOffset: batch.baseOffset,
        maxTimestamp: batch.maxTimestamp,
      });
      return true;
    });
  }
}
