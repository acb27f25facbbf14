/**
 * AlterConfigs and IncrementalAlterConfigs checked per resource on the broker before they are
 * forwarded, as Kafka's ControllerApis (its authorizeAlterResource) and, for loggers, its
 * ConfigAdminManager check them: ALTER_CONFIGS on the cluster for BROKER, BROKER_LOGGER and
 * CLIENT_METRICS resources (else CLUSTER_AUTHORIZATION_FAILED), on the topic for a TOPIC
 * (TOPIC_AUTHORIZATION_FAILED) and on the group for a GROUP (GROUP_AUTHORIZATION_FAILED). A
 * resource of another type goes on, for the controller to refuse.
 */
import { ErrorCode } from "../../common/index.js";
import { AclOperation, AclResourceType, ConfigResourceType } from "../../metadata/index.js";
import type { HandlerContext } from "../router/handler.js";

/** A refused resource's error, with Kafka's message for the code. */
export interface ConfigChangeRefusal {
  readonly errorCode: number;
  readonly message: string;
}

const CLUSTER_REFUSAL = {
  errorCode: ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
  message: "Cluster authorization failed.",
} as const;

/** What the principal is refused for changing `resource`'s configs, if anything. */
export function configChangeRefusal(
  resource: { readonly resourceType: number; readonly resourceName: string },
  context: HandlerContext,
): ConfigChangeRefusal | undefined {
  const { authorization } = context;
  const { resourceType, resourceName } = resource;
  switch (resourceType) {
    case ConfigResourceType.BROKER:
    case ConfigResourceType.BROKER_LOGGER:
    case ConfigResourceType.CLIENT_METRICS:
      return authorization.authorizeCluster(AclOperation.ALTER_CONFIGS)
        ? undefined
        : CLUSTER_REFUSAL;
    case ConfigResourceType.TOPIC:
      return authorization.authorize(
        AclOperation.ALTER_CONFIGS,
        AclResourceType.TOPIC,
        resourceName,
      )
        ? undefined
        : {
            errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
            message: "Topic authorization failed.",
          };
    case ConfigResourceType.GROUP:
      return authorization.authorize(
        AclOperation.ALTER_CONFIGS,
        AclResourceType.GROUP,
        resourceName,
      )
        ? undefined
        : {
            errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED,
            message: "Group authorization failed.",
          };
    default:
      return undefined;
  }
}
