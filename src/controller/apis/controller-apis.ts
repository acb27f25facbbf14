/**
 * The table of the controller listener's APIs, and its binding to one controller in the shape
 * of src/broker's ApiHandler, for the node assembly to register on the controller's router.
 */
import type { ApiKey, ApiRequest, RequestHeader } from "../../protocol/index.js";
import type { ControllerApi, ControllerApiHost, ControllerApiResponse } from "./controller-api.js";
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
  assignReplicasToDirsApi,
  electLeadersApi,
  listPartitionReassignmentsApi,
} from "./partition-apis.js";
import { updateFeaturesApi } from "./feature-apis.js";
import { alterUserScramCredentialsApi } from "./scram-apis.js";
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
  alterUserScramCredentialsApi,
  alterPartitionApi,
  updateFeaturesApi,
  describeClusterApi,
  brokerRegistrationApi,
  brokerHeartbeatApi,
  unregisterBrokerApi,
  allocateProducerIdsApi,
  controllerRegistrationApi,
  assignReplicasToDirsApi,
];

/** The request context the bound handlers read: src/broker's HandlerContext is one. */
export interface ControllerRouterContext {
  readonly header: RequestHeader;
  readonly connection: { readonly listenerName: string };
}

/** What a bound handler answers: src/broker's HandlerOutcome "respond". */
export interface ControllerRouterOutcome<K extends ApiKey> {
  readonly kind: "respond";
  readonly body: ControllerApiResponse<K>;
}

/** API `K` bound to a controller: assignable to src/broker's ApiHandler<K>. */
export interface BoundControllerApi<K extends ApiKey = ApiKey> {
  readonly apiKey: K;
  readonly minVersion: number;
  readonly maxVersion: number;
  handle(
    request: ApiRequest<K>,
    context: ControllerRouterContext,
  ): Promise<ControllerRouterOutcome<K>>;
  errorResponse(
    request: ApiRequest<K>,
    context: ControllerRouterContext,
    errorCode: number,
  ): ControllerRouterOutcome<K>;
}

/** The table bound to `controller`, for `router.register(api)`. */
export function controllerApiHandlers(controller: ControllerApiHost): BoundControllerApi[] {
  const served = controllerApis.filter(
    (api) => api.needsCrypto !== true || controller.crypto !== undefined,
  );
  return served.map((api) => bind(api, controller));
}

function bind<K extends ApiKey>(
  api: ControllerApi<K>,
  controller: ControllerApiHost,
): BoundControllerApi<K> {
  const requestOf = (body: ApiRequest<K>, context: ControllerRouterContext) => ({
    header: context.header,
    body,
    listenerName: context.connection.listenerName,
  });
  return {
    apiKey: api.apiKey,
    minVersion: api.minVersion,
    maxVersion: api.maxVersion,
    handle: async (request, context) => ({
      kind: "respond",
      body: await api.handle(controller, requestOf(request, context)),
    }),
    errorResponse: (request, context, errorCode) => ({
      kind: "respond",
      body: api.errorResponse(requestOf(request, context), errorCode, null),
    }),
  };
}
