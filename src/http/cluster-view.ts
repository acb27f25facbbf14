/**
 * The `GET /v1/cluster` route: the cluster as this node sees it in its metadata image (brokers,
 * topics, partitions, leaders, ISR) plus what it knows locally (high watermarks of the replicas
 * it hosts), as JSON for the dashboard and for scripts.
 */
import {
  uuidToBase64,
  type BrokerId,
  type LeaderEpoch,
  type NodeId,
  type Offset,
  type PartitionIndex,
  type Uuid,
} from "../common/index.js";
import type { ProcessRole } from "./health.js";
import { jsonResponse, type HttpRoute } from "./http-types.js";

/** One listener a broker registered (Kafka's BrokerEndpoint). */
export interface EndpointView {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly securityProtocol: string;
}

export interface BrokerView {
  readonly id: BrokerId;
  /** The broker epoch the controller gave at registration. */
  readonly epoch: number;
  readonly isFenced: boolean;
  readonly inControlledShutdown: boolean;
  readonly rack: string | undefined;
  readonly endpoints: readonly EndpointView[];
}

export interface PartitionView {
  readonly partition: PartitionIndex;
  /** Undefined while the partition has no leader (Kafka's leader -1). */
  readonly leader: BrokerId | undefined;
  readonly leaderEpoch: LeaderEpoch;
  readonly replicas: readonly BrokerId[];
  readonly isr: readonly BrokerId[];
  /** Known only where this node hosts a replica of the partition. */
  readonly highWatermark: Offset | undefined;
  /** Known only where this node hosts a replica of the partition. */
  readonly logEndOffset: Offset | undefined;
}

export interface TopicView {
  readonly name: string;
  readonly topicId: Uuid;
  readonly partitions: readonly PartitionView[];
}

/** The controller quorum as this node knows it. */
export interface ControllerView {
  /** The active controller, or undefined while no quorum leader is known. */
  readonly leaderId: NodeId | undefined;
  readonly leaderEpoch: LeaderEpoch;
  readonly voters: readonly NodeId[];
}

/** The whole view, plain data assembled by the node from its metadata image and replicas. */
export interface ClusterView {
  readonly clusterId: string;
  readonly nodeId: NodeId;
  readonly roles: readonly ProcessRole[];
  readonly controller: ControllerView;
  readonly brokers: readonly BrokerView[];
  readonly topics: readonly TopicView[];
}

/** Gives the cluster view at the moment of asking. */
export interface ClusterViewSource {
  clusterView(): ClusterView;
}

const byNumber = (left: number, right: number): number => left - right;

/**
 * The JSON form of `view`: brokers by id, topics by name, partitions by index, topic ids in
 * Kafka's base64 spelling, and null for what is unknown, so equal views give equal text.
 */
export function clusterViewJson(view: ClusterView): unknown {
  return {
    clusterId: view.clusterId,
    nodeId: view.nodeId,
    roles: view.roles,
    controller: {
      leaderId: view.controller.leaderId ?? null,
      leaderEpoch: view.controller.leaderEpoch,
      voters: [...view.controller.voters].sort(byNumber),
    },
    brokers: [...view.brokers].sort((left, right) => left.id - right.id).map(brokerJson),
    topics: [...view.topics]
      .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
      .map((topic) => ({
        name: topic.name,
        topicId: uuidToBase64(topic.topicId),
        partitions: [...topic.partitions]
          .sort((left, right) => left.partition - right.partition)
          .map(partitionJson),
      })),
  };
}

function brokerJson(broker: BrokerView): unknown {
  return {
    id: broker.id,
    epoch: broker.epoch,
    isFenced: broker.isFenced,
    inControlledShutdown: broker.inControlledShutdown,
    rack: broker.rack ?? null,
    endpoints: broker.endpoints.map(({ name, host, port, securityProtocol }) => ({
      name,
      host,
      port,
      securityProtocol,
    })),
  };
}

function partitionJson(partition: PartitionView): unknown {
  return {
    partition: partition.partition,
    leader: partition.leader ?? null,
    leaderEpoch: partition.leaderEpoch,
    replicas: partition.replicas,
    isr: partition.isr,
    highWatermark: partition.highWatermark ?? null,
    logEndOffset: partition.logEndOffset ?? null,
  };
}

/** `GET /v1/cluster`: {@link clusterViewJson} of what `source` gives. */
export function clusterViewRoute(source: ClusterViewSource): HttpRoute {
  return {
    method: "GET",
    path: "/v1/cluster",
    handle: () => jsonResponse(200, clusterViewJson(source.clusterView())),
  };
}
