/**
 * What the cleaner does with one batch, as Kafka's Cleaner decides per record and per batch:
 * a record stays when it is past the offset map (not covered by this pass), or when it is the
 * latest record of its key and either has a value or is a tombstone still inside its delete
 * horizon. Keyless records are dropped (Kafka counts them as invalid in a compacted log). A
 * tombstone that stays in a batch without a delete horizon makes the batch get one:
 * now + delete.retention.ms (KIP-534).
 *
 * Transactions (cleaned-transactions.ts says which batches may be discarded): a batch of an
 * aborted transaction loses all its records; an end marker whose transaction has no data left
 * first gets a delete horizon, as a tombstone does, and goes once it passed; other control
 * batches stay. The batch holding the last data of an active producer (or, when it has none,
 * its last marker of the current epoch) is kept, emptied if need be, so that the producer's
 * sequence and epoch survive (Kafka's BatchRetention.RETAIN_EMPTY); so is the pass's last batch,
 * the one ending at its first uncleanable offset, so that the offset it ends at is not lost. Pure.
 */
import type { DecodedBatch, DecodedRecord } from "../../protocol/index.js";
import type { LastRecordOfProducer } from "../producer-state/index.js";

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
   * Whether the batch holds the last record of an active producer that the producer state
   * needs (see the file comment): Kafka keeps such a batch, emptied if need be.
   */
  readonly isLastBatchOfProducer: boolean;
  /** Whether the batch ends where the pass does (at its first uncleanable offset). */
  readonly isLastBatchOfPass: boolean;
  /**
   * Whether the transaction walk lets the batch go: a batch of an aborted transaction, or an end
   * marker whose transaction has no data left (CleanedTransactions).
   */
  readonly isDiscardable: boolean;
}

/** Whether `batch` holds the last record of `last`, its producer's (Kafka's three cases). */
export function holdsLastRecord(
  batch: {
    readonly lastOffset: number;
    readonly isControl: boolean;
    readonly producerEpoch: number;
  },
  last: LastRecordOfProducer | undefined,
): boolean {
  if (last === undefined) return false;
  if (last.lastDataOffset !== undefined) return batch.lastOffset === last.lastDataOffset;
  return batch.isControl && batch.producerEpoch === last.producerEpoch;
}

function shouldRetain(batch: DecodedBatch, record: DecodedRecord, context: FilterContext): boolean {
  if (record.offset > context.mapLatestOffset) return true;
  if (record.key === null) return false;
  if (record.offset < context.latestOffsetOf(record.key)) return false;
  if (record.value !== null) return true;
  // A tombstone stays until its batch's delete horizon passes; the first pass sets one.
  return !batch.header.hasDeleteHorizon || context.nowMs < batch.header.deleteHorizonMs;
}

/** Whether the batch's records all go: discarded data, or a marker past its delete horizon. */
function discardsRecords(batch: DecodedBatch, context: FilterContext): boolean {
  const { header } = batch;
  if (!header.isControl) return context.isDiscardable;
  return (
    context.isDiscardable && header.hasDeleteHorizon && header.deleteHorizonMs <= context.nowMs
  );
}

export function filterBatch(batch: DecodedBatch, context: FilterContext): BatchDecision {
  const { header } = batch;
  const isDiscarded = discardsRecords(batch, context);
  const retainsEmpty =
    (header.producerId >= 0 && context.isLastBatchOfProducer) || context.isLastBatchOfPass;
  if (isDiscarded && !retainsEmpty) return { kind: "drop" };
  const retained = isDiscarded
    ? []
    : header.isControl
      ? batch.records
      : batch.records.filter((record) => shouldRetain(batch, record, context));
  const hasTombstones = !header.isControl && retained.some((record) => record.value === null);
  const isMarkerOfEmptyTransaction = header.isControl && context.isDiscardable;
  const needsHorizon = (hasTombstones || isMarkerOfEmptyTransaction) && !header.hasDeleteHorizon;
  if (retained.length === 0) {
    if (retainsEmpty) return { kind: "rewrite", records: [], deleteHorizonMs: undefined };
    return { kind: "drop" };
  }
  if (retained.length === batch.records.length && !needsHorizon) return { kind: "keep" };
  const deleteHorizonMs = needsHorizon
    ? context.nowMs + context.deleteRetentionMs
    : header.hasDeleteHorizon
      ? header.deleteHorizonMs
      : undefined;
  return { kind: "rewrite", records: retained, deleteHorizonMs };
}
