/**
 * The membership APIs of the controller listener: BrokerRegistration (62, v0-4), BrokerHeartbeat
 * (63, v0-1), UnregisterBroker (64, v0), ControllerRegistration (70, v0) and DescribeCluster
 * (60, v0-1), the ranges Kafka 3.9 controllers advertise. DescribeCluster is answered by any
 * controller from its committed image, as KIP-919 lets clients bootstrap from any controller;
 * the others are writes of the active controller.
 */
import {
  ApiKey,
  type DescribeClusterRequest,
  type DescribeClusterResponse,
} from "../../protocol/index.js";
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  describeCluster,
  handleBrokerHeartbeat,
  registerBroker,
  registerController,
  unregisterBroker,
} from "../cluster/index.js";
import type { ControllerApi } from "./controller-api.js";
import { writeApi } from "./controller-api.js";
import { responseForVersion } from "./version-fit.js";

/** BrokerRegistration: the broker epoch is the record's offset, so the batch needs its offset. */
export const brokerRegistrationApi = writeApi(ApiKey.BrokerRegistration, {
  minVersion: 0,
  maxVersion: 4,
  compute: (context, request) => {
    const result = registerBroker(
      {
        image: context.image,
        heartbeats: context.heartbeats,
        nowMs: context.nowMs,
        clusterId: context.settings.clusterId,
        config: context.settings.cluster,
        hooks: context.hooks,
        nextWriteOffset: context.nextWriteOffset,
      },
      request,
    );
    return { ...result, needsExactOffset: true };
  },
  errorResponse: (_request, _version, errorCode) => ({
    throttleTimeMs: 0,
    errorCode,
    brokerEpoch: -1,
    assignedBrokerId: -1,
  }),
});

/** BrokerHeartbeat: proof of life, unfencing, controlled shutdown, offline log dirs. */
export const brokerHeartbeatApi = writeApi(ApiKey.BrokerHeartbeat, {
  minVersion: 0,
  maxVersion: 1,
  compute: (context, request) => handleBrokerHeartbeat(context, request),
  errorResponse: (_request, _version, errorCode) => ({
    throttleTimeMs: 0,
    errorCode,
    isCaughtUp: false,
    isFenced: true,
    shouldShutDown: false,
  }),
});

/** UnregisterBroker: an operator removes a broker for good. */
export const unregisterBrokerApi = writeApi(ApiKey.UnregisterBroker, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 0,
  compute: (context, request) => unregisterBroker(context, request),
  errorResponse: (_request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    errorCode,
    errorMessage,
  }),
});

/** ControllerRegistration: a controller announces its listeners (KIP-919). */
export const controllerRegistrationApi = writeApi(ApiKey.ControllerRegistration, {
  minVersion: 0,
  maxVersion: 0,
  compute: (context, request) => registerController(context.image, request),
  errorResponse: (_request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    errorCode,
    errorMessage,
  }),
});

function describeClusterError(
  request: DescribeClusterRequest,
  errorCode: number,
  errorMessage: string | null,
): DescribeClusterResponse {
  return {
    throttleTimeMs: 0,
    errorCode,
    errorMessage,
    endpointType: request.endpointType,
    clusterId: "",
    controllerId: -1,
    brokers: [],
    clusterAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}

/** DescribeCluster on the controller listener: the controllers (endpoint type 2). */
export const describeClusterApi: ControllerApi<typeof ApiKey.DescribeCluster> = {
  apiKey: ApiKey.DescribeCluster,
  name: "DescribeCluster",
  minVersion: 0,
  maxVersion: 1,
  handle: (controller, request) => {
    const response = describeCluster(
      {
        image: controller.committedImage,
        clusterId: controller.settings.clusterId,
        controllerId: controller.activeControllerId ?? -1,
        listenerName: request.listenerName,
        servedBy: "controller",
      },
      request.body,
    );
    const version = request.header.apiVersion;
    return Promise.resolve(responseForVersion(ApiKey.DescribeCluster, version, response));
  },
  errorResponse: (request, errorCode, errorMessage) => {
    const response = describeClusterError(request.body, errorCode, errorMessage);
    return responseForVersion(ApiKey.DescribeCluster, request.header.apiVersion, response);
  },
};
