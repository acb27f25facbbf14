/**
 * The partition's producer state at the log's append (Kafka's
 * UnifiedLog.analyzeAndValidateProducerState): a leader's input is checked batch by batch before
 * it takes offsets, and every batch written, by leader or follower, updates the state. Both run
 * while the group is planned, in arrival order, so a retry coalesced with its original in one
 * group is found too. A write that fails after planning fails the log, so the state never
 * outlives a batch that was not written. Pure.
 */
import { isProducerBatch, type ProducerStateManager } from "../producer-state/index.js";
import type { FramedBatch } from "./append-batches.js";
import type { AppendRefusal } from "./log-errors.js";

/** The refusal of a leader's (client's) batches by the producer rules, or undefined. */
export function checkProducerBatches(
  batches: readonly FramedBatch[],
  producers: ProducerStateManager,
): AppendRefusal | undefined {
  for (const batch of batches) {
    if (!isProducerBatch(batch.header)) continue;
    const { header } = batch;
    const check = producers.checkClientBatch({
      producerId: header.producerId,
      producerEpoch: header.producerEpoch,
      baseSequence: header.baseSequence,
      lastOffsetDelta: header.lastOffsetDelta,
    });
    if (check.kind === "duplicate") return { kind: "duplicateSequence", ...check.original };
    if (check.kind === "refused") return { ...check, kind: "producerRefused" };
  }
  return undefined;
}

/** Records `batches`, which now have their offsets, in the producer state. */
export function recordProducerBatches(
  batches: readonly FramedBatch[],
  producers: ProducerStateManager,
): void {
  for (const batch of batches) {
    if (!isProducerBatch(batch.header)) continue;
    const { header } = batch;
    producers.update({
      producerId: header.producerId,
      producerEpoch: header.producerEpoch,
      baseSequence: header.baseSequence,
      lastOffsetDelta: header.lastOffsetDelta,
      baseOffset: batch.baseOffset,
      maxTimestamp: batch.maxTimestamp,
    });
  }
}
