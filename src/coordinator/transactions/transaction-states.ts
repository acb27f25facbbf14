/**
 * The transaction coordinator's pure core (Kafka's TransactionCoordinator and
 * TransactionStateManager decisions, transactions version 0): every transactional id this node
 * coordinates, and the decision on each request. A decision that changes a transaction is a
 * `write` of a new value (see transaction-metadata.ts); the driver writes it to
 * `__transaction_state` with acks=-1 and then calls `completeWrite`, so that at most one write
 * per transactional id is in flight (a second request meanwhile is CONCURRENT_TRANSACTIONS).
 *
 * This file owns one state machine: the transactional ids and their writes in flight; the
 * transitions of each id are in transaction-metadata.ts.
 */
import { assert, AssertionError, ErrorCode } from "../../common/index.js";
import {
  hasPendingTransaction,
  includesAll,
  isExpirationAllowed,
  isEpochExhausted,
  newTransactionMetadata,
  prepareAbortOrCommit,
  prepareAddPartitions,
  prepareComplete,
  prepareDead,
  prepareEpochFenceAbort,
  prepareIncrementProducerEpoch,
  prepareProducerIdRotation,
  NO_PRODUCER_EPOCH,
  type TopicPartitionRef,
  type TransactionMetadata,
} from "./transaction-metadata.js";

/** What a request leads to. */
export type TransactionDecision =
  | { readonly kind: "error"; readonly errorCode: number }
  /** Answered at once with NONE and the current producer id and epoch; nothing to write. */
  | { readonly kind: "done"; readonly metadata: TransactionMetadata }
  /**
   * Write `transit`; `isFence` when it is the abort that fences an ongoing transaction (its
   * InitProducerId is then answered CONCURRENT_TRANSACTIONS, and the client retries).
   */
  | { readonly kind: "write"; readonly transit: TransactionMetadata; readonly isFence: boolean };

interface Entry {
  readonly partition: number;
  metadata: TransactionMetadata;
  pending: TransactionMetadata | undefined;
  /** A fence whose write failed: its bumped epoch was never given out (Kafka's flag). */
  hasFailedEpochFence: boolean;
}

export interface InitProducerIdInput {
  readonly timeoutMs: number;
  /** The producer id and epoch the client holds (InitProducerId v3+, KIP-360), if any. */
  readonly expected: { readonly producerId: number; readonly producerEpoch: number } | undefined;
  readonly nowMs: number;
  /** A fresh producer id, or undefined while none is at hand. */
  readonly newProducerId: () => number | undefined;
}

export interface ProducerIdentity {
  readonly producerId: number;
  readonly producerEpoch: number;
}

const error = (errorCode: number): TransactionDecision => ({ kind: "error", errorCode });
const write = (transit: TransactionMetadata, isFence = false): TransactionDecision => ({
  kind: "write",
  transit,
  isFence,
});

/** Every transactional id of the loaded `__transaction_state` partitions; see the file comment. */
export class TransactionStates {
  private readonly entries = new Map<string, Entry>();

  get size(): number {
    return this.entries.size;
  }

  get(transactionalId: string): TransactionMetadata | undefined {
    return this.entries.get(transactionalId)?.metadata;
  }

  /** The current value of every transactional id held. */
  all(): IterableIterator<TransactionMetadata> {
    return [...this.entries.values()].map((entry) => entry.metadata).values();
  }

  /** Whether a write for `transactionalId` is in flight. */
  isPending(transactionalId: string): boolean {
    return this.entries.get(transactionalId)?.pending !== undefined;
  }

  /** Takes in a record read while loading partition `partition`: the latest value wins. */
  replay(partition: number, metadata: TransactionMetadata | string): void {
    if (typeof metadata === "string") {
      this.entries.delete(metadata);
      return;
    }
    const entry = { partition, metadata, pending: undefined, hasFailedEpochFence: false };
    this.entries.set(metadata.transactionalId, entry);
  }

  /** Forgets every transactional id of `partition` (leadership moved away). */
  unload(partition: number): void {
    for (const [transactionalId, entry] of this.entries) {
      if (entry.partition === partition) this.entries.delete(transactionalId);
    }
  }

  /** The transactions of `partition` in PrepareCommit or PrepareAbort: their markers are due. */
  preparedIn(partition: number): TransactionMetadata[] {
    return [...this.entries.values()]
      .filter((entry) => entry.partition === partition && entry.pending === undefined)
      .map((entry) => entry.metadata)
      .filter(({ state }) => state === "PrepareCommit" || state === "PrepareAbort");
  }

