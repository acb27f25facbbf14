/**
 * Kafka's ACL vocabulary as the protocol codes it (org.apache.kafka.common.acl and
 * org.apache.kafka.common.resource): resource types, pattern types, operations and permission
 * types, with the names Kafka prints them by.
 */

/** Kafka's ResourceType codes. */
export const AclResourceType = {
  UNKNOWN: 0,
  ANY: 1,
  TOPIC: 2,
  GROUP: 3,
  CLUSTER: 4,
  TRANSACTIONAL_ID: 5,
  DELEGATION_TOKEN: 6,
  USER: 7,
} as const;
export type AclResourceType = (typeof AclResourceType)[keyof typeof AclResourceType];

/** Kafka's PatternType codes; ACLs are LITERAL or PREFIXED, filters may say ANY or MATCH. */
export const AclPatternType = {
  UNKNOWN: 0,
  ANY: 1,
  MATCH: 2,
  LITERAL: 3,
  PREFIXED: 4,
} as const;

/** Kafka's AclOperation codes. */
export const AclOperation = {
  UNKNOWN: 0,
  ANY: 1,
  ALL: 2,
  READ: 3,
  WRITE: 4,
  CREATE: 5,
  DELETE: 6,
  ALTER: 7,
  DESCRIBE: 8,
  CLUSTER_ACTION: 9,
  DESCRIBE_CONFIGS: 10,
  ALTER_CONFIGS: 11,
  IDEMPOTENT_WRITE: 12,
  CREATE_TOKENS: 13,
  DESCRIBE_TOKENS: 14,
} as const;
export type AclOperation = (typeof AclOperation)[keyof typeof AclOperation];

/** Kafka's AclPermissionType codes. */
export const AclPermissionType = {
  UNKNOWN: 0,
  ANY: 1,
  DENY: 2,
  ALLOW: 3,
} as const;

/** The name of the one CLUSTER resource, and the wildcards of names, principals and hosts. */
export const CLUSTER_RESOURCE_NAME = "kafka-cluster";
export const WILDCARD_RESOURCE = "*";
export const WILDCARD_PRINCIPAL = "User:*";
export const WILDCARD_HOST = "*";

/** The name of `code` in `table`, or UNKNOWN for a code the table lacks (Kafka's fromCode). */
export function aclCodeName(table: Readonly<Record<string, number>>, code: number): string {
  for (const [name, value] of Object.entries(table)) if (value === code) return name;
  return "UNKNOWN";
}

/** The code of `name` in `table` (case-insensitive, `-` or `_`), or undefined. */
export function aclCodeOf(
  table: Readonly<Record<string, number>>,
  name: string,
): number | undefined {
  const wanted = name.toUpperCase().replaceAll("-", "_");
  for (const [key, value] of Object.entries(table)) if (key === wanted) return value;
  return undefined;
}

/** Whether `code` is a known, concrete value of `table` (not UNKNOWN, and in the table). */
export function isKnownAclCode(table: Readonly<Record<string, number>>, code: number): boolean {
  return code !== 0 && Object.values(table).includes(code);
}
