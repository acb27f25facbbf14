/**
 * Reading and writing `__transaction_state` as a partition's leader: loading a partition into
 * the coordinator state when this broker becomes its leader (Kafka's
 * loadTransactionsForTxnTopicPartition, the latest record per transactional id wins), and
 * writing one transactional id's new state with acks=-1, answered once the high watermark
 * covers it (Kafka's appendTransactionToLog, with its mapping of append errors).
 */
import { ErrorCode } from "../../common/index.js";
import type { Timers } from "../../ports/index.js";
import { decodeRecords, iterateBatches } from "../../protocol/index.js";
import type { Partition, ReplicaManager } from "../../replication/index.js";
import { awaitDurable } from "../offset-writes.driver.js";
import { readWholeLog } from "../offsets-loader.driver.js";
import { encodeTransactionRecord, replayTransactionRecord } from "./transaction-log-records.js";
import type { TransactionMetadata } from "./transaction-metadata.js";
import type { TransactionStates } from "./transaction-states.js";

const LOAD_DECOMPRESSED_BYTES_MAX = 100 * 1024 * 1024;

/**
 * Replays partition `index` into `states`, stopping early once `isCurrent` turns false (the
 * leadership moved meanwhile); resolves to how many records it read.
 */
export async function loadTransactionPartition(
  partition: Partition,
  states: TransactionStates,
  at: { readonly index: number; readonly isCurrent: () => boolean },
): Promise<number> {
  let records = 0;
  await readWholeLog(partition, at.isCurrent, (bytes) => {
    records += replayBatches(bytes, states, at.index);
  });
  return records;
}

function replayBatches(bytes: Uint8Array, states: TransactionStates, index: number): number {
  let count = 0;
  for (const entry of iterateBatches(bytes, { maxBatchBytes: bytes.length })) {
    if (entry.kind !== "batch") break;
    if (entry.header.isControl) continue;
    const decoded = decodeRecords(entry.bytes, {
      maxDecompressedBytes: LOAD_DECOMPRESSED_BYTES_MAX,
    });
    if (!decoded.ok)
      throw new Error(`__transaction_state holds a bad batch: ${decoded.error.kind}`);
    for (const record of decoded.records) {
      const replayed = replayTransactionRecord(record);
      count++;
      if (replayed === undefined) continue;
      if (replayed.kind === "removed") states.replay(index, replayed.transactionalId);
      else states.replay(index, replayed.metadata);
    }
  }
  return count;
}

/** How long a write waits for its replicas (Kafka's `transaction.state.log` request timeout). */
export const TRANSACTION_WRITE_TIMEOUT_MS = 5_000;

/**
 * Appends `metadata` to `partition` with acks=-1 and waits until it is durable; NONE, or the
 * error the transaction request answers.
 */
export async function writeTransactionRecord(
  replicaManager: ReplicaManager,
  partition: Partition,
  write: { readonly metadata: TransactionMetadata; readonly nowMs: number; timers: Timers },
): Promise<number> {
  const records = encodeTransactionRecord(write.metadata, write.nowMs);
  const appended = await replicaManager.appendRecords(
    [{ topicPartition: partition.topicPartition, records }],
    { requiredAcks: -1 },
  );
  const outcome = appended.results[0]?.outcome;
  if (outcome === undefined) return ErrorCode.UNKNOWN_SERVER_ERROR;
  if (outcome.kind === "error") return transactionWriteErrorOf(outcome.errorCode);
  const durable = await awaitDurable(partition, outcome.lastOffset + 1, {
    timers: write.timers,
    timeoutMs: TRANSACTION_WRITE_TIMEOUT_MS,
  });
  return transactionWriteErrorOf(durable);
}

/** Kafka's translation of an append error of the transaction log into a request's error. */
export function transactionWriteErrorOf(errorCode: number): number {
  switch (errorCode) {
    case ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
    case ErrorCode.NOT_ENOUGH_REPLICAS:
    case ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND:
    case ErrorCode.REQUEST_TIMED_OUT:
    case ErrorCode.COORDINATOR_NOT_AVAILABLE:
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    case ErrorCode.NOT_LEADER_OR_FOLLOWER:
    case ErrorCode.KAFKA_STORAGE_ERROR:
    case ErrorCode.NOT_COORDINATOR:
      return ErrorCode.NOT_COORDINATOR;
    case ErrorCode.MESSAGE_TOO_LARGE:
    case ErrorCode.RECORD_LIST_TOO_LARGE:
      return ErrorCode.UNKNOWN_SERVER_ERROR;
    default:
      return errorCode;
  }
}
