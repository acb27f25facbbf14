/**
 * The table of the controller listener's APIs, and its binding to one controller in the shape
 * of src/broker's ApiHandler, for the node assembly to register on the controller's router.
 */
import { AclOperation } from "../../metadata/index.js";
import { ApiKey, type ApiRequest, type RequestHeader } from "../../protocol/index.js";
import { createAclsApi, deleteAclsApi } from "./acl-apis.js";
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
import { alterClientQuotasApi } from "./quota-apis.js";
import { alterUserScramCredentialsApi } from "./scram-apis.js";
import { createPartitionsApi, createTopicsApi, deleteTopicsApi } from "./topic-apis.js";

/** Every controller API, in API key order. */
export const controllerApis: readonly ControllerApi[] = [
  createTopicsApi,
  deleteTopicsApi,
  createAclsApi,
  deleteAclsApi,
  describeConfigsApi,
  alterConfigsApi,
  createPartitionsApi,
  electLeadersApi,
  incrementalAlterConfigsApi,
  alterPartitionReassignmentsApi,
  listPartitionReassignmentsApi,
  alterClientQuotasApi,
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

/**
 * What Kafka's ControllerApis asks of the principal on the cluster, per API: CLUSTER_ACTION for
 * the nodes' own traffic, ALTER or DESCRIBE for the cluster-wide admin APIs. The APIs that Kafka
 * checks per resource (topics, configs) are not listed: on the controller listener they are
 * served to super users only, the principals brokers forward them as.
 */
const CLUSTER_OPERATIONS: ReadonlyMap<number, number> = new Map<number, number>([
  [ApiKey.CreateAcls, AclOperation.ALTER],
  [ApiKey.DeleteAcls, AclOperation.ALTER],
  [ApiKey.ElectLeaders, AclOperation.ALTER],
  [ApiKey.AlterPartitionReassignments, AclOperation.ALTER],
  [ApiKey.ListPartitionReassignments, AclOperation.DESCRIBE],
  [ApiKey.AlterPartition, AclOperation.CLUSTER_ACTION],
  [ApiKey.UpdateFeatures, AclOperation.ALTER],
  [ApiKey.DescribeCluster, AclOperation.ALTER],
  [ApiKey.BrokerRegistration, AclOperation.CLUSTER_ACTION],
  [ApiKey.BrokerHeartbeat, AclOperation.CLUSTER_ACTION],
  [ApiKey.UnregisterBroker, AclOperation.ALTER],
  [ApiKey.AllocateProducerIds, AclOperation.CLUSTER_ACTION],
  [ApiKey.ControllerRegistration, AclOperation.CLUSTER_ACTION],
  [ApiKey.AssignReplicasToDirs, AclOperation.CLUSTER_ACTION],
]);

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
  /** src/broker's HandlerAuthorization; undeclared: super users only. */
  readonly authorization?: { readonly kind: "cluster"; readonly operation: number };
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
  const operation = CLUSTER_OPERATIONS.get(api.apiKey);
  return {
    apiKey: api.apiKey,
    minVersion: api.minVersion,
    maxVersion: api.maxVersion,
    ...(operation === undefined ? {} : { authorization: { kind: "cluster", operation } }),
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
