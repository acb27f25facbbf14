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
import { ApiKey } from "../../protocol/index.js";
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
    handle: (request, context) => {
      const { brokerId, staticConfig } = options;
      const response = describeConfigs(
        { image: metadataCache.image, staticConfig, brokerId },
        request,
      );
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
