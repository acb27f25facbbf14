/**
 * AddPartitionsToTxn (24, v0-5) on the transaction coordinator, as Kafka's KafkaApis serves it:
 *
 * - v0-3 come from producers: WRITE on the transactional id; a partition refused or unknown
 *   fails the whole request (add-partitions-checks.ts); otherwise every partition gets the
 *   coordinator's one answer.
 * - v4+ come from partition leaders (KIP-890 part 1) and need CLUSTER_ACTION: a batch of
 *   transactions, each answered apart. One with `verifyOnly` is only checked: each partition is
 *   NONE when the ongoing transaction of that producer id and epoch holds it, else
 *   INVALID_TXN_STATE (TRANSACTION_ABORTABLE from v5); a whole transaction gets
 *   INVALID_PRODUCER_ID_MAPPING, PRODUCER_FENCED or CONCURRENT_TRANSACTIONS (while it ends). One
 *   without `verifyOnly` is added, as v3 would.
 *
 * Below v2 PRODUCER_FENCED is answered INVALID_PRODUCER_EPOCH, which older clients know.
 */
import { ErrorCode } from "../../../common/index.js";
import type { TopicPartitionRef, TransactionCoordinator } from "../../../coordinator/index.js";
import { AclOperation } from "../../../metadata/index.js";
import {
  ApiKey,
  type AddPartitionsToTxnRequest,
  type AddPartitionsToTxnRequestAddPartitionsToTxnTopic as RequestTopic,
  type AddPartitionsToTxnRequestAddPartitionsToTxnTransaction as RequestTransaction,
  type AddPartitionsToTxnResponse,
  type AddPartitionsToTxnResponseAddPartitionsToTxnTopicResult as TopicResult,
} from "../../../protocol/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";
import { ALLOW_EVERYTHING, type RequestAuthorization } from "../../security/index.js";
import { TRANSACTIONAL_ID_WRITE } from "../resource-authorizations.js";
import { addPartitionsRefusal } from "./add-partitions-checks.js";

export const ADD_PARTITIONS_TO_TXN_VERSIONS = { minVersion: 0, maxVersion: 5 } as const;

/** The first version that comes from brokers, batched by transaction (KIP-890). */
const BROKER_VERSION = 4;
/** The first version whose partitions outside the transaction get TRANSACTION_ABORTABLE. */
const ABORTABLE_VERSION = 5;

/** Kafka's mapping for versions that predate PRODUCER_FENCED. */
export function fencedErrorFor(version: number, errorCode: number, firstVersion = 2): number {
  return version < firstVersion && errorCode === ErrorCode.PRODUCER_FENCED
    ? ErrorCode.INVALID_PRODUCER_EPOCH
    : errorCode;
}

function topicResults(
  topics: readonly RequestTopic[],
  codeOf: (topic: string, partition: number) => number,
): TopicResult[] {
  return topics.map((topic) => ({
    name: topic.name,
    resultsByPartition: topic.partitions.map((partitionIndex) => ({
      partitionIndex,
      partitionErrorCode: codeOf(topic.name, partitionIndex),
    })),
  }));
}

/** A v0-3 answer: one transaction's partitions. */
function answerV3(
  request: AddPartitionsToTxnRequest,
  codeOf: (topic: string, partition: number) => number,
) {
  return respond<AddPartitionsToTxnResponse>({
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    resultsByTransaction: [],
    resultsByTopicV3AndBelow: topicResults(request.v3AndBelowTopics, codeOf),
  });
}

function partitionsOf(topics: readonly RequestTopic[]): TopicPartitionRef[] {
  return topics.flatMap((topic) =>
    topic.partitions.map((partition) => ({ topic: topic.name, partition })),
  );
}

/** The answer to one transaction's partitions: each one's error code. */
async function answerTransaction(
  host: { readonly transactions: TransactionCoordinator; readonly metadataCache: MetadataCache },
  transaction: RequestTransaction,
  version: number,
  authorization: RequestAuthorization,
): Promise<(topic: string, partition: number) => number> {
  const { transactions, metadataCache } = host;
  const { transactionalId, producerId, producerEpoch } = transaction;
  const producer = { producerId, producerEpoch };
  const partitions = partitionsOf(transaction.topics);
  const checked = version >= BROKER_VERSION ? "broker" : authorization;
  const refusal = addPartitionsRefusal(partitions, metadataCache.image, checked);
  if (refusal !== undefined) return refusal;
  if (transactionalId === "") return () => ErrorCode.INVALID_REQUEST;
  if (transaction.verifyOnly) {
    return (topic, partition) => {
      const code = transactions.isInTransaction(transactionalId, producer, { topic, partition });
      return code === ErrorCode.INVALID_TXN_STATE && version >= ABORTABLE_VERSION
        ? ErrorCode.TRANSACTION_ABORTABLE
        : code;
    };
  }
  const code = await transactions.addPartitions(transactionalId, producer, partitions);
  const answered = fencedErrorFor(version, code);
  return () => answered;
}

export function addPartitionsToTxnHandler(
  transactions: TransactionCoordinator,
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.AddPartitionsToTxn> {
  const { operation, resourceType, errorCode: refusedCode } = TRANSACTIONAL_ID_WRITE;
  const host = { transactions, metadataCache };
  return defineHandler(ApiKey.AddPartitionsToTxn, {
    ...ADD_PARTITIONS_TO_TXN_VERSIONS,
    authorization: { kind: "handler" },
    handle: async (request, context) => {
      const version = context.header.apiVersion;
      const { authorization } = context;
      if (version < BROKER_VERSION) {
        const transactionalId = request.v3AndBelowTransactionalId;
        if (!authorization.authorize(operation, resourceType, transactionalId)) {
          return answerV3(request, () => refusedCode);
        }
        const transaction = {
          transactionalId,
          producerId: request.v3AndBelowProducerId,
          producerEpoch: request.v3AndBelowProducerEpoch,
          verifyOnly: false,
          topics: request.v3AndBelowTopics,
        };
        return answerV3(
          request,
          await answerTransaction(host, transaction, version, authorization),
        );
      }
      // Newer versions come from brokers only (Kafka's authorizeClusterOperation).
      if (!authorization.authorizeCluster(AclOperation.CLUSTER_ACTION)) {
        return batchedError(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
      }
      const answers = new Map<string, (topic: string, partition: number) => number>();
      for (const transaction of request.transactions) {
        const codeOf = await answerTransaction(host, transaction, version, ALLOW_EVERYTHING);
        answers.set(transaction.transactionalId, codeOf);
      }
      return respond<AddPartitionsToTxnResponse>({
        throttleTimeMs: 0,
        errorCode: ErrorCode.NONE,
        resultsByTransaction: request.transactions.map((transaction) => ({
          transactionalId: transaction.transactionalId,
          topicResults: topicResults(
            transaction.topics,
            answers.get(transaction.transactionalId) ?? (() => ErrorCode.UNKNOWN_SERVER_ERROR),
          ),
        })),
        resultsByTopicV3AndBelow: [],
      });
    },
    errorResponse: (request, context, errorCode) =>
      context.header.apiVersion >= BROKER_VERSION
        ? batchedError(errorCode)
        : answerV3(request, () => errorCode),
  });
}

/** A v4+ answer with one error for the whole request (Kafka's getErrorResponse). */
function batchedError(errorCode: number) {
  return respond<AddPartitionsToTxnResponse>({
    throttleTimeMs: 0,
    errorCode,
    resultsByTransaction: [],
    resultsByTopicV3AndBelow: [],
  });
}
