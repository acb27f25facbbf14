/**
 * One transactional id's state (Kafka's TransactionMetadata, KIP-98), pure and immutable: its
 * producer id and epoch, the partitions of the ongoing transaction and where the transaction
 * is. A change is prepared as a whole new value (a transit), written to `__transaction_state`,
 * and only then becomes current, so a failed write changes nothing.
 *
 * States and the states each may follow, as Kafka's:
 * - Empty: Empty, CompleteCommit, CompleteAbort (InitProducerId)
 * - Ongoing: Ongoing, Empty, CompleteCommit, CompleteAbort (AddPartitionsToTxn, AddOffsetsToTxn)
 * - PrepareCommit: Ongoing (EndTxn commit)
 * - PrepareAbort: Ongoing, PrepareEpochFence (EndTxn abort, a fence, a timeout)
 * - CompleteCommit: PrepareCommit; CompleteAbort: PrepareAbort (every marker written)
 * - PrepareEpochFence: Ongoing (a new producer, or a timeout, fences the ongoing transaction;
 *   never written: it becomes a PrepareAbort at the bumped epoch)
 * - Dead: Empty, CompleteCommit, CompleteAbort (a transactional id idle for
 *   `transactional.id.expiration.ms`; written as a tombstone, then forgotten)
 */
import { assert } from "../../common/index.js";

export type TransactionState =
  | "Empty"
  | "Ongoing"
  | "PrepareCommit"
  | "PrepareAbort"
  | "CompleteCommit"
  | "CompleteAbort"
  | "Dead"
  | "PrepareEpochFence";

/** The TransactionStatus byte of TransactionLogValue for each state (Kafka's ids). */
export const TRANSACTION_STATE_IDS: Readonly<Record<TransactionState, number>> = {
  Empty: 0,
  Ongoing: 1,
  PrepareCommit: 2,
  PrepareAbort: 3,
  CompleteCommit: 4,
  CompleteAbort: 5,
  Dead: 6,
  PrepareEpochFence: 7,
};

const VALID_PREVIOUS: Readonly<Record<TransactionState, readonly TransactionState[]>> = {
  Empty: ["Empty", "CompleteCommit", "CompleteAbort"],
  Ongoing: ["Ongoing", "Empty", "CompleteCommit", "CompleteAbort"],
  PrepareCommit: ["Ongoing"],
  PrepareAbort: ["Ongoing", "PrepareEpochFence"],
  CompleteCommit: ["PrepareCommit"],
  CompleteAbort: ["PrepareAbort"],
  Dead: ["Empty", "CompleteAbort", "CompleteCommit"],
  PrepareEpochFence: ["Ongoing"],
};

/** Whether a transaction in state `from` may move to `to`. */
export function isValidTransition(from: TransactionState, to: TransactionState): boolean {
  return VALID_PREVIOUS[to].includes(from);
}

/** The state for a TransactionStatus byte, or undefined for an unknown one. */
export function transactionStateOfId(id: number): TransactionState | undefined {
  const found = Object.entries(TRANSACTION_STATE_IDS).find(([, each]) => each === id);
  return found === undefined ? undefined : (found[0] as TransactionState);
}

export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
/** Java's Short.MAX_VALUE: epochs are int16. */
export const PRODUCER_EPOCH_MAX = 32_767;

/** Kafka's isEpochExhausted: the epoch cannot be bumped once more and fenced after. */
export function isEpochExhausted(producerEpoch: number): boolean {
  return producerEpoch >= PRODUCER_EPOCH_MAX - 1;
}

export interface TopicPartitionRef {
  readonly topic: string;
  readonly partition: number;
}