  /** InitProducerId with a transactional id (Kafka's handleInitProducerId). */
  initProducerId(
    transactionalId: string,
    partition: number,
    input: InitProducerIdInput,
  ): TransactionDecision {
    let entry = this.entries.get(transactionalId);
    if (entry === undefined) {
      const producerId = input.newProducerId();
      if (producerId === undefined) return error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
      const metadata = newTransactionMetadata(transactionalId, { ...input, producerId });
      entry = { partition, metadata, pending: undefined, hasFailedEpochFence: false };
      this.entries.set(transactionalId, entry);
    }
    const { metadata } = entry;
    if (entry.pending !== undefined) return error(ErrorCode.CONCURRENT_TRANSACTIONS);
    const { expected } = input;
    if (expected !== undefined && !isValidProducerId(metadata, expected)) {
      return error(ErrorCode.PRODUCER_FENCED);
    }
    switch (metadata.state) {
      case "PrepareAbort":
      case "PrepareCommit":
        return error(ErrorCode.CONCURRENT_TRANSACTIONS);
      case "CompleteAbort":
      case "CompleteCommit":
      case "Empty":
        return bumpOrRotate(metadata, input);
      case "Ongoing": {
        // The ongoing transaction is aborted at a bumped epoch first; that epoch is never
        // returned, the client retries and bumps again (or rotates once exhausted).
        const { hasFailedEpochFence } = entry;
        const fence = prepareEpochFenceAbort(metadata, { hasFailedEpochFence, nowMs: input.nowMs });
        return write(fence, true);
      }
      case "Dead":
      case "PrepareEpochFence":
        throw new AssertionError(`${transactionalId} was found in state ${metadata.state}`);
    }
  }

  /** AddPartitionsToTxn (v0-3) and AddOffsetsToTxn (Kafka's handleAddPartitionsToTransaction). */
  addPartitions(
    transactionalId: string,
    producer: ProducerIdentity,
    at: { readonly partitions: readonly TopicPartitionRef[]; readonly nowMs: number },
  ): TransactionDecision {
    const entry = this.entries.get(transactionalId);
    const refused = producerRefusal(entry, producer);
    if (refused !== undefined) return refused;
    const { metadata } = entry as Entry;
    if (metadata.state === "PrepareCommit" || metadata.state === "PrepareAbort") {
      return error(ErrorCode.CONCURRENT_TRANSACTIONS);
    }
    if (metadata.state === "Ongoing" && includesAll(metadata, at.partitions)) {
      return { kind: "done", metadata };
    }
    return write(prepareAddPartitions(metadata, at.partitions, at.nowMs));
  }

  /** EndTxn (Kafka's endTransaction, transactions version 0). */
  endTransaction(
    transactionalId: string,
    producer: ProducerIdentity,
    at: { readonly committed: boolean; readonly nowMs: number },
  ): TransactionDecision {
    const entry = this.entries.get(transactionalId);
    const refused = producerRefusal(entry, producer);
    if (refused !== undefined) return refused;
    const { metadata } = entry as Entry;
    const { committed } = at;
    switch (metadata.state) {
      case "Ongoing":
        return write(prepareAbortOrCommit(metadata, committed, at.nowMs));
      case "CompleteCommit":
        return committed ? { kind: "done", metadata } : error(ErrorCode.INVALID_TXN_STATE);
      case "CompleteAbort":
        return committed ? error(ErrorCode.INVALID_TXN_STATE) : { kind: "done", metadata };
      case "PrepareCommit":
        return error(committed ? ErrorCode.CONCURRENT_TRANSACTIONS : ErrorCode.INVALID_TXN_STATE);
      case "PrepareAbort":
        return error(committed ? ErrorCode.INVALID_TXN_STATE : ErrorCode.CONCURRENT_TRANSACTIONS);
      case "Empty":
        return error(ErrorCode.INVALID_TXN_STATE);
      case "Dead":
      case "PrepareEpochFence":
        throw new AssertionError(`${transactionalId} was found in state ${metadata.state}`);
    }
  }

  /**
   * The ongoing transactions whose `transaction.timeout.ms` has passed since they began, with no
   * write in flight (Kafka's timedOutTransactions).
   */
  timedOut(nowMs: number): string[] {
    const expired: string[] = [];
    for (const [transactionalId, entry] of this.entries) {
      const { metadata } = entry;
      if (entry.pending !== undefined || metadata.state !== "Ongoing") continue;
      if (metadata.startTimestampMs + metadata.timeoutMs < nowMs) expired.push(transactionalId);
    }
    return expired;
  }

  /**
   * The transactional ids without a transaction under way or a write in flight whose last
   * update is `expirationMs` old (Kafka's transactional id expiration).
   */
  expired(nowMs: number, expirationMs: number): string[] {
    const expired: string[] = [];
    for (const [transactionalId, { metadata, pending }] of this.entries) {
      if (pending !== undefined || !isExpirationAllowed(metadata.state)) continue;
      if (metadata.lastUpdateTimestampMs <= nowMs - expirationMs) expired.push(transactionalId);
    }
    return expired;
  }

  /** The tombstone of an expired transactional id; once durable the id is forgotten. */
  expire(transactionalId: string, nowMs: number): TransactionDecision {
    const entry = this.entries.get(transactionalId);
    if (entry === undefined) return error(ErrorCode.NOT_COORDINATOR);
    if (entry.pending !== undefined) return error(ErrorCode.CONCURRENT_TRANSACTIONS);
    if (!isExpirationAllowed(entry.metadata.state)) return error(ErrorCode.INVALID_TXN_STATE);
    return write(prepareDead(entry.metadata, nowMs));
  }

