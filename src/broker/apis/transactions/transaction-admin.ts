/**
 * The admin APIs of the transaction coordinator (KIP-664), as Kafka's KafkaApis serves them:
 *
 * - DescribeTransactions (65, v0): each asked transactional id as this coordinator holds it;
 *   NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS for an id whose partition it does not
 *   serve, TRANSACTIONAL_ID_NOT_FOUND for one it does not know, INVALID_REQUEST for "".
 * - ListTransactions (66, v0-1): every transactional id of the partitions this broker
 *   coordinates, filtered by state names, producer ids and (v1, KIP-994) a minimal running
 *   duration; an admin client asks every broker and merges the answers.
 */
import { describeRefusal, type TransactionCoordinator } from "../../../coordinator/index.js";
import { ApiKey } from "../../../protocol/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";

export const DESCRIBE_TRANSACTIONS_VERSIONS = { minVersion: 0, maxVersion: 0 } as const;
export const LIST_TRANSACTIONS_VERSIONS = { minVersion: 0, maxVersion: 1 } as const;

export function describeTransactionsHandler(
  transactions: TransactionCoordinator,
): ApiHandler<typeof ApiKey.DescribeTransactions> {
  return defineHandler(ApiKey.DescribeTransactions, {
    ...DESCRIBE_TRANSACTIONS_VERSIONS,
    handle: (request) =>
      respond({
        throttleTimeMs: 0,
        transactionStates: request.transactionalIds.map((transactionalId) => {
          const described = transactions.describe(transactionalId);
          return { ...described, topics: described.topics.map((topic) => ({ ...topic })) };
        }),
      }),
    errorResponse: (request, _context, errorCode) =>
      respond({
        throttleTimeMs: 0,
        transactionStates: request.transactionalIds.map((transactionalId) =>
          describeRefusal(transactionalId, errorCode),
        ),
      }),
  });
}

export function listTransactionsHandler(
  transactions: TransactionCoordinator,
): ApiHandler<typeof ApiKey.ListTransactions> {
  return defineHandler(ApiKey.ListTransactions, {
    ...LIST_TRANSACTIONS_VERSIONS,
    handle: (request) => {
      // The codec gives DurationFilter its default -1 below v1.
      const listed = transactions.list({
        states: request.stateFilters,
        producerIds: request.producerIdFilters,
        durationMs: request.durationFilter,
      });
      return respond({ throttleTimeMs: 0, ...listed });
    },
    errorResponse: (_request, _context, errorCode) =>
      respond({ throttleTimeMs: 0, errorCode, unknownStateFilters: [], transactionStates: [] }),
  });
}