export interface TransactionMetadata {
  readonly transactionalId: string;
  readonly producerId: number;
  /** The producer id before the last rotation (KIP-360), or -1. */
  readonly previousProducerId: number;
  readonly producerEpoch: number;
  /** The epoch before the last bump, for a retried InitProducerId (KIP-360), or -1. */
  readonly lastProducerEpoch: number;
  readonly timeoutMs: number;
  readonly state: TransactionState;
  /** The partitions of the transaction, sorted by topic then partition, without repeats. */
  readonly partitions: readonly TopicPartitionRef[];
  /** When the ongoing transaction began, or -1. */
  readonly startTimestampMs: number;
  readonly lastUpdateTimestampMs: number;
}

/** A new transactional id's metadata: Empty, epoch -1, before its first InitProducerId. */
export function newTransactionMetadata(
  transactionalId: string,
  fields: { readonly producerId: number; readonly timeoutMs: number; readonly nowMs: number },
): TransactionMetadata {
  return {
    transactionalId,
    producerId: fields.producerId,
    previousProducerId: NO_PRODUCER_ID,
    producerEpoch: NO_PRODUCER_EPOCH,
    lastProducerEpoch: NO_PRODUCER_EPOCH,
    timeoutMs: fields.timeoutMs,
    state: "Empty",
    partitions: [],
    startTimestampMs: -1,
    lastUpdateTimestampMs: fields.nowMs,
  };
}

function transit(
  from: TransactionMetadata,
  to: TransactionState,
  fields: Partial<Omit<TransactionMetadata, "state" | "transactionalId">>,
): TransactionMetadata {
  assert(isValidTransition(from.state, to), `no transition from ${from.state} to ${to}`);
  return { ...from, ...fields, state: to };
}

/** Whether the transaction holds partitions not yet completed (Ongoing or Prepare*). */
export function hasPendingTransaction(metadata: TransactionMetadata): boolean {
  const { state } = metadata;
  return state === "Ongoing" || state === "PrepareAbort" || state === "PrepareCommit";
}

/**
 * InitProducerId's epoch bump (Kafka's prepareIncrementProducerEpoch): to Empty with epoch + 1;
 * a retry that names the epoch before the last bump gets the current epoch again (KIP-360); any
 * other expected epoch is PRODUCER_FENCED (undefined here).
 */
export function prepareIncrementProducerEpoch(
  metadata: TransactionMetadata,
  at: { readonly timeoutMs: number; readonly expectedEpoch: number | undefined; nowMs: number },
): TransactionMetadata | undefined {
  assert(!isEpochExhausted(metadata.producerEpoch), "an exhausted epoch rotates the producer id");
  const { producerEpoch, lastProducerEpoch } = metadata;
  let epochs: { producerEpoch: number; lastProducerEpoch: number };
  if (at.expectedEpoch === undefined) {
    epochs = { producerEpoch: producerEpoch + 1, lastProducerEpoch: NO_PRODUCER_EPOCH };
  } else if (producerEpoch === NO_PRODUCER_EPOCH || at.expectedEpoch === producerEpoch) {
    epochs = { producerEpoch: producerEpoch + 1, lastProducerEpoch: producerEpoch };
  } else if (at.expectedEpoch === lastProducerEpoch) {
    epochs = { producerEpoch, lastProducerEpoch };
  } else {
    return undefined;
  }
  return transit(metadata, "Empty", {
    ...epochs,
    timeoutMs: at.timeoutMs,
    partitions: [],
    startTimestampMs: -1,
    lastUpdateTimestampMs: at.nowMs,
  });
}

/** A new producer id at epoch 0 once the epoch is exhausted (Kafka's prepareProducerIdRotation). */
export function prepareProducerIdRotation(
  metadata: TransactionMetadata,
  at: {
    readonly producerId: number;
    readonly timeoutMs: number;
    readonly recordLastEpoch: boolean;
    readonly nowMs: number;
  },
): TransactionMetadata {
  assert(!hasPendingTransaction(metadata), "no rotation while a transaction is pending");
  return transit(metadata, "Empty", {
    producerId: at.producerId,
    previousProducerId: metadata.producerId,
    producerEpoch: 0,
    lastProducerEpoch: at.recordLastEpoch ? metadata.producerEpoch : NO_PRODUCER_EPOCH,
    timeoutMs: at.timeoutMs,
    partitions: [],
    startTimestampMs: -1,
    lastUpdateTimestampMs: at.nowMs,
  });
}

