/**
 * The idempotent producers of one partition (Kafka's ProducerStateManager with its
 * ProducerStateEntry and ProducerAppendInfo rules, KIP-98 and KIP-360), pure: per producer id the
 * epoch, the metadata of its last BATCHES_RETAINED batches and the timestamp of its last batch.
 *
 * A leader asks `checkClientBatch` before it gives a produced batch offsets: a retry of one of
 * the retained batches is a duplicate (answered with the original offsets, nothing written), an
 * older epoch is INVALID_PRODUCER_EPOCH, a sequence that does not follow the last one is
 * OUT_OF_ORDER_SEQUENCE_NUMBER. Every batch the log takes, from a client or from the leader,
 * goes through `update`. A producer unknown to the partition (new, expired, or whose batches
 * retention removed) may start at any sequence, as in Kafka since KIP-360, so UNKNOWN_PRODUCER_ID
 * is never answered. Producers whose last batch is `producer.id.expiration.ms` old are removed
 * (KIP-854), at most once per PRODUCER_EXPIRATION_CHECK_INTERVAL_MS. A completed transaction
 * keeps the last stable offset below its first offset until the high watermark passes its marker.
 */
import { ErrorCode } from "../../common/index.js";
import { isInSequence, lastSequenceOf, type ProducerBatchHeader } from "./producer-batch.js";
import { TransactionVerifications } from "./transaction-verifications.js";

/** How many of a producer's latest batches are kept for duplicate detection (Kafka's). */
export const BATCHES_RETAINED = 5;

/** Kafka's `producer.id.expiration.check.interval.ms` default. */
export const PRODUCER_EXPIRATION_CHECK_INTERVAL_MS = 600_000;

const [NO_PRODUCER_EPOCH, NO_SEQUENCE] = [-1, -1];

/** A batch the log holds, with its offsets and maxTimestamp. */
export interface ProducerBatch extends ProducerBatchHeader {
  readonly baseOffset: number;
  readonly maxTimestamp: number;
  /** A batch of a transaction (KIP-98): it starts the producer's transaction if none is. */
  readonly isTransactional?: boolean;
}

/** An end marker (COMMIT or ABORT control batch) of a producer's transaction. */
export interface MarkerBatch {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly offset: number;
  readonly timestamp: number;
}

/** The offsets of a transaction an end marker completed (Kafka's CompletedTxn). */
export interface CompletedTransaction {
  readonly producerId: number;
  readonly firstOffset: number;
  /** The offset of the marker. */
  readonly lastOffset: number;
}

/** What is kept of one retained batch (Kafka's BatchMetadata). */
export interface BatchMetadata {
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly timestamp: number;
}

/** One producer's state on this partition. */
export interface ProducerEntry {
  readonly producerEpoch: number;
  /** Oldest first, at most BATCHES_RETAINED, all of `producerEpoch`. */
  readonly batches: readonly BatchMetadata[];
  readonly lastTimestamp: number;
  /** The first offset of the producer's ongoing transaction, if one is. */
  readonly currentTxnFirstOffset?: number;
  /** The coordinator epoch of the producer's last marker, or -1. */
  readonly coordinatorEpoch?: number;
}

/** The leader's verdict on a client's batch. */
export type ProducerCheck =
  | { readonly kind: "append" }
  | { readonly kind: "duplicate"; readonly original: BatchMetadata }
  | { readonly kind: "refused"; readonly errorCode: number; readonly message: string };

/** What the last stable offset and the KIP-890 verification need of a partition's producers. */
export type PartitionTransactions = Pick<ProducerStateManager, TransactionMethods>;
type TransactionMethods = "firstUnstableOffset" | "onHighWatermarkUpdated" | "startVerification";

/** The producers of one partition; see the file comment. */
export class ProducerStateManager {
  private readonly producers = new Map<number, ProducerEntry>();
  /** Completed transactions whose markers may not be replicated yet, in marker order. */
  private unreplicated: CompletedTransaction[] = [];
  private lastExpirationCheckMs: number | undefined;
  /** The verifications of producers' first transactional batches (KIP-890). */
  readonly verifications = new TransactionVerifications();

  get producerCount(): number {
    return this.producers.size;
  }

  entry(producerId: number): ProducerEntry | undefined {
    return this.producers.get(producerId);
  }

