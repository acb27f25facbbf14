/**
 * The membership APIs of the controller listener: BrokerRegistration (62, v0-4), BrokerHeartbeat
 * (63, v0-1), UnregisterBroker (64, v0), ControllerRegistration (70, v0) and DescribeCluster
 * (60, v0-1), the ranges Kafka 3.9 controllers advertise. DescribeCluster is answered by any
 * controller from its committed image, as KIP-919 lets clients bootstrap from any controller;
 * the others are writes of the active controller.
 */
import type {
  BrokerHeartbeatRequest,
  BrokerHeartbeatResponse,
  BrokerRegistrationRequest,
  BrokerRegistrationResponse,
  ControllerRegistrationRequest,
  ControllerRegistrationResponse,
  DescribeClusterRequest,
  DescribeClusterResponse,
  UnregisterBrokerRequest,
  UnregisterBrokerResponse,
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
export const brokerRegistrationApi: ControllerApi = writeApi<
  BrokerRegistrationRequest,
  BrokerRegistrationResponse
>({
  apiKey: 62,
  name: "BrokerRegistration",
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
export const brokerHeartbeatApi: ControllerApi = writeApi<
  BrokerHeartbeatRequest,
  BrokerHeartbeatResponse
>({
  apiKey: 63,
  name: "BrokerHeartbeat",
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
export const unregisterBrokerApi: ControllerApi = writeApi<
  UnregisterBrokerRequest,
  UnregisterBrokerResponse
>({
  apiKey: 64,
  name: "UnregisterBroker",
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
export const controllerRegistrationApi: ControllerApi = writeApi<
  ControllerRegistrationRequest,
  ControllerRegistrationResponse
>({
  apiKey: 70,
  name: "ControllerRegistration",
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
export const describeClusterApi: ControllerApi = {
  apiKey: 60,
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
      request.body as unknown as DescribeClusterRequest,
    );
    return Promise.resolve(responseForVersion(60, request.header.apiVersion, response));
  },
  errorResponse: (request, errorCode, errorMessage) => {
    const body = request.body as unknown as DescribeClusterRequest;
    const response = describeClusterError(body, errorCode, errorMessage);
    return responseForVersion(60, request.header.apiVersion, response);
  },
};
