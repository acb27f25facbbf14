/**
 * The authorized-operations bit fields of Metadata (v8+), DescribeCluster and DescribeGroups
 * (v3+): of the operations a resource type supports (Kafka's AclEntry.supportedOperations), the
 * ones the authorizer grants the principal (all of them without an authorizer), as Kafka's
 * AuthHelper.authorizedOperations computes them. A request that does not ask gets
 * Integer.MIN_VALUE, Kafka's "not asked for".
 */

import { AclOperation } from "./acl-types.js";

/** Kafka's value of an authorized-operations field that was not asked for. */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

/** The resource types whose operations these APIs report. */
export type AuthorizedResourceType = "topic" | "group" | "cluster";

/** The operations each resource type supports, as Kafka 4's AclEntry lists them. */
const SUPPORTED_OPERATIONS: Readonly<Record<AuthorizedResourceType, readonly number[]>> = {
  topic: [
    AclOperation.READ,
    AclOperation.WRITE,
    AclOperation.CREATE,
    AclOperation.DELETE,
    AclOperation.ALTER,
    AclOperation.DESCRIBE,
    AclOperation.DESCRIBE_CONFIGS,
    AclOperation.ALTER_CONFIGS,
  ],
  group: [
    AclOperation.READ,
    AclOperation.DELETE,
    AclOperation.DESCRIBE,
    AclOperation.DESCRIBE_CONFIGS,
    AclOperation.ALTER_CONFIGS,
  ],
  cluster: [
    AclOperation.CREATE,
    AclOperation.ALTER,
    AclOperation.DESCRIBE,
    AclOperation.CLUSTER_ACTION,
    AclOperation.DESCRIBE_CONFIGS,
    AclOperation.ALTER_CONFIGS,
    AclOperation.IDEMPOTENT_WRITE,
  ],
};

/**
 * The authorized-operations field for a resource of `resourceType`: bit `code` set for each
 * supported AclOperation `isAllowed` grants (every one when it is not given) when the request
 * asked for them, else AUTHORIZED_OPERATIONS_OMITTED.
 */
export function authorizedOperations(
  resourceType: AuthorizedResourceType,
  asked: boolean,
  isAllowed: (operation: number) => boolean = () => true,
): number {
  if (!asked) return AUTHORIZED_OPERATIONS_OMITTED;
  let field = 0;
  for (const code of SUPPORTED_OPERATIONS[resourceType]) if (isAllowed(code)) field |= 1 << code;
  return field;
}
