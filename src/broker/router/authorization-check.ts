/** The router's check of a request against its handler's declared authorization. */
import { assertNever, ErrorCode } from "../../common/index.js";
import type { ApiKey, ApiRequest } from "../../protocol/index.js";
import type { RequestAuthorization } from "../security/request-authorization.js";
import type { HandlerAuthorization } from "./handler.js";

/** Why the router refuses a request of a principal that is not a super user, if it does. */
export function refusalOf<K extends ApiKey>(
  declared: HandlerAuthorization<K> | undefined,
  authorization: RequestAuthorization,
  request: () => ApiRequest<K>,
): number | undefined {
  if (declared === undefined) return ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
  switch (declared.kind) {
    case "none":
    case "handler":
      return undefined;
    case "cluster":
      return authorization.authorizeCluster(declared.operation)
        ? undefined
        : ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
    case "resource": {
      const { operation, resourceType } = declared;
      const name = declared.resourceName(request());
      return authorization.authorize(operation, resourceType, name)
        ? undefined
        : declared.errorCode;
    }
    default:
      return assertNever(declared, "handler authorization");
  }
}