  /** Every producer's state, by producer id. */
  entries(): IterableIterator<[number, ProducerEntry]> {
    return this.producers.entries();
  }

  /**
   * The leader's check of a produced batch that carries a producer id, in Kafka's order: a
   * duplicate of a retained batch first, then the epoch, then the sequence.
   */
  checkClientBatch(batch: ProducerBatchHeader): ProducerCheck {
    const entry = this.producers.get(batch.producerId);
    if (entry === undefined) return { kind: "append" };
    const lastSequence = lastSequenceOf(batch);
    if (batch.producerEpoch === entry.producerEpoch) {
      const original = entry.batches.find(
        (each) => each.firstSequence === batch.baseSequence && each.lastSequence === lastSequence,
      );
      if (original !== undefined) return { kind: "duplicate", original };
    }
    const about = `producer ${batch.producerId}`;
    if (batch.producerEpoch < entry.producerEpoch) {
      return refused(
        ErrorCode.INVALID_PRODUCER_EPOCH,
        `the epoch of ${about} is ${batch.producerEpoch}, older than the last seen epoch ` +
          `${entry.producerEpoch}`,
      );
    }
    if (batch.producerEpoch !== entry.producerEpoch) {
      // A new epoch starts its sequences at 0.
      if (batch.baseSequence === 0 || entry.producerEpoch === NO_PRODUCER_EPOCH) {
        return { kind: "append" };
      }
      return refused(
        ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
        `the new epoch ${batch.producerEpoch} of ${about} starts at sequence ` +
          `${batch.baseSequence}, not 0`,
      );
    }
    const currentLastSequence = entry.batches.at(-1)?.lastSequence ?? NO_SEQUENCE;
    if (isInSequence(currentLastSequence, batch.baseSequence)) return { kind: "append" };
    return refused(
      ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
      `out of order sequence for ${about}: ${batch.baseSequence} (incoming), ` +
        `${currentLastSequence} (current end)`,
    );
  }

  /**
   * Takes in a batch the log now holds, from any origin; a batch of another epoch replaces the
   * retained ones (as Kafka's, also for a follower given an older epoch by its leader).
   */
  update(batch: ProducerBatch): void {
    const entry = this.producers.get(batch.producerId);
    const kept = entry !== undefined && entry.producerEpoch === batch.producerEpoch;
    const batches = kept ? [...entry.batches] : [];
    if (batches.length === BATCHES_RETAINED) batches.shift();
    batches.push({
      firstSequence: batch.baseSequence,
      lastSequence: lastSequenceOf(batch),
      firstOffset: batch.baseOffset,
      lastOffset: batch.baseOffset + batch.lastOffsetDelta,
      timestamp: batch.maxTimestamp,
    });
    const ongoing = kept ? entry.currentTxnFirstOffset : undefined;
    const currentTxnFirstOffset = ongoing ?? (batch.isTransactional ? batch.baseOffset : undefined);
    this.producers.set(batch.producerId, {
      producerEpoch: batch.producerEpoch,
      batches,
      lastTimestamp: batch.maxTimestamp,
      ...(currentTxnFirstOffset === undefined ? {} : { currentTxnFirstOffset }),
      ...(entry?.coordinatorEpoch === undefined
        ? {}
        : { coordinatorEpoch: entry.coordinatorEpoch }),
    });
  }

  /**
   * A leader's check of a coordinator's batch (Kafka's checks for the coordinator origin): an
   * older epoch is INVALID_PRODUCER_EPOCH, and an end marker from an older coordinator epoch is
   * TRANSACTION_COORDINATOR_FENCED; sequences are not checked.
   */
  checkCoordinatorBatch(batch: {
    readonly producerId: number;
    readonly producerEpoch: number;
    readonly coordinatorEpoch: number | undefined;
  }): ProducerCheck {
    const entry = this.producers.get(batch.producerId);
    if (entry === undefined) return { kind: "append" };
    if (batch.producerEpoch < entry.producerEpoch) {
      return refused(
        ErrorCode.INVALID_PRODUCER_EPOCH,
        `the epoch ${batch.producerEpoch} of producer ${batch.producerId} is older than ` +
          `${entry.producerEpoch}`,
      );
    }
    const lastCoordinatorEpoch = entry.coordinatorEpoch ?? -1;
    if (batch.coordinatorEpoch !== undefined && batch.coordinatorEpoch < lastCoordinatorEpoch) {
      return refused(
        ErrorCode.TRANSACTION_COORDINATOR_FENCED,
        `the coordinator epoch ${batch.coordinatorEpoch} is older than ${lastCoordinatorEpoch}`,
      );
    }
    return { kind: "append" };
  }

