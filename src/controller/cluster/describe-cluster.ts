/**
 * DescribeCluster (v0-v1): the cluster id, a controller id, and the brokers (or, with endpoint
 * type CONTROLLER, the controllers, KIP-919) reachable on the listener the request came in on.
 * As Kafka's brokers do, only unfenced brokers are listed. When asked, the cluster's authorized
 * operations are those `isAllowed` grants (all without an authorizer).
 */
import { ErrorCode } from "../../common/index.js";
import { AclOperation, type Endpoint, type MetadataImage } from "../../metadata/index.js";
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  authorizedOperations,
  type DescribeClusterRequest,
  type DescribeClusterResponse,
  type DescribeClusterResponseDescribeClusterBroker,
} from "../../protocol/index.js";

/** DescribeClusterRequest.endpointType: 1 asks for brokers, 2 for controllers. */
export const EndpointType = { BROKER: 1, CONTROLLER: 2 } as const;

/** clusterAuthorizedOperations when they are not asked for (Kafka's Integer.MIN_VALUE). */
export { AUTHORIZED_OPERATIONS_OMITTED };

export interface DescribeClusterContext {
  readonly image: MetadataImage;
  readonly clusterId: string;
  /** The controller id to report: brokers report one of themselves, as Kafka's do. */
  readonly controllerId: number;
  /** The name of the listener the request arrived on; endpoints are given for it. */
  readonly listenerName: string;
  /** A broker serves endpoint type BROKER, a controller serves CONTROLLER. */
  readonly servedBy: "broker" | "controller";
  /**
   * Whether the principal may do an operation on the cluster; absent, every one (no
   * authorizer). Kafka answers 0 operations to a principal that may not DESCRIBE the cluster.
   */
  readonly isAllowed?: (operation: number) => boolean;
}

export function describeCluster(
  context: DescribeClusterContext,
  request: DescribeClusterRequest,
): DescribeClusterResponse {
  const wanted = context.servedBy === "broker" ? EndpointType.BROKER : EndpointType.CONTROLLER;
  const base = {
    throttleTimeMs: 0,
    endpointType: request.endpointType,
    clusterId: context.clusterId,
    controllerId: context.controllerId,
    clusterAuthorizedOperations: clusterOperationsOf(context, request),
  };
  if (request.endpointType !== wanted) {
    const errorMessage =
      `this ${context.servedBy} serves endpoint type ${wanted}, ` + `not ${request.endpointType}`;
    return { ...base, errorCode: ErrorCode.UNSUPPORTED_ENDPOINT_TYPE, errorMessage, brokers: [] };
  }
  const nodes = wanted === EndpointType.BROKER ? brokerNodes(context) : controllerNodes(context);
  return { ...base, errorCode: ErrorCode.NONE, errorMessage: null, brokers: nodes };
}

function nodeOn(
  id: number,
  listeners: readonly Endpoint[],
  listenerName: string,
  rack: string | null,
): DescribeClusterResponseDescribeClusterBroker | undefined {
  const endpoint = listeners.find((listener) => listener.name === listenerName);
  if (endpoint === undefined) return undefined;
  return { brokerId: id, host: endpoint.host, port: endpoint.port, rack };
}

function brokerNodes(
  context: DescribeClusterContext,
): DescribeClusterResponseDescribeClusterBroker[] {
  const nodes: DescribeClusterResponseDescribeClusterBroker[] = [];
  for (const broker of context.image.cluster.brokers.values()) {
    if (broker.isFenced) continue;
    const node = nodeOn(broker.id, broker.listeners, context.listenerName, broker.rack);
    if (node !== undefined) nodes.push(node);
  }
  return nodes.sort((a, b) => a.brokerId - b.brokerId);
}

function controllerNodes(
  context: DescribeClusterContext,
): DescribeClusterResponseDescribeClusterBroker[] {
  const nodes: DescribeClusterResponseDescribeClusterBroker[] = [];
  for (const controller of context.image.cluster.controllers.values()) {
    const node = nodeOn(controller.id, controller.listeners, context.listenerName, null);
    if (node !== undefined) nodes.push(node);
  }
  return nodes.sort((a, b) => a.brokerId - b.brokerId);
}

function clusterOperationsOf(
  context: DescribeClusterContext,
  request: DescribeClusterRequest,
): number {
  const isAllowed = context.isAllowed ?? (() => true);
  const asked = request.includeClusterAuthorizedOperations;
  if (asked && !isAllowed(AclOperation.DESCRIBE)) return 0;
  return authorizedOperations("cluster", asked, isAllowed);
}
