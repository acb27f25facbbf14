/**
 * DescribeAcls (29, v1-3, Kafka 4's range) answered from the broker's own image, as Kafka's
 * brokers answer it from their authorizer: the ACLs the filter matches, grouped by resource
 * pattern. It needs DESCRIBE on the cluster (the router checks it); without an authorizer it
 * answers SECURITY_DISABLED. A filter with an UNKNOWN element is refused with INVALID_REQUEST.
 */
import { ErrorCode } from "../../common/index.js";
import {
  AclOperation,
  aclFilterMatches,
  isUnknownAclFilter,
  sortedEntries,
  type AclBinding,
} from "../../metadata/index.js";
import {
  ApiKey,
  type DescribeAclsResponseAclDescription,
  type DescribeAclsResponseDescribeAclsResource,
} from "../../protocol/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export const DESCRIBE_ACLS_VERSIONS = { minVersion: 1, maxVersion: 3 } as const;

export function describeAclsHandler(
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.DescribeAcls> {
  return defineHandler(ApiKey.DescribeAcls, {
    ...DESCRIBE_ACLS_VERSIONS,
    authorization: { kind: "cluster", operation: AclOperation.DESCRIBE },
    handle: (request, context) => {
      if (!context.authorization.isEnabled) {
        return respond({
          errorCode: ErrorCode.SECURITY_DISABLED,
          errorMessage: "No Authorizer is configured on the broker",
        });
      }
      const filter = {
        resourceType: request.resourceTypeFilter,
        resourceName: request.resourceNameFilter,
        patternType: request.patternTypeFilter,
        principal: request.principalFilter,
        host: request.hostFilter,
        operation: request.operation,
        permissionType: request.permissionType,
      };
      if (isUnknownAclFilter(filter)) {
        const errorMessage = "DescribeAclsRequest contains UNKNOWN elements";
        return respond({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage });
      }
      const matching = sortedEntries(metadataCache.image.security.acls)
        .map(([, acl]) => acl)
        .filter((acl) => aclFilterMatches(filter, acl));
      return respond({ errorCode: ErrorCode.NONE, resources: groupedByPattern(matching) });
    },
  });
}

/** Kafka's DescribeAclsResponse.aclsResources: one entry per resource pattern. */
function groupedByPattern(acls: readonly AclBinding[]): DescribeAclsResponseDescribeAclsResource[] {
  const byPattern = new Map<
    string,
    {
      resourceType: number;
      resourceName: string;
      patternType: number;
      acls: DescribeAclsResponseAclDescription[];
    }
  >();
  for (const acl of acls) {
    const { resourceType, resourceName, patternType } = acl;
    const key = JSON.stringify([resourceType, resourceName, patternType]);
    let resource = byPattern.get(key);
    if (resource === undefined) {
      resource = { resourceType, resourceName, patternType, acls: [] };
      byPattern.set(key, resource);
    }
    const { principal, host, operation, permissionType } = acl;
    resource.acls.push({ principal, host, operation, permissionType });
  }
  return [...byPattern.values()];
}