  /**
   * Takes in an end marker the log now holds (Kafka's appendEndTxnMarker): the producer's
   * transaction, if one was ongoing, is complete; returns its offsets.
   */
  completeTransaction(marker: MarkerBatch): CompletedTransaction | undefined {
    const entry = this.producers.get(marker.producerId);
    const kept = entry !== undefined && entry.producerEpoch === marker.producerEpoch;
    const firstOffset = entry?.currentTxnFirstOffset;
    this.producers.set(marker.producerId, {
      producerEpoch: marker.producerEpoch,
      batches: kept ? entry.batches : [],
      lastTimestamp: marker.timestamp,
      coordinatorEpoch: marker.coordinatorEpoch,
    });
    if (firstOffset === undefined) return undefined;
    const completed = { producerId: marker.producerId, firstOffset, lastOffset: marker.offset };
    this.unreplicated.push(completed);
    return completed;
  }

  /** The first offset of the oldest ongoing transaction (Kafka's firstUndecidedOffset). */
  firstUndecidedOffset(): number | undefined {
    let first: number | undefined;
    for (const entry of this.producers.values()) {
      const offset = entry.currentTxnFirstOffset;
      if (offset !== undefined && (first === undefined || offset < first)) first = offset;
    }
    return first;
  }

  /**
   * The first offset of the oldest transaction ongoing, or with its marker not yet below
   * `highWatermark`, which a new leader may still hold open (Kafka's firstUnstableOffset).
   */
  firstUnstableOffset(highWatermark: number): number | undefined {
    let first = this.firstUndecidedOffset();
    for (const done of this.unreplicated) {
      if (done.lastOffset < highWatermark) continue;
      if (first === undefined || done.firstOffset < first) first = done.firstOffset;
    }
    return first;
  }

  /** Kafka's maybeStartTransactionVerification: a guard, or undefined if a transaction is on. */
  startVerification(producerId: number, asked: Parameters<TransactionVerifications["start"]>[1]) {
    if (this.producers.get(producerId)?.currentTxnFirstOffset !== undefined) return undefined;
    return this.verifications.start(producerId, asked);
  }

  /** Forgets the completed transactions whose markers are below `highWatermark`: replicated. */
  onHighWatermarkUpdated(highWatermark: number): void {
    const firstKept = this.unreplicated.findIndex((done) => done.lastOffset >= highWatermark);
    this.unreplicated = firstKept < 0 ? [] : this.unreplicated.slice(firstKept);
  }

  /**
   * Removes the producers whose last batch is at least `producer.id.expiration.ms` older than
   * `nowMs` (Kafka's removeExpiredProducers), at most once per check interval; how many went.
   */
  maybeRemoveExpired(nowMs: number, producerIdExpirationMs: number): number {
    const last = this.lastExpirationCheckMs;
    if (last !== undefined && nowMs - last < PRODUCER_EXPIRATION_CHECK_INTERVAL_MS) return 0;
    return this.removeExpired(nowMs, producerIdExpirationMs);
  }

  /** Removes the expired producers (and verifications) now; see maybeRemoveExpired. */
  removeExpired(nowMs: number, producerIdExpirationMs: number): number {
    this.lastExpirationCheckMs = nowMs;
    this.verifications.removeExpired(nowMs, producerIdExpirationMs);
    let removed = 0;
    for (const [producerId, entry] of this.producers) {
      // A producer with an ongoing transaction never expires (Kafka's isProducerExpired).
      if (entry.currentTxnFirstOffset !== undefined) continue;
      if (nowMs - entry.lastTimestamp < producerIdExpirationMs) continue;
      this.producers.delete(producerId);
      removed++;
    }
    return removed;
  }

  /** Takes in a producer read from a snapshot file, replacing what is known of it. */
  restore(producerId: number, entry: ProducerEntry): void {
    this.producers.set(producerId, entry);
  }

  /** Forgets every producer: the log is rebuilt from its batches after a truncation. */
  clear(): void {
    this.producers.clear();
    this.unreplicated = [];
  }
}

function refused(errorCode: number, message: string): ProducerCheck {
  return { kind: "refused", errorCode, message };
}
