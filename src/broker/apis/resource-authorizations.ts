/**
 * The one-resource checks the router makes for the group and transaction APIs, as Kafka's
 * KafkaApis: a member's requests need READ on its group (OffsetFetch DESCRIBE), a transaction's
 * WRITE on its transactional id.
 */
import { ErrorCode } from "../../common/index.js";
import { AclOperation, AclResourceType } from "../../metadata/index.js";

/** `operation` on the request's group, else GROUP_AUTHORIZATION_FAILED. */
export function groupAuthorization(operation: number) {
  return {
    kind: "resource",
    operation,
    resourceType: AclResourceType.GROUP,
    resourceName: (request: { readonly groupId: string }) => request.groupId,
    errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED,
  } as const;
}

/** WRITE on the request's transactional id, else TRANSACTIONAL_ID_AUTHORIZATION_FAILED. */
export const TRANSACTIONAL_ID_WRITE = {
  kind: "resource",
  operation: AclOperation.WRITE,
  resourceType: AclResourceType.TRANSACTIONAL_ID,
  resourceName: (request: { readonly transactionalId: string }) => request.transactionalId,
  errorCode: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
} as const;
