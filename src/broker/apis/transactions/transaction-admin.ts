/**
 * The admin APIs of the transaction coordinator (KIP-664), as Kafka's KafkaApis serves them:
 *
 * - DescribeTransactions (65, v0): each asked transactional id as this coordinator holds it;
 *   NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS for an id whose partition it does not
 *   serve, TRANSACTIONAL_ID_NOT_FOUND for one it does not know, INVALID_REQUEST for "".
 * - ListTransactions (66, v0-1): every transactional id of the partitions this broker
 *   coordinates, filtered by state names, producer ids and (v1, KIP-994) a minimal running
 *   duration; an admin client asks every broker and merges the answers.
 *
 * Both need DESCRIBE on a transactional id to show it: DescribeTransactions answers
 * TRANSACTIONAL_ID_AUTHORIZATION_FAILED for the others and leaves out the topics the principal
 * may not DESCRIBE, ListTransactions leaves the others out.
 */
import { ErrorCode } from "../../../common/index.js";
import { describeRefusal, type TransactionCoordinator } from "../../../coordinator/index.js";
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import { ApiKey } from "../../../protocol/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";

export const DESCRIBE_TRANSACTIONS_VERSIONS = { minVersion: 0, maxVersion: 0 } as const;
export const LIST_TRANSACTIONS_VERSIONS = { minVersion: 0, maxVersion: 1 } as const;

export function describeTransactionsHandler(
  transactions: TransactionCoordinator,
): ApiHandler<typeof ApiKey.DescribeTransactions> {
  return defineHandler(ApiKey.DescribeTransactions, {
    ...DESCRIBE_TRANSACTIONS_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, { authorization }) => {
      const may = (resourceType: number, name: string) =>
        authorization.authorize(AclOperation.DESCRIBE, resourceType, name);
      const transactionStates = request.transactionalIds.map((transactionalId) => {
        if (!may(AclResourceType.TRANSACTIONAL_ID, transactionalId)) {
          const refused = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
          return describeRefusal(transactionalId, refused);
        }
        const described = transactions.describe(transactionalId);
        const topics = described.topics.filter(({ topic }) => may(AclResourceType.TOPIC, topic));
        return { ...described, topics: topics.map((topic) => ({ ...topic })) };
      });
      return respond({ throttleTimeMs: 0, transactionStates });
    },
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
    authorization: { kind: "handler" },
    handle: (request, { authorization }) => {
      // The codec gives DurationFilter its default -1 below v1.
      const listed = transactions.list({
        states: request.stateFilters,
        producerIds: request.producerIdFilters,
        durationMs: request.durationFilter,
      });
      const transactionStates = listed.transactionStates.filter(({ transactionalId }) =>
        authorization.authorize(
          AclOperation.DESCRIBE,
          AclResourceType.TRANSACTIONAL_ID,
          transactionalId,
        ),
      );
      return respond({ throttleTimeMs: 0, ...listed, transactionStates });
    },
    errorResponse: (_request, _context, errorCode) =>
      respond({ throttleTimeMs: 0, errorCode, unknownStateFilters: [], transactionStates: [] }),
  });
}
