/**
 * Kafka's StandardAuthorizer decision over the ACLs of one metadata image (its
 * StandardAuthorizerData): a principal in `super.users` may do everything; otherwise the ACLs
 * that apply to the resource (LITERAL of its name, LITERAL `*`, PREFIXED of a prefix of its name)
 * decide, for the principal or `User:*`, from the client's host or `*`. A DENY of the operation
 * (or of ALL) wins over any ALLOW; an ALLOW of READ, WRITE, DELETE or ALTER implies DESCRIBE, one
 * of ALTER_CONFIGS implies DESCRIBE_CONFIGS, one of ALL everything. When no ACL applies to the
 * resource at all, `allow.everyone.if.no.acl.found` decides.
 */
import type { AccessControlEntryRecord } from "../protocol/index.js";
import {
  AclOperation,
  AclPatternType,
  AclPermissionType,
  WILDCARD_HOST,
  WILDCARD_PRINCIPAL,
  WILDCARD_RESOURCE,
} from "../protocol/index.js";

/** Who asks and from where: "User:alice" and the client's address as Kafka prints it. */
export interface AclRequester {
  readonly principal: string;
  readonly host: string;
}

export interface AclAuthorizerOptions {
  /** `super.users`: principals ("User:admin") allowed everything. */
  readonly superUsers: ReadonlySet<string>;
  /** `allow.everyone.if.no.acl.found`. */
  readonly allowEveryoneIfNoAclFound: boolean;
}

const IMPLIES_DESCRIBE: ReadonlySet<number> = new Set([
  AclOperation.DESCRIBE,
  AclOperation.READ,
  AclOperation.WRITE,
  AclOperation.DELETE,
  AclOperation.ALTER,
]);
const IMPLIES_DESCRIBE_CONFIGS: ReadonlySet<number> = new Set([
  AclOperation.DESCRIBE_CONFIGS,
  AclOperation.ALTER_CONFIGS,
]);

/** The ACLs of one resource type, indexed the ways a decision looks them up. */
interface TypeAcls {
  readonly literal: Map<string, AccessControlEntryRecord[]>;
  readonly prefixed: AccessControlEntryRecord[];
}

/** One image's ACLs, ready for decisions; rebuilt when the image's ACLs change. */
export class AclAuthorizer {
  private readonly byType = new Map<number, TypeAcls>();

  constructor(
    readonly acls: Iterable<AccessControlEntryRecord>,
    readonly options: AclAuthorizerOptions,
  ) {
    for (const acl of acls) {
      let typeAcls = this.byType.get(acl.resourceType);
      if (typeAcls === undefined) {
        typeAcls = { literal: new Map(), prefixed: [] };
        this.byType.set(acl.resourceType, typeAcls);
      }
      if (acl.patternType === AclPatternType.PREFIXED) {
        typeAcls.prefixed.push(acl);
      } else {
        const named = typeAcls.literal.get(acl.resourceName) ?? [];
        named.push(acl);
        typeAcls.literal.set(acl.resourceName, named);
      }
    }
  }

  isSuperUser(principal: string): boolean {
    return this.options.superUsers.has(principal);
  }

  /** Whether `requester` may do `operation` on the resource of `resourceType` named `name`. */
  authorize(requester: AclRequester, operation: number, resourceType: number, name: string) {
    if (this.isSuperUser(requester.principal)) return true;
    const typeAcls = this.byType.get(resourceType);
    let hasResourceAcls = false;
    let isAllowed = false;
    for (const acl of applicableAcls(typeAcls, name)) {
      hasResourceAcls = true;
      const result = aclResult(acl, requester, operation);
      if (result === "deny") return false;
      if (result === "allow") isAllowed = true;
    }
    if (isAllowed) return true;
    return !hasResourceAcls && this.options.allowEveryoneIfNoAclFound;
  }

  /**
   * Kafka's Authorizer.authorizeByResourceType: whether `requester` may do `operation` on at
   * least one resource of `resourceType`, an ALLOW (of the operation or ALL) that no DENY
   * covers. InitProducerId asks it for WRITE on any topic (KIP-679).
   */
  authorizeByResourceType(requester: AclRequester, operation: number, resourceType: number) {
    if (this.isSuperUser(requester.principal)) return true;
    const deniedLiteral = new Set<string>();
    const deniedPrefixes: string[] = [];
    const allowed: AccessControlEntryRecord[] = [];
    for (const acl of this.aclsOfType(resourceType)) {
      if (!matchesRequester(acl, requester)) continue;
      if (acl.operation !== operation && acl.operation !== AclOperation.ALL) continue;
      if (acl.permissionType === AclPermissionType.ALLOW) {
        allowed.push(acl);
      } else if (acl.patternType === AclPatternType.PREFIXED) {
        deniedPrefixes.push(acl.resourceName);
      } else {
        deniedLiteral.add(acl.resourceName);
      }
    }
    if (deniedLiteral.has(WILDCARD_RESOURCE)) return false;
    const isDeniedByPrefix = (name: string) => deniedPrefixes.some((p) => name.startsWith(p));
    return allowed.some((acl) => {
      if (isDeniedByPrefix(acl.resourceName)) return false;
      if (acl.patternType === AclPatternType.PREFIXED) return true;
      return acl.resourceName === WILDCARD_RESOURCE || !deniedLiteral.has(acl.resourceName);
    });
  }

  private *aclsOfType(resourceType: number): Iterable<AccessControlEntryRecord> {
    const typeAcls = this.byType.get(resourceType);
    if (typeAcls === undefined) return;
    for (const named of typeAcls.literal.values()) yield* named;
    yield* typeAcls.prefixed;
  }
}

/** The ACLs whose pattern covers resource `name`. */
function* applicableAcls(
  typeAcls: TypeAcls | undefined,
  name: string,
): Iterable<AccessControlEntryRecord> {
  if (typeAcls === undefined) return;
  yield* typeAcls.literal.get(name) ?? [];
  if (name !== WILDCARD_RESOURCE) yield* typeAcls.literal.get(WILDCARD_RESOURCE) ?? [];
  for (const acl of typeAcls.prefixed) if (name.startsWith(acl.resourceName)) yield acl;
}

function matchesRequester(acl: AccessControlEntryRecord, requester: AclRequester): boolean {
  if (acl.principal !== requester.principal && acl.principal !== WILDCARD_PRINCIPAL) return false;
  return acl.host === WILDCARD_HOST || acl.host === requester.host;
}

/** What one ACL says of the request: Kafka's findResult. */
function aclResult(
  acl: AccessControlEntryRecord,
  requester: AclRequester,
  operation: number,
): "allow" | "deny" | undefined {
  if (!matchesRequester(acl, requester)) return undefined;
  const isAllow = acl.permissionType === AclPermissionType.ALLOW;
  if (acl.operation !== AclOperation.ALL && acl.operation !== operation) {
    if (!isAllow) return undefined;
    if (operation === AclOperation.DESCRIBE) {
      if (!IMPLIES_DESCRIBE.has(acl.operation)) return undefined;
    } else if (operation === AclOperation.DESCRIBE_CONFIGS) {
      if (!IMPLIES_DESCRIBE_CONFIGS.has(acl.operation)) return undefined;
    } else {
      return undefined;
    }
  }
  return isAllow ? "allow" : "deny";
}
