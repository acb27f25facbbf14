/**
 * The config APIs: DescribeConfigs (32, v0-4), a read of the committed image, and AlterConfigs
 * (33, v0-2) and IncrementalAlterConfigs (44, v0-1), writes; the ranges Kafka 3.7-3.9
 * controllers advertise. Each error response names every resource of the request.
 */
import { ApiKey } from "../../protocol/index.js";
import { alterConfigs, describeConfigs, incrementalAlterConfigs } from "../configs/index.js";
import { readApi, writeApi } from "./controller-api.js";

/** One error result per resource, in the shape the three config responses share. */
function resourceErrors(
  resources: readonly { readonly resourceType: number; readonly resourceName: string }[],
  errorCode: number,
  errorMessage: string | null,
) {
  return resources.map(({ resourceType, resourceName }) => ({
    errorCode,
    errorMessage,
    resourceType,
    resourceName,
  }));
}

/** DescribeConfigs: effective values and sources, with synonyms and documentation on request. */
export const describeConfigsApi = readApi(ApiKey.DescribeConfigs, {
  minVersion: 0,
  maxVersion: 4,
  compute: (context, request) =>
    describeConfigs({ image: context.image, staticConfig: context.settings.staticConfig }, request),
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    results: resourceErrors(request.resources, errorCode, errorMessage).map((result) => ({
      ...result,
      configs: [],
    })),
  }),
});

/** AlterConfigs: the whole config set of each resource. */
export const alterConfigsApi = writeApi(ApiKey.AlterConfigs, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 2,
  compute: (context, request) => alterConfigs(context.image, request),
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    responses: resourceErrors(request.resources, errorCode, errorMessage),
  }),
});

/** IncrementalAlterConfigs: SET, DELETE, APPEND and SUBTRACT on single keys (KIP-339). */
export const incrementalAlterConfigsApi = writeApi(ApiKey.IncrementalAlterConfigs, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 1,
  compute: (context, request) => incrementalAlterConfigs(context.image, request),
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    responses: resourceErrors(request.resources, errorCode, errorMessage),
  }),
});