/**
 * The fence of an ongoing transaction (Kafka's prepareFenceProducerEpoch followed by the abort
 * it leads to): PrepareAbort at epoch + 1, or at the same epoch when an earlier fence failed to
 * be written (its bump was never returned to anyone).
 */
export function prepareEpochFenceAbort(
  metadata: TransactionMetadata,
  at: { readonly hasFailedEpochFence: boolean; readonly nowMs: number },
): TransactionMetadata {
  assert(metadata.producerEpoch < PRODUCER_EPOCH_MAX, "a fence must not overflow the epoch");
  const fenced = transit(metadata, "PrepareEpochFence", {
    producerEpoch: at.hasFailedEpochFence ? metadata.producerEpoch : metadata.producerEpoch + 1,
    lastProducerEpoch: NO_PRODUCER_EPOCH,
  });
  return transit(fenced, "PrepareAbort", { lastUpdateTimestampMs: at.nowMs });
}

/** Adds partitions, starting the transaction if none is ongoing (Kafka's prepareAddPartitions). */
export function prepareAddPartitions(
  metadata: TransactionMetadata,
  added: readonly TopicPartitionRef[],
  nowMs: number,
): TransactionMetadata {
  const starts = metadata.state !== "Ongoing";
  return transit(metadata, "Ongoing", {
    partitions: mergePartitions(metadata.partitions, added),
    startTimestampMs: starts ? nowMs : metadata.startTimestampMs,
    lastUpdateTimestampMs: nowMs,
  });
}

/** EndTxn's PrepareCommit or PrepareAbort, at the same epoch (transactions version 0). */
export function prepareAbortOrCommit(
  metadata: TransactionMetadata,
  committed: boolean,
  nowMs: number,
): TransactionMetadata {
  return transit(metadata, committed ? "PrepareCommit" : "PrepareAbort", {
    lastUpdateTimestampMs: nowMs,
  });
}

/**
 * Whether a transactional id in `state` may expire (Kafka's isExpirationAllowed): no transaction
 * of it is under way.
 */
export function isExpirationAllowed(state: TransactionState): boolean {
  return state === "Empty" || state === "CompleteCommit" || state === "CompleteAbort";
}

/** The end of an expired transactional id (Kafka's prepareDead). */
export function prepareDead(metadata: TransactionMetadata, nowMs: number): TransactionMetadata {
  return transit(metadata, "Dead", { partitions: [], lastUpdateTimestampMs: nowMs });
}

/** CompleteCommit or CompleteAbort once every marker is written (Kafka's prepareComplete). */
export function prepareComplete(metadata: TransactionMetadata, nowMs: number): TransactionMetadata {
  const to = metadata.state === "PrepareCommit" ? "CompleteCommit" : "CompleteAbort";
  return transit(metadata, to, { partitions: [], lastUpdateTimestampMs: nowMs });
}

/** Whether every partition of `partitions` is in the transaction already. */
export function includesAll(
  metadata: TransactionMetadata,
  partitions: readonly TopicPartitionRef[],
): boolean {
  return partitions.every((wanted) =>
    metadata.partitions.some(
      (held) => held.topic === wanted.topic && held.partition === wanted.partition,
    ),
  );
}

function comparePartitions(a: TopicPartitionRef, b: TopicPartitionRef): number {
  if (a.topic !== b.topic) return a.topic < b.topic ? -1 : 1;
  return a.partition - b.partition;
}

/** The sorted union of two partition lists. */
export function mergePartitions(
  held: readonly TopicPartitionRef[],
  added: readonly TopicPartitionRef[],
): TopicPartitionRef[] {
  const merged = [...held, ...added].sort(comparePartitions);
  return merged.filter(
    (each, index) => index === 0 || comparePartitions(merged[index - 1]!, each) !== 0,
  );
}
