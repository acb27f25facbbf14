/**
 * CreateAcls and DeleteAcls on the controller, as Kafka's AclControlManager (with the checks
 * its brokers' AclApis make first): each new ACL is validated alone and refused with
 * INVALID_REQUEST, an ACL equal to one that exists is not written again, and each DeleteAcls
 * filter removes every ACL it matches. Records are AccessControlEntryRecords with a fresh random
 * id, and RemoveAccessControlEntryRecords.
 */
import { ErrorCode, uuidFromRandomBytes, assert, type Uuid } from "../../common/index.js";
import {
  AclOperation,
  AclPatternType,
  AclPermissionType,
  AclResourceType,
  CLUSTER_RESOURCE_NAME,
  aclCodeName,
  aclFilterMatches,
  isUnknownAclFilter,
  sortedEntries,
  type AclBinding,
  type MetadataImage,
} from "../../metadata/index.js";
import {
  MetadataRecordType,
  type CreateAclsRequest,
  type CreateAclsResponse,
  type DeleteAclsRequest,
  type DeleteAclsResponse,
  type MetadataRecord,
} from "../../protocol/index.js";
import type { Random } from "../../ports/index.js";
import type { ControllerResult } from "../cluster/index.js";

/** Draws beyond this mean the random source is broken, not unlucky. */
const ACL_ID_DRAWS_MAX = 100;

/** The identity of an ACL regardless of its id, to find one that exists already. */
function aclKey(acl: AclBinding): string {
  return JSON.stringify([
    acl.resourceType,
    acl.resourceName,
    acl.patternType,
    acl.principal,
    acl.host,
    acl.operation,
    acl.permissionType,
  ]);
}

/** Why Kafka refuses `acl`, or undefined when it may be created. */
export function aclRefusal(acl: AclBinding): string | undefined {
  const { resourceType, patternType, operation, permissionType } = acl;
  if (resourceType === AclResourceType.CLUSTER && acl.resourceName !== CLUSTER_RESOURCE_NAME) {
    return `The only valid name for the CLUSTER resource is ${CLUSTER_RESOURCE_NAME}`;
  }
  if (acl.resourceName === "") return "Invalid empty resource name";
  const typeName = aclCodeName(AclResourceType, resourceType);
  if (typeName === "UNKNOWN" || typeName === "ANY") return `Invalid resourceType ${typeName}`;
  if (patternType !== AclPatternType.LITERAL && patternType !== AclPatternType.PREFIXED) {
    return `Invalid patternType ${aclCodeName(AclPatternType, patternType)}`;
  }
  const operationName = aclCodeName(AclOperation, operation);
  if (operationName === "UNKNOWN" || operationName === "ANY") {
    return `Invalid operation ${operationName}`;
  }
  if (permissionType !== AclPermissionType.ALLOW && permissionType !== AclPermissionType.DENY) {
    return `Invalid permissionType ${aclCodeName(AclPermissionType, permissionType)}`;
  }
  if (!/^[^:]+:.*$/.test(acl.principal)) {
    return `Could not parse principal from \`${acl.principal}\` (no colon is present)`;
  }
  return undefined;
}

export function createAcls(
  image: MetadataImage,
  random: Random,
  request: CreateAclsRequest,
): ControllerResult<CreateAclsResponse> {
  const existing = new Set<string>();
  const ids = new Set<Uuid>();
  for (const [id, acl] of image.security.acls) {
    existing.add(aclKey(acl));
    ids.add(id);
  }
  const records: MetadataRecord[] = [];
  const results = request.creations.map((creation) => {
    const acl = { ...creation, patternType: creation.resourcePatternType };
    const refusal = aclRefusal(acl);
    if (refusal !== undefined) {
      return { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: refusal };
    }
    const key = aclKey(acl);
    if (!existing.has(key)) {
      existing.add(key);
      const id = newAclId(random, ids);
      ids.add(id);
      const { resourceType, resourceName, patternType, principal, host } = acl;
      const data = { id, resourceType, resourceName, patternType, principal, host };
      const rights = { operation: acl.operation, permissionType: acl.permissionType };
      records.push({
        type: MetadataRecordType.AccessControlEntryRecord,
        version: 0,
        data: { ...data, ...rights },
      });
    }
    return { errorCode: ErrorCode.NONE, errorMessage: null };
  });
  return { records, response: { throttleTimeMs: 0, results } };
}

function newAclId(random: Random, taken: ReadonlySet<Uuid>): Uuid {
  for (let draw = 0; draw < ACL_ID_DRAWS_MAX; draw += 1) {
    const id = uuidFromRandomBytes(random.fill(new Uint8Array(16)));
    if (id !== undefined && !taken.has(id)) return id;
  }
  assert(false, `no free ACL id in ${ACL_ID_DRAWS_MAX} draws`);
}

export function deleteAcls(
  image: MetadataImage,
  request: DeleteAclsRequest,
): ControllerResult<DeleteAclsResponse> {
  const removed = new Set<string>();
  const records: MetadataRecord[] = [];
  const acls = sortedEntries(image.security.acls);
  const filterResults = request.filters.map((requested) => {
    const filter = {
      resourceType: requested.resourceTypeFilter,
      resourceName: requested.resourceNameFilter,
      patternType: requested.patternTypeFilter,
      principal: requested.principalFilter,
      host: requested.hostFilter,
      operation: requested.operation,
      permissionType: requested.permissionType,
    };
    if (isUnknownAclFilter(filter)) {
      const errorMessage = "The filter has an UNKNOWN element";
      return { errorCode: ErrorCode.INVALID_REQUEST, errorMessage, matchingAcls: [] };
    }
    const matchingAcls = [];
    for (const [id, acl] of acls) {
      if (!aclFilterMatches(filter, acl)) continue;
      const { resourceType, resourceName, patternType, principal, host } = acl;
      const { operation, permissionType } = acl;
      matchingAcls.push({
        ...{ errorCode: ErrorCode.NONE, errorMessage: null },
        ...{ resourceType, resourceName, patternType, principal, host, operation, permissionType },
      });
      if (removed.has(id)) continue;
      removed.add(id);
      records.push({
        type: MetadataRecordType.RemoveAccessControlEntryRecord,
        version: 0,
        data: { id },
      });
    }
    return { errorCode: ErrorCode.NONE, errorMessage: null, matchingAcls };
  });
  return { records, response: { throttleTimeMs: 0, filterResults } };
}
