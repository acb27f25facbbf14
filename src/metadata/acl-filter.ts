/**
 * Kafka's AclBindingFilter: which ACLs a DescribeAcls or DeleteAcls filter selects. A null name,
 * principal or host matches any; ANY matches any resource type, pattern type, operation or
 * permission type; the MATCH pattern type selects every ACL that would apply to the named
 * resource (LITERAL of the name or `*`, PREFIXED of a prefix of it).
 */
import {
  AclOperation,
  AclPatternType,
  AclPermissionType,
  AclResourceType,
  WILDCARD_RESOURCE,
  isKnownAclCode,
} from "../protocol/index.js";

/** An ACL as the protocol states it (an AccessControlEntryRecord without its id). */
export interface AclBinding {
  readonly resourceType: number;
  readonly resourceName: string;
  readonly patternType: number;
  readonly principal: string;
  readonly host: string;
  readonly operation: number;
  readonly permissionType: number;
}

export interface AclBindingFilter {
  readonly resourceType: number;
  readonly resourceName: string | null;
  readonly patternType: number;
  readonly principal: string | null;
  readonly host: string | null;
  readonly operation: number;
  readonly permissionType: number;
}

/**
 * Whether the filter has an UNKNOWN (or unknown) element, which Kafka refuses: its
 * AclBindingFilter.isUnknown.
 */
export function isUnknownAclFilter(filter: AclBindingFilter): boolean {
  return (
    !isKnownAclCode(AclResourceType, filter.resourceType) ||
    !isKnownAclCode(AclPatternType, filter.patternType) ||
    !isKnownAclCode(AclOperation, filter.operation) ||
    !isKnownAclCode(AclPermissionType, filter.permissionType)
  );
}

export function aclFilterMatches(filter: AclBindingFilter, acl: AclBinding): boolean {
  return patternMatches(filter, acl) && entryMatches(filter, acl);
}

function patternMatches(filter: AclBindingFilter, acl: AclBinding): boolean {
  if (filter.resourceType !== AclResourceType.ANY && filter.resourceType !== acl.resourceType) {
    return false;
  }
  const { patternType } = filter;
  const isAnyPattern = patternType === AclPatternType.ANY;
  if (!isAnyPattern && patternType !== AclPatternType.MATCH && patternType !== acl.patternType) {
    return false;
  }
  const name = filter.resourceName;
  if (name === null) return true;
  if (isAnyPattern || patternType === acl.patternType) return name === acl.resourceName;
  if (acl.patternType === AclPatternType.PREFIXED) return name.startsWith(acl.resourceName);
  return name === acl.resourceName || acl.resourceName === WILDCARD_RESOURCE;
}

function entryMatches(filter: AclBindingFilter, acl: AclBinding): boolean {
  if (filter.principal !== null && filter.principal !== acl.principal) return false;
  if (filter.host !== null && filter.host !== acl.host) return false;
  if (filter.operation !== AclOperation.ANY && filter.operation !== acl.operation) return false;
  const { permissionType } = filter;
  return permissionType === AclPermissionType.ANY || permissionType === acl.permissionType;
}
