/**
 * The partition leader's check of a transactional produce (KIP-890 part 1, Kafka's
 * ReplicaManager verification): a transactional batch is taken only for a partition the
 * producer's ongoing transaction holds, at its current producer id and epoch. Sluice makes the
 * check when this broker coordinates the transactional id; when another broker does, the batch is
 * taken unchecked, as Kafka does with `transaction.partition.verification.enable=false`.
 * Refusals are Kafka's: INVALID_TXN_STATE (not in the transaction), INVALID_PRODUCER_EPOCH
 * (fenced), INVALID_PRODUCER_ID_MAPPING, and NOT_ENOUGH_REPLICAS (which producers retry) while
 * the coordinator is busy.
 */
import { ErrorCode } from "../../common/index.js";
import type { TransactionCoordinator } from "../../coordinator/index.js";
import { iterateBatches } from "../../protocol/index.js";
import type { ProduceEntry } from "../../replication/index.js";
import { topicPartitionKey } from "../purgatory/delayed-operation.js";

/** The coordinator's check, as the produce path asks it. */
export type TransactionVerifier = Pick<TransactionCoordinator, "errorCodeFor" | "isInTransaction">;

/** Kafka's translation of a verification error into the error a producer understands. */
function producerErrorOf(errorCode: number): number {
  switch (errorCode) {
    case ErrorCode.PRODUCER_FENCED:
      return ErrorCode.INVALID_PRODUCER_EPOCH;
    case ErrorCode.CONCURRENT_TRANSACTIONS:
    case ErrorCode.COORDINATOR_LOAD_IN_PROGRESS:
    case ErrorCode.COORDINATOR_NOT_AVAILABLE:
    case ErrorCode.NOT_COORDINATOR:
      return ErrorCode.NOT_ENOUGH_REPLICAS;
    default:
      return errorCode;
  }
}

/** The partitions whose transactional batch fails the check, with their error codes. */
export function unverifiedPartitions(
  verifier: TransactionVerifier | undefined,
  transactionalId: string | null,
  entries: readonly ProduceEntry[],
): Map<string, number> {
  const refused = new Map<string, number>();
  if (verifier === undefined || transactionalId === null) return refused;
  if (verifier.errorCodeFor(transactionalId) !== ErrorCode.NONE) return refused;
  for (const { topicPartition, records } of entries) {
    const first = iterateBatches(records, { maxBatchBytes: records.length }).next().value;
    if (first?.kind !== "batch") continue;
    const { header } = first;
    if (!header.isTransactional || header.producerId < 0) continue;
    const producer = { producerId: header.producerId, producerEpoch: header.producerEpoch };
    const errorCode = verifier.isInTransaction(transactionalId, producer, topicPartition);
    if (errorCode === ErrorCode.NONE) continue;
    const key = topicPartitionKey(topicPartition.topic, topicPartition.partition);
    refused.set(key, producerErrorOf(errorCode));
  }
  return refused;
}
