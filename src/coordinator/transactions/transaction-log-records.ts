/**
 * The records of `__transaction_state` (Kafka's TransactionLog): key TransactionLogKey v0 (the
 * transactional id), value TransactionLogValue v0 (producer id and epoch, timeout, state,
 * partitions, timestamps), or a null value, a tombstone. Kafka writes value v0 until
 * transactions version 1 is enabled; the partitions are null in the Empty state.
 */
import {
  decodeCoordinatorKey,
  decodeCoordinatorValue,
  DecodeError,
  encodeCoordinatorKey,
  encodeCoordinatorValue,
  NO_PRODUCER_ID,
  type DecodedRecord,
} from "../../protocol/index.js";
import { encodeCoordinatorBatch } from "../offset-records.js";
import {
  mergePartitions,
  NO_PRODUCER_EPOCH,
  TRANSACTION_STATE_IDS,
  transactionStateOfId,
  type TopicPartitionRef,
  type TransactionMetadata,
} from "./transaction-metadata.js";

export const TRANSACTION_STATE_TOPIC = "__transaction_state";
const KEY_VERSION = 0;
const VALUE_VERSION = 0;

/**
 * One batch (uncompressed, acks=-1 as Kafka enforces) holding one transactional id's state, or
 * its tombstone when the id is Dead (expired).
 */
export function encodeTransactionRecord(metadata: TransactionMetadata, nowMs: number): Uint8Array {
  const { transactionalId } = metadata;
  return encodeCoordinatorBatch([
    {
      timestamp: nowMs,
      key: encodeCoordinatorKey("TransactionLog", { transactionalId }, KEY_VERSION),
      value:
        metadata.state === "Dead"
          ? null
          : encodeCoordinatorValue("TransactionLog", VALUE_VERSION, valueOf(metadata)),
    },
  ]);
}

function valueOf(metadata: TransactionMetadata): object {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of metadata.partitions) {
    const list = byTopic.get(topic) ?? [];
    list.push(partition);
    byTopic.set(topic, list);
  }
  const partitions = [...byTopic].map(([topic, partitionIds]) => ({ topic, partitionIds }));
  return {
    producerId: metadata.producerId,
    previousProducerId: metadata.previousProducerId,
    nextProducerId: NO_PRODUCER_ID,
    producerEpoch: metadata.producerEpoch,
    transactionTimeoutMs: metadata.timeoutMs,
    transactionStatus: TRANSACTION_STATE_IDS[metadata.state],
    transactionPartitions: metadata.state === "Empty" ? null : partitions,
    transactionLastUpdateTimestampMs: metadata.lastUpdateTimestampMs,
    transactionStartTimestampMs: metadata.startTimestampMs,
    clientTransactionVersion: 0,
  };
}

/** What one record says: a transactional id's state, or its removal (a tombstone). */
export type ReplayedTransaction =
  | { readonly kind: "state"; readonly metadata: TransactionMetadata }
  | { readonly kind: "removed"; readonly transactionalId: string };

/**
 * Reads one record of `__transaction_state`; undefined for a record without a key. Throws
 * DecodeError on malformed bytes or an unknown state.
 */
export function replayTransactionRecord(record: DecodedRecord): ReplayedTransaction | undefined {
  if (record.key === null) return undefined;
  const key = decodeCoordinatorKey("__transaction_state", record.key);
  const transactionalId = key.data["transactionalId"] as string;
  if (record.value === null) return { kind: "removed", transactionalId };
  const { data } = decodeCoordinatorValue("TransactionLog", record.value);
  const status = data["transactionStatus"] as number;
  const state = transactionStateOfId(status);
  if (state === undefined) {
    throw new DecodeError("invalid", `unknown transaction status ${status}`, 0);
  }
  const listed = (data["transactionPartitions"] ?? []) as {
    topic: string;
    partitionIds: number[];
  }[];
  const partitions: TopicPartitionRef[] =
    state === "Empty"
      ? []
      : listed.flatMap(({ topic, partitionIds }) =>
          partitionIds.map((partition) => ({ topic, partition })),
        );
  const metadata: TransactionMetadata = {
    transactionalId,
    producerId: data["producerId"] as number,
    previousProducerId: (data["previousProducerId"] as number | undefined) ?? NO_PRODUCER_ID,
    producerEpoch: data["producerEpoch"] as number,
    lastProducerEpoch: NO_PRODUCER_EPOCH,
    timeoutMs: data["transactionTimeoutMs"] as number,
    state,
    partitions: mergePartitions([], partitions),
    startTimestampMs: data["transactionStartTimestampMs"] as number,
    lastUpdateTimestampMs: data["transactionLastUpdateTimestampMs"] as number,
  };
  return { kind: "state", metadata };
}
