/**
 * What the admin APIs show of the transactions a coordinator holds, pure: one transactional id
 * for DescribeTransactions and the filtered list for ListTransactions (Kafka's
 * TransactionCoordinator.handleDescribeTransactions and
 * TransactionStateManager.listTransactionStates).
 */
import { ErrorCode } from "../../common/index.js";
import {
  TRANSACTION_STATE_IDS,
  type TopicPartitionRef,
  type TransactionMetadata,
  type TransactionState,
} from "./transaction-metadata.js";

/** One transactional id as DescribeTransactions answers it. */
export interface TransactionDescription {
  readonly errorCode: number;
  readonly transactionalId: string;
  /** Kafka's state name ("Ongoing", "PrepareCommit", ...), or "" with an error. */
  readonly transactionState: string;
  readonly transactionTimeoutMs: number;
  readonly transactionStartTimeMs: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** The partitions of the transaction by topic; while it prepares, those still without marker. */
  readonly topics: readonly { readonly topic: string; readonly partitions: number[] }[];
}

/** ListTransactions' filters; empty lists and a negative duration filter nothing. */
export interface TransactionFilters {
  readonly states: readonly string[];
  readonly producerIds: readonly number[];
  /** Only transactions running longer than this (ListTransactions v1, KIP-994), or -1. */
  readonly durationMs: number;
}

export interface TransactionListing {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly transactionState: string;
}

export interface TransactionList {
  readonly unknownStateFilters: string[];
  readonly transactionStates: TransactionListing[];
}

/** The answer for an id this coordinator cannot describe. */
export function describeRefusal(transactionalId: string, errorCode: number) {
  return {
    errorCode,
    transactionalId,
    transactionState: "",
    transactionTimeoutMs: 0,
    transactionStartTimeMs: -1,
    producerId: -1,
    producerEpoch: -1,
    topics: [],
  } satisfies TransactionDescription;
}

/**
 * DescribeTransactions for one id this coordinator serves: TRANSACTIONAL_ID_NOT_FOUND when it
 * holds none (or it is being expired); `unmarked` are the partitions still waiting for their
 * marker when the transaction prepares to commit or abort.
 */
export function describeTransaction(
  transactionalId: string,
  metadata: TransactionMetadata | undefined,
  unmarked: readonly TopicPartitionRef[] | undefined,
): TransactionDescription {
  if (metadata === undefined || metadata.state === "Dead") {
    return describeRefusal(transactionalId, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
  }
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of unmarked ?? metadata.partitions) {
    const partitions = byTopic.get(topic) ?? [];
    byTopic.set(topic, partitions);
    partitions.push(partition);
  }
  return {
    errorCode: ErrorCode.NONE,
    transactionalId,
    transactionState: metadata.state,
    transactionTimeoutMs: metadata.timeoutMs,
    transactionStartTimeMs: metadata.startTimestampMs,
    producerId: metadata.producerId,
    producerEpoch: metadata.producerEpoch,
    topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
  };
}

function isStateName(name: string): name is TransactionState {
  return Object.hasOwn(TRANSACTION_STATE_IDS, name);
}

/**
 * ListTransactions over every transactional id held: Dead ones are left out, state names are
 * matched exactly as Kafka's are (an unknown one is listed back and matches nothing), and a
 * duration filter keeps transactions that started more than `durationMs` before `nowMs`.
 */
export function listTransactions(
  held: Iterable<TransactionMetadata>,
  filters: TransactionFilters,
  nowMs: number,
): TransactionList {
  const unknownStateFilters = filters.states.filter((name) => !isStateName(name));
  const states = new Set(filters.states.filter(isStateName));
  const producerIds = new Set(filters.producerIds);
  const isIncluded = (metadata: TransactionMetadata): boolean =>
    metadata.state !== "Dead" &&
    (producerIds.size === 0 || producerIds.has(metadata.producerId)) &&
    (filters.states.length === 0 || states.has(metadata.state)) &&
    (filters.durationMs < 0 || nowMs - metadata.startTimestampMs > filters.durationMs);
  const transactionStates = [...held].filter(isIncluded).map((metadata) => ({
    transactionalId: metadata.transactionalId,
    producerId: metadata.producerId,
    transactionState: metadata.state,
  }));
  return { unknownStateFilters, transactionStates };
}
