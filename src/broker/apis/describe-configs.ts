/**
 * DescribeConfigs (32) on a broker: answered from the broker's own metadata image, as Kafka's
 * brokers answer it (it is not forwarded), with the controller's pure `describeConfigs`.
 */
import { describeConfigs, type StaticBrokerConfig } from "../../controller/index.js";
import type { DescribeConfigsRequest } from "../../protocol/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { respond, type ApiHandler } from "../router/handler.js";
import { adminErrorResponse } from "./admin-error-responses.js";

/** The DescribeConfigs versions served: those of Kafka 3.7-3.9 (v0-4). */
export const DESCRIBE_CONFIGS_VERSIONS = { minVersion: 0, maxVersion: 4 } as const;

/** What DescribeConfigs reads besides the image. */
export interface DescribeConfigsOptions {
  readonly brokerId: number;
  /** The node's static config file, whose values are the STATIC_BROKER_CONFIG source. */
  readonly staticConfig: StaticBrokerConfig;
}

/** The DescribeConfigs handler . */
export function describeConfigsHandler(
  metadataCache: MetadataCache,
  options: DescribeConfigsOptions,
): ApiHandler {
  return {
    ...DESCRIBE_CONFIGS_VERSIONS,
    handle: (context) => {
      const request = context.body as unknown as DescribeConfigsRequest;
      const { brokerId, staticConfig } = options;
      return respond(
        describeConfigs({ image: metadataCache.image, staticConfig, brokerId }, request),
      );
    },
    errorResponse: (context, errorCode) =>
      respond(
        adminErrorResponse(32, context.body, context.header.apiVersion, {
          errorCode,
          message: null,
        }),
      ),
  };
}
