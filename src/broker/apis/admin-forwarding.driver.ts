/**
 * The admin APIs a KRaft broker forwards to the active controller (Kafka's KafkaApis with its
 * ForwardingManager): CreateTopics, DeleteTopics, CreatePartitions, AlterConfigs,
 * IncrementalAlterConfigs, ElectLeaders, AlterPartitionReassignments and
 * ListPartitionReassignments. The broker serves the versions the controller serves (the request
 * travels at the client's version and the answer comes back unchanged), and a failed forward
 * is answered with the API's own error response, as the controller would build it.
 */
import { assert } from "../../common/index.js";
import { apiCodec } from "../../protocol/index.js";
import { respond, type ApiHandler, type RequestContext } from "../router/handler.js";
import { adminErrorResponse } from "./admin-error-responses.js";
import type { Forwarder } from "./forwarder.js";

/** A forwarded API and the versions served: the ones Kafka 3.7-3.9 controllers serve. */
export interface ForwardedApi {
  readonly apiKey: number;
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
}

/** The APIs whose requests a broker forwards, in API key order. */
export const FORWARDED_ADMIN_APIS: readonly ForwardedApi[] = [
  { apiKey: 19, name: "CreateTopics", minVersion: 0, maxVersion: 7 },
  { apiKey: 20, name: "DeleteTopics", minVersion: 0, maxVersion: 6 },
  { apiKey: 33, name: "AlterConfigs", minVersion: 0, maxVersion: 2 },
  { apiKey: 37, name: "CreatePartitions", minVersion: 0, maxVersion: 3 },
  { apiKey: 43, name: "ElectLeaders", minVersion: 0, maxVersion: 2 },
  { apiKey: 44, name: "IncrementalAlterConfigs", minVersion: 0, maxVersion: 1 },
  { apiKey: 45, name: "AlterPartitionReassignments", minVersion: 0, maxVersion: 0 },
  { apiKey: 46, name: "ListPartitionReassignments", minVersion: 0, maxVersion: 0 },
];

/** The handler that forwards `api`'s requests through `forwarder`. */
export function forwardedAdminHandler(api: ForwardedApi, forwarder: Forwarder): ApiHandler {
  const codec = apiCodec(api.apiKey);
  assert(codec !== undefined, `API ${api.apiKey} has a codec`);
  const errorBody = (context: RequestContext, errorCode: number, message: string | null) =>
    adminErrorResponse(api.apiKey, context.body, context.header.apiVersion, { errorCode, message });
  return {
    minVersion: api.minVersion,
    maxVersion: api.maxVersion,
    handle: async (context) => {
      const result = await forwarder.forward(codec, context.header.apiVersion, context.body);
      if (result.kind === "response") return respond(result.body);
      return respond(errorBody(context, result.errorCode, result.message));
    },
    errorResponse: (context, errorCode) => respond(errorBody(context, errorCode, null)),
  };
}
