/**
 * DescribeConfigs (32) on a broker: answered from the broker's own metadata image, as Kafka's
 * brokers answer it (it is not forwarded), with the controller's pure `describeConfigs`, its
 * versions and its error response.
 */
import {
  describeConfigs,
  describeConfigsApi,
  responseForVersion,
  type StaticBrokerConfig,
} from "../../controller/index.js";
import type { DescribeConfigsRequest } from "../../protocol/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { respond, type ApiHandler } from "../router/handler.js";
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

/** The DescribeConfigs handler. */
export function describeConfigsHandler(
  metadataCache: MetadataCache,
  options: DescribeConfigsOptions,
): ApiHandler {
  return {
    ...DESCRIBE_CONFIGS_VERSIONS,
    handle: (context) => {
      const request = context.body as unknown as DescribeConfigsRequest;
      const { brokerId, staticConfig } = options;
      const response = describeConfigs(
        { image: metadataCache.image, staticConfig, brokerId },
        request,
      );
      // The answer states every field; each version leaves out those it lacks (isDefault, v0).
      return respond(responseForVersion(32, context.header.apiVersion, response));
    },
    errorResponse: (context, errorCode) =>
      respond(controllerErrorResponse(describeConfigsApi, context, { errorCode, message: null })),
  };
}
