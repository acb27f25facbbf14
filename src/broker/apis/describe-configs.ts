/**
 * DescribeConfigs (32) on a broker: answered from the broker's own metadata image, as Kafka's
 * brokers answer it (it is not forwarded), with the controller's pure `describeConfigs`, its
 * versions and its error response. As Kafka's KafkaApis, each resource needs DESCRIBE_CONFIGS:
 * on its topic or group, on the cluster for a broker; the refused ones follow the others,
 * answered TOPIC_, GROUP_ or CLUSTER_AUTHORIZATION_FAILED.
 */
import {
  describeConfigs,
  describeConfigsApi,
  responseForVersion,
  type StaticBrokerConfig,
} from "../../controller/index.js";
import { ErrorCode } from "../../common/index.js";
import {
  AclOperation,
  AclResourceType,
  CLUSTER_RESOURCE_NAME,
  ConfigResourceType,
} from "../../metadata/index.js";
import {
  ApiKey,
  type DescribeConfigsRequestDescribeConfigsResource,
} from "../../protocol/index.js";
import type { RequestAuthorization } from "../security/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";
import { controllerErrorResponse } from "./admin-error-responses.js";

/** The DescribeConfigs versions served: the controller's (those of Kafka 3.7-3.9, v0-4). */
export const DESCRIBE_CONFIGS_VERSIONS = {
  minVersion: describeConfigsApi.minVersion,
  maxVersion: describeConfigsApi.maxVersion,
} as const;

/** What DescribeConfigs reads besides the image. */
export interface DescribeConfigsOptions {
  readonly brokerId: number;
  /** The node's static config file, whose values are the STATIC_BROKER_CONFIG source. */
  readonly staticConfig: StaticBrokerConfig;
}

export function describeConfigsHandler(
  metadataCache: MetadataCache,
  options: DescribeConfigsOptions,
): ApiHandler<typeof ApiKey.DescribeConfigs> {
  return defineHandler(ApiKey.DescribeConfigs, {
    ...DESCRIBE_CONFIGS_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, context) => {
      const { brokerId, staticConfig } = options;
      const refusals = request.resources.map((resource) =>
        refusalOf(context.authorization, resource),
      );
      const allowed = request.resources.filter((_, index) => refusals[index] === undefined);
      const described = describeConfigs(
        { image: metadataCache.image, staticConfig, brokerId },
        { ...request, resources: allowed },
      );
      const refused = request.resources.flatMap((resource, index) => {
        const errorCode = refusals[index];
        if (errorCode === undefined) return [];
        const { resourceType, resourceName } = resource;
        return [{ errorCode, errorMessage: null, resourceType, resourceName, configs: [] }];
      });
      const response = { ...described, results: [...described.results, ...refused] };
      // The answer states every field; each version leaves out those it lacks (isDefault, v0).
      const version = context.header.apiVersion;
      return respond(responseForVersion(ApiKey.DescribeConfigs, version, response));
    },
    errorResponse: (request, context, errorCode) =>
      respond(
        controllerErrorResponse(describeConfigsApi, request, context, { errorCode, message: null }),
      ),
  });
}

/** The error that refuses `resource` to the principal, or undefined when it may be described. */
function refusalOf(
  authorization: RequestAuthorization,
  resource: DescribeConfigsRequestDescribeConfigsResource,
): number | undefined {
  const { resourceType, resourceName } = resource;
  const operation = AclOperation.DESCRIBE_CONFIGS;
  switch (resourceType) {
    case ConfigResourceType.TOPIC:
      return authorization.authorize(operation, AclResourceType.TOPIC, resourceName)
        ? undefined
        : ErrorCode.TOPIC_AUTHORIZATION_FAILED;
    case ConfigResourceType.GROUP:
      return authorization.authorize(operation, AclResourceType.GROUP, resourceName)
        ? undefined
        : ErrorCode.GROUP_AUTHORIZATION_FAILED;
    case ConfigResourceType.BROKER:
    case ConfigResourceType.BROKER_LOGGER:
    case ConfigResourceType.CLIENT_METRICS:
      return authorization.authorize(operation, AclResourceType.CLUSTER, CLUSTER_RESOURCE_NAME)
        ? undefined
        : ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
    default:
      // An unknown resource type gets its own error from describeConfigs.
      return undefined;
  }
}
