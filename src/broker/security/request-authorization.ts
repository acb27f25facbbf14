/**
 * Authorization as a request sees it: the node's authorizer (Kafka's StandardAuthorizer over the
 * ACLs of the latest metadata image, rebuilt when they change), bound to the request's principal
 * and client host. Without `authorizer.class.name` every request is allowed, as Kafka without an
 * authorizer.
 */
import {
  AclAuthorizer,
  AclResourceType,
  CLUSTER_RESOURCE_NAME,
  type AclAuthorizerOptions,
  type AccessControlEntries,
} from "../../metadata/index.js";
import { principalText, type KafkaPrincipal } from "./kafka-principal.js";

/** What a handler may ask about its request's principal. */
export interface RequestAuthorization {
  /** False when no authorizer is configured: everything is allowed. */
  readonly isEnabled: boolean;
  /** Whether the principal may do `operation` on the resource. */
  authorize(operation: number, resourceType: number, resourceName: string): boolean;
  /** Whether the principal may do `operation` on the cluster. */
  authorizeCluster(operation: number): boolean;
  /** Kafka's authorizeByResourceType: `operation` on some resource of the type. */
  authorizeByResourceType(operation: number, resourceType: number): boolean;
  /** Whether the principal is a super user (always true without an authorizer). */
  readonly isSuperUser: boolean;
}

/** The same decision for every resource. */
function uniform(
  decide: () => boolean,
  flags: { readonly isEnabled: boolean; readonly isSuperUser: boolean },
): RequestAuthorization {
  const { isEnabled, isSuperUser } = flags;
  return Object.freeze({
    ...{ isEnabled, isSuperUser },
    ...{ authorize: decide, authorizeCluster: decide, authorizeByResourceType: decide },
  });
}

/** Every request is allowed: no authorizer is configured. */
export const ALLOW_EVERYTHING = uniform(() => true, { isEnabled: false, isSuperUser: true });

/** Nothing is allowed: an error response built before the ACLs are loaded names nothing. */
export const DENY_EVERYTHING = uniform(() => false, { isEnabled: true, isSuperUser: false });

/**
 * A decision asked of an authorizer that has not loaded the ACLs of the metadata log yet
 * (Kafka's AuthorizerNotReadyException); the request is answered with UNKNOWN_SERVER_ERROR.
 */
export class AuthorizerNotReadyError extends Error {
  constructor() {
    super("the authorizer has not loaded the ACLs of the metadata log yet");
    this.name = "AuthorizerNotReadyError";
  }
}

/** Every decision throws AuthorizerNotReadyError. */
const NOT_READY = uniform(
  () => {
    throw new AuthorizerNotReadyError();
  },
  { isEnabled: true, isSuperUser: false },
);

/**
 * The node's authorizer over whatever ACLs `acls` returns now. Until `isLoaded` is true (the
 * node has read the metadata log up to its high watermark once), only super users are
 * authorized, as Kafka's StandardAuthorizer before its initial load completes.
 */
export class NodeAuthorizer {
  private current: { readonly acls: AccessControlEntries; readonly authorizer: AclAuthorizer };

  constructor(
    private readonly acls: () => AccessControlEntries,
    private readonly options: AclAuthorizerOptions,
    private readonly isLoaded: () => boolean = () => true,
  ) {
    const initial = acls();
    this.current = { acls: initial, authorizer: new AclAuthorizer(initial.values(), options) };
  }

  /** The authorizer over the latest ACLs; rebuilt only when the image's ACLs changed. */
  get authorizer(): AclAuthorizer {
    const acls = this.acls();
    if (acls !== this.current.acls) {
      this.current = { acls, authorizer: new AclAuthorizer(acls.values(), this.options) };
    }
    return this.current.authorizer;
  }

  /** Authorization for a request of `principal` from `host`. */
  forRequest(principal: KafkaPrincipal, host: string): RequestAuthorization {
    const authorizer = this.authorizer;
    const requester = { principal: principalText(principal), host };
    const isSuperUser = authorizer.isSuperUser(requester.principal);
    if (!isSuperUser && !this.isLoaded()) return NOT_READY;
    return {
      isEnabled: true,
      authorize: (operation, resourceType, name) =>
        authorizer.authorize(requester, operation, resourceType, name),
      authorizeCluster: (operation) =>
        authorizer.authorize(requester, operation, AclResourceType.CLUSTER, CLUSTER_RESOURCE_NAME),
      authorizeByResourceType: (operation, resourceType) =>
        authorizer.authorizeByResourceType(requester, operation, resourceType),
      isSuperUser,
    };
  }
}
