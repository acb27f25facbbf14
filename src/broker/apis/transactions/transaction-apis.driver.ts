/**
 * The producer's transaction APIs on the transaction coordinator, as Kafka's KafkaApis serves
 * them to clients:
 *
 * - AddPartitionsToTxn: add-partitions-to-txn.driver.ts.
 * - AddOffsetsToTxn (25, v0-3): adds the group's `__consumer_offsets` partition.
 * - EndTxn (26, v0-3): answered once PrepareCommit or PrepareAbort is durable; v4+ (KIP-890
 *   part 2, TRANSACTION_ABORTABLE and epoch bumps per transaction) is not served.
 *
 * Below v2 PRODUCER_FENCED is answered INVALID_PRODUCER_EPOCH, which older clients know.
 */
import { AclOperation, AclResourceType } from "../../../metadata/index.js";
import { TRANSACTIONAL_ID_WRITE } from "../resource-authorizations.js";
import { fencedErrorFor } from "./add-partitions-to-txn.driver.js";
import { ErrorCode } from "../../../common/index.js";
import {
  OFFSETS_TOPIC,
  type GroupCoordinator,
  type TransactionCoordinator,
} from "../../../coordinator/index.js";
import { ApiKey } from "../../../protocol/index.js";
import { defineHandler, respond, type ApiHandler } from "../../router/handler.js";

export const ADD_OFFSETS_TO_TXN_VERSIONS = { minVersion: 0, maxVersion: 3 } as const;
export const END_TXN_VERSIONS = { minVersion: 0, maxVersion: 3 } as const;

export function addOffsetsToTxnHandler(
  transactions: TransactionCoordinator,
  groups: GroupCoordinator,
): ApiHandler<typeof ApiKey.AddOffsetsToTxn> {
  return defineHandler(ApiKey.AddOffsetsToTxn, {
    ...ADD_OFFSETS_TO_TXN_VERSIONS,
    authorization: TRANSACTIONAL_ID_WRITE,
    handle: async (request, context) => {
      const { transactionalId, producerId, producerEpoch } = request;
      // Kafka's KafkaApis: READ on the group whose offsets join the transaction.
      const type = AclResourceType.GROUP;
      if (!context.authorization.authorize(AclOperation.READ, type, request.groupId)) {
        return respond({ throttleTimeMs: 0, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED });
      }
      const partition = { topic: OFFSETS_TOPIC, partition: groups.partitionFor(request.groupId) };
      const errorCode =
        transactionalId === ""
          ? ErrorCode.INVALID_REQUEST
          : await transactions.addPartitions(transactionalId, { producerId, producerEpoch }, [
              partition,
            ]);
      const answered = fencedErrorFor(context.header.apiVersion, errorCode);
      return respond({ throttleTimeMs: 0, errorCode: answered });
    },
    errorResponse: (_request, _context, errorCode) => respond({ throttleTimeMs: 0, errorCode }),
  });
}

export function endTxnHandler(
  transactions: TransactionCoordinator,
): ApiHandler<typeof ApiKey.EndTxn> {
  return defineHandler(ApiKey.EndTxn, {
    ...END_TXN_VERSIONS,
    authorization: TRANSACTIONAL_ID_WRITE,
    handle: async (request, context) => {
      const { transactionalId, producerId, producerEpoch } = request;
      const errorCode =
        transactionalId === ""
          ? ErrorCode.INVALID_REQUEST
          : await transactions.endTransaction(
              transactionalId,
              { producerId, producerEpoch },
              request.committed,
            );
      const answered = fencedErrorFor(context.header.apiVersion, errorCode);
      return respond({ throttleTimeMs: 0, errorCode: answered, producerId: -1, producerEpoch: -1 });
    },
    errorResponse: (_request, _context, errorCode) =>
      respond({ throttleTimeMs: 0, errorCode, producerId: -1, producerEpoch: -1 }),
  });
}
