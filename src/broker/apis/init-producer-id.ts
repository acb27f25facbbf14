/**
 * InitProducerId (22, v0-5), as Kafka's KafkaApis and TransactionCoordinator answer it:
 *
 * - a ProducerId/ProducerEpoch pair (v3+) with exactly one of them -1 is INVALID_REQUEST;
 * - without a transactional id, every request gets a new producer id with epoch 0, whatever
 *   ProducerId and ProducerEpoch it carries (a KIP-360 bump of an idempotent producer is a new
 *   id: the partitions hold no state that an epoch would fence);
 * - the ids come from the blocks the controller grants (ProducerIdManager); while none is at
 *   hand the answer is COORDINATOR_LOAD_IN_PROGRESS, which clients retry;
 * - an empty transactional id is INVALID_REQUEST; a timeout outside 1 to
 *   `transaction.max.timeout.ms` INVALID_TRANSACTION_TIMEOUT; any other goes to the transaction
 *   coordinator (epoch bumps, fencing of the ongoing transaction, KIP-360 recovery), and is
 *   NOT_COORDINATOR on a broker that does not lead the id's `__transaction_state` partition.
 */
import { AclOperation, AclResourceType } from "../../metadata/index.js";
import type { RequestAuthorization } from "../security/index.js";
import { ErrorCode } from "../../common/index.js";
import type { ProducerIdManager, TransactionCoordinator } from "../../coordinator/index.js";
import { ApiKey, type InitProducerIdRequest } from "../../protocol/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

/** Every version Kafka defines. */
export const INIT_PRODUCER_ID_VERSIONS = { minVersion: 0, maxVersion: 5 } as const;

const NO_PRODUCER_ID = -1;
const NO_PRODUCER_EPOCH = -1;

function refused(errorCode: number) {
  return {
    throttleTimeMs: 0,
    errorCode,
    producerId: NO_PRODUCER_ID,
    producerEpoch: NO_PRODUCER_EPOCH,
  };
}

/** The error that refuses `request` before any coordinator sees it, or undefined. */
function refusalOf(
  request: InitProducerIdRequest,
  transactions: TransactionCoordinator | undefined,
): number | undefined {
  const hasProducerId = request.producerId !== NO_PRODUCER_ID;
  const hasEpoch = request.producerEpoch !== NO_PRODUCER_EPOCH;
  if (hasProducerId !== hasEpoch) return ErrorCode.INVALID_REQUEST;
  if (request.transactionalId === null) return undefined;
  if (request.transactionalId === "") return ErrorCode.INVALID_REQUEST;
  if (transactions === undefined) return ErrorCode.NOT_COORDINATOR;
  if (!transactions.isValidTimeout(request.transactionTimeoutMs)) {
    return ErrorCode.INVALID_TRANSACTION_TIMEOUT;
  }
  return undefined;
}

/**
 * Kafka's KafkaApis: a transactional producer needs WRITE on its transactional id; an
 * idempotent one IDEMPOTENT_WRITE on the cluster or WRITE on some topic (KIP-679).
 */
function unauthorizedError(
  request: InitProducerIdRequest,
  authorization: RequestAuthorization,
): number | undefined {
  const { transactionalId } = request;
  if (transactionalId !== null) {
    const type = AclResourceType.TRANSACTIONAL_ID;
    return authorization.authorize(AclOperation.WRITE, type, transactionalId)
      ? undefined
      : ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
  }
  const isAllowed =
    authorization.authorizeCluster(AclOperation.IDEMPOTENT_WRITE) ||
    authorization.authorizeByResourceType(AclOperation.WRITE, AclResourceType.TOPIC);
  return isAllowed ? undefined : ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
}

export function initProducerIdHandler(
  producerIds: ProducerIdManager,
  transactions?: TransactionCoordinator,
): ApiHandler<typeof ApiKey.InitProducerId> {
  return defineHandler(ApiKey.InitProducerId, {
    ...INIT_PRODUCER_ID_VERSIONS,
    authorization: { kind: "handler" },
    handle: async (request, context) => {
      const refusal =
        unauthorizedError(request, context.authorization) ?? refusalOf(request, transactions);
      if (refusal !== undefined) return respond(refused(refusal));
      const { transactionalId } = request;
      if (transactionalId !== null && transactions !== undefined) {
        const hasExpected = request.producerId !== NO_PRODUCER_ID;
        const { producerId, producerEpoch } = request;
        const answer = await transactions.initProducerId(transactionalId, {
          timeoutMs: request.transactionTimeoutMs,
          expected: hasExpected ? { producerId, producerEpoch } : undefined,
        });
        return respond({ throttleTimeMs: 0, ...answer });
      }
      const producerId = producerIds.generateProducerId();
      if (producerId === undefined) return respond(refused(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS));
      return respond({
        throttleTimeMs: 0,
        errorCode: ErrorCode.NONE,
        producerId,
        producerEpoch: 0,
      });
    },
    errorResponse: (_request, _context, errorCode) => respond(refused(errorCode)),
  });
}
