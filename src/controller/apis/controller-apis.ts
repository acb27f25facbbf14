/**
 * The table of the controller listener's APIs, and its binding to one controller in the shape
 * of src/broker's ApiHandler, for the node assembly to register on the controller's router.
 */
import type { ControllerApi, ControllerApiHost } from "./controller-api.js";
import {
  brokerHeartbeatApi,
  brokerRegistrationApi,
  controllerRegistrationApi,
  describeClusterApi,
  unregisterBrokerApi,
} from "./cluster-apis.js";
import { alterConfigsApi, describeConfigsApi, incrementalAlterConfigsApi } from "./config-apis.js";
import {
  allocateProducerIdsApi,
  alterPartitionApi,
  alterPartitionReassignmentsApi,
  electLeadersApi,
  listPartitionReassignmentsApi,
} from "./partition-apis.js";
import { createPartitionsApi, createTopicsApi, deleteTopicsApi } from "./topic-apis.js";

/** Every controller API, in API key order. */
export const controllerApis: readonly ControllerApi[] = [
  createTopicsApi,
  deleteTopicsApi,
  describeConfigsApi,
  alterConfigsApi,
  createPartitionsApi,
  electLeadersApi,
  incrementalAlterConfigsApi,
  alterPartitionReassignmentsApi,
  listPartitionReassignmentsApi,
  alterPartitionApi,
  describeClusterApi,
  brokerRegistrationApi,
  brokerHeartbeatApi,
  unregisterBrokerApi,
  allocateProducerIdsApi,
  controllerRegistrationApi,
];

/** The request context the bound handlers read: src/broker's RequestContext is one. */
export interface ControllerRouterContext {
  readonly header: ControllerApiRequestHeader;
  readonly body: Record<string, unknown>;
  readonly connection: { readonly listenerName: string };
}

type ControllerApiRequestHeader = Parameters<ControllerApi["handle"]>[1]["header"];

/** What a bound handler answers: src/broker's HandlerOutcome "respond". */
export interface ControllerRouterOutcome {
  readonly kind: "respond";
  readonly body: object;
}

/** One API bound to a controller: assignable to src/broker's ApiHandler. */
export interface BoundControllerApi {
  readonly apiKey: number;
  readonly minVersion: number;
  readonly maxVersion: number;
  handle(context: ControllerRouterContext): Promise<ControllerRouterOutcome>;
  errorResponse(context: ControllerRouterContext, errorCode: number): ControllerRouterOutcome;
}

/** The table bound to `controller`, for `router.register(api.apiKey, api)`. */
export function controllerApiHandlers(controller: ControllerApiHost): BoundControllerApi[] {
  return controllerApis.map((api) => {
    const requestOf = (context: ControllerRouterContext) => ({
      header: context.header,
      body: context.body,
      listenerName: context.connection.listenerName,
    });
    return {
      apiKey: api.apiKey,
      minVersion: api.minVersion,
      maxVersion: api.maxVersion,
      handle: async (context) => ({
        kind: "respond",
        body: await api.handle(controller, requestOf(context)),
      }),
      errorResponse: (context, errorCode) => ({
        kind: "respond",
        body: api.errorResponse(requestOf(context), errorCode, null),
      }),
    };
  });
}
