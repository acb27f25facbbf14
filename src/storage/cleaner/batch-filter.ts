/**
 * What the cleaner does with one batch, as Kafka's Cleaner decides per record and per batch:
 * a record stays when it is past the offset map (not covered by this pass), or when it is the
 * latest record of its key and either has a value or is a tombstone still inside its delete
 * horizon. Keyless records are dropped (Kafka counts them as invalid in a compacted log). A
 * tombstone that stays in a batch without a delete horizon makes the batch get one:
 * now + delete.retention.ms (KIP-534). Pure.
 *
 * Transactions are not modelled yet (no aborted-transaction index), so control batches and
 * transactional batches are kept whole, and transactional records never enter the offset map:
 * an aborted record must not hide a committed one. Kafka removes aborted data and old markers.
 */
import type { DecodedBatch, DecodedRecord } from "../../protocol/index.js";

/** What to write for a batch. */
export type BatchDecision =
  /** Copy the original bytes: every record stays and nothing needs a delete horizon. */
  | { readonly kind: "keep" }
  /** Re-encode with these records (possibly none: an idempotent producer's last batch). */
  | {
      readonly kind: "rewrite";
      readonly records: readonly DecodedRecord[];
      readonly deleteHorizonMs: number | undefined;
    }
  /** Leave the batch out. */
  | { readonly kind: "drop" };

/** What the filter reads besides the batch. */
export interface FilterContext {
  /** The latest offset of a key in the offset map, or -1. */
  readonly latestOffsetOf: (key: Uint8Array) => number;
  /** The last offset the offset map covers; records after it are kept as they are. */
  readonly mapLatestOffset: number;
  readonly nowMs: number;
  readonly deleteRetentionMs: number;
  /**
   * Whether no later batch of this batch's producer is in the range being cleaned: Kafka keeps
   * such a batch, emptied, so the producer's sequence state survives (BatchRetention.RETAIN_EMPTY).
   */
  readonly isLastBatchOfProducer: boolean;
}

/** Whether a batch must be kept untouched whatever its records say. */
export function isKeptWhole(batch: DecodedBatch): boolean {
  return batch.header.isControl || batch.header.isTransactional;
}

function shouldRetain(batch: DecodedBatch, record: DecodedRecord, context: FilterContext): boolean {
  if (record.offset > context.mapLatestOffset) return true;
  if (record.key === null) return false;
  if (record.offset < context.latestOffsetOf(record.key)) return false;
  if (record.value !== null) return true;
  // A tombstone stays until its batch's delete horizon passes; the first pass sets one.
  return !batch.header.hasDeleteHorizon || context.nowMs < batch.header.deleteHorizonMs;
}

export function filterBatch(batch: DecodedBatch, context: FilterContext): BatchDecision {
  if (isKeptWhole(batch)) return { kind: "keep" };
  const retained = batch.records.filter((record) => shouldRetain(batch, record, context));
  const hasTombstones = retained.some((record) => record.value === null);
  const needsHorizon = hasTombstones && !batch.header.hasDeleteHorizon;
  if (retained.length === batch.records.length && !needsHorizon) return { kind: "keep" };
  if (retained.length === 0) {
    const isIdempotent = batch.header.producerId >= 0;
    if (isIdempotent && context.isLastBatchOfProducer) {
      return { kind: "rewrite", records: [], deleteHorizonMs: undefined };
    }
    return { kind: "drop" };
  }
  const deleteHorizonMs = needsHorizon
    ? context.nowMs + context.deleteRetentionMs
    : batch.header.hasDeleteHorizon
      ? batch.header.deleteHorizonMs
      : undefined;
  return { kind: "rewrite", records: retained, deleteHorizonMs };
}