  /** The abort of a timed-out transaction: a fence of its epoch (Kafka's abortTimedOut...). */
  abortTimedOut(transactionalId: string, nowMs: number): TransactionDecision {
    const entry = this.entries.get(transactionalId);
    if (entry === undefined || entry.pending !== undefined) {
      return error(ErrorCode.CONCURRENT_TRANSACTIONS);
    }
    if (entry.metadata.state !== "Ongoing") return error(ErrorCode.INVALID_TXN_STATE);
    const { hasFailedEpochFence } = entry;
    return write(prepareEpochFenceAbort(entry.metadata, { hasFailedEpochFence, nowMs }), true);
  }

  /** The CompleteCommit or CompleteAbort to write once every marker of `transactionalId` is. */
  complete(transactionalId: string, nowMs: number): TransactionDecision {
    const entry = this.entries.get(transactionalId);
    if (entry === undefined) return error(ErrorCode.NOT_COORDINATOR);
    if (entry.pending !== undefined) return error(ErrorCode.CONCURRENT_TRANSACTIONS);
    const { state } = entry.metadata;
    if (state !== "PrepareCommit" && state !== "PrepareAbort") {
      return error(ErrorCode.INVALID_TXN_STATE);
    }
    return write(prepareComplete(entry.metadata, nowMs));
  }

  /** Marks a decided write as in flight; every `write` decision must be begun or dropped. */
  beginWrite(transit: TransactionMetadata): void {
    const entry = this.entries.get(transit.transactionalId);
    assert(entry !== undefined, "a write is for a known transactional id");
    assert(entry.pending === undefined, "one write per transactional id at a time");
    entry.pending = transit;
  }

  /**
   * Ends the write of `transit`: when durable it becomes the current value; when not, nothing
   * changes but a fence's epoch bump, which is remembered so that it is not repeated.
   * Returns false when the transactional id was unloaded or replaced meanwhile.
   */
  completeWrite(
    transit: TransactionMetadata,
    outcome: { readonly isDurable: boolean; readonly isFence: boolean },
  ): boolean {
    const entry = this.entries.get(transit.transactionalId);
    if (entry === undefined || entry.pending !== transit) return false;
    entry.pending = undefined;
    if (!outcome.isDurable) {
      if (outcome.isFence) {
        // As Kafka's: the fence's bumped epoch stays (the old producer remains fenced), and the
        // next fence does not bump again.
        const { producerEpoch } = transit;
        entry.metadata = { ...entry.metadata, producerEpoch, lastProducerEpoch: -1 };
        entry.hasFailedEpochFence = true;
      }
      return true;
    }
    if (transit.state === "Dead") {
      this.entries.delete(transit.transactionalId);
      return true;
    }
    entry.metadata = transit;
    if (transit.state === "CompleteAbort" || transit.state === "CompleteCommit") {
      entry.hasFailedEpochFence = false;
    }
    return true;
  }
}

/** The refusal of a request naming `producer` for `entry` (in Kafka's order), if any. */
function producerRefusal(
  entry: Entry | undefined,
  producer: ProducerIdentity,
): TransactionDecision | undefined {
  if (entry === undefined) return error(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
  const { metadata } = entry;
  if (metadata.producerId !== producer.producerId) {
    return error(ErrorCode.INVALID_PRODUCER_ID_MAPPING);
  }
  if (metadata.producerEpoch !== producer.producerEpoch) return error(ErrorCode.PRODUCER_FENCED);
  if (entry.pending !== undefined) return error(ErrorCode.CONCURRENT_TRANSACTIONS);
  return undefined;
}

/**
 * Kafka's isValidProducerId for InitProducerId v3+: a client naming its producer id and epoch is
 * accepted when the id was just created, is the current one, or is the previous one with an
 * exhausted epoch (a retry of the rotation whose answer was lost).
 */
function isValidProducerId(metadata: TransactionMetadata, expected: ProducerIdentity): boolean {
  return (
    metadata.producerEpoch === NO_PRODUCER_EPOCH ||
    expected.producerId === metadata.producerId ||
    (expected.producerId === metadata.previousProducerId &&
      isEpochExhausted(expected.producerEpoch))
  );
}

function bumpOrRotate(metadata: TransactionMetadata, input: InitProducerIdInput) {
  assert(!hasPendingTransaction(metadata), "only a completed transaction is bumped");
  const { expected, timeoutMs, nowMs } = input;
  const expectsCurrent =
    expected === undefined || expected.producerEpoch === metadata.producerEpoch;
  if (isEpochExhausted(metadata.producerEpoch) && expectsCurrent) {
    const producerId = input.newProducerId();
    if (producerId === undefined) return error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
    const recordLastEpoch = expected !== undefined;
    return write(
      prepareProducerIdRotation(metadata, { producerId, timeoutMs, recordLastEpoch, nowMs }),
    );
  }
  const expectedEpoch = expected?.producerEpoch;
  const bumped = prepareIncrementProducerEpoch(metadata, { timeoutMs, expectedEpoch, nowMs });
  return bumped === undefined ? error(ErrorCode.PRODUCER_FENCED) : write(bumped);
}
