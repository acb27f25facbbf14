/**
 * The admin APIs a broker forwards to the controller, and their error responses, taken from the
 * controller's own API table (src/controller/apis) so that the versions served and Kafka's
 * getErrorResponse of each API are stated once. The router sends these responses when a
 * handler fails, the forwarder when the controller cannot be reached in time.
 */
import {
  alterConfigsApi,
  alterPartitionReassignmentsApi,
  createPartitionsApi,
  createTopicsApi,
  deleteTopicsApi,
  electLeadersApi,
  incrementalAlterConfigsApi,
  listPartitionReassignmentsApi,
  type ControllerApi,
} from "../../controller/index.js";
import type { RequestContext } from "../router/handler.js";

/** The APIs whose requests a broker forwards, in API key order. */
export const FORWARDED_CONTROLLER_APIS: readonly ControllerApi[] = [
  createTopicsApi,
  deleteTopicsApi,
  alterConfigsApi,
  createPartitionsApi,
  electLeadersApi,
  incrementalAlterConfigsApi,
  alterPartitionReassignmentsApi,
  listPartitionReassignmentsApi,
];

/** The error response `api` gives to the request of `context`, fitted to its version. */
export function controllerErrorResponse(
  api: ControllerApi,
  context: Pick<RequestContext, "header" | "body" | "connection">,
  failure: { readonly errorCode: number; readonly message: string | null },
): object {
  const request = {
    header: context.header,
    body: context.body,
    listenerName: context.connection.listenerName,
  };
  return api.errorResponse(request, failure.errorCode, failure.message);
}
