/**
 * The `GET /v1/cluster` route: the cluster as this node sees it in its metadata image (brokers,
 * topics, partitions, leaders, ISR, and the replication health counted over them) plus what it
 * knows locally (high watermarks of the replicas it hosts), as JSON for the dashboard and for
 * scripts.
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
import { clusterHealthOf } from "./cluster-health.js";
import { groupsJson, type GroupView } from "./group-view.js";
import type { ProcessRole } from "./health.js";
import { jsonResponse, type HttpImmediateRoute } from "./http-types.js";

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
  /** The ids of the broker's online log dirs, as it registered them (KIP-858). */
  readonly directories: readonly Uuid[];
}

/** One of this node's log dirs. */
export interface LogDirView {
  readonly path: string;
  readonly isOnline: boolean;
}

export interface PartitionView {
  readonly partition: PartitionIndex;
  /** Undefined while the partition has no leader (Kafka's leader -1). */
  readonly leader: BrokerId | undefined;
  readonly leaderEpoch: LeaderEpoch;
  readonly replicas: readonly BrokerId[];
  readonly isr: readonly BrokerId[];
  /** The eligible leader replicas (KIP-966): out of the ISR, yet safe to elect. */
  readonly elr: readonly BrokerId[];
  /** KIP-966's last known ELR, kept while the ELR is empty and the partition is leaderless. */
  readonly lastKnownElr: readonly BrokerId[];
  /** Known only where this node hosts a replica of the partition. */
  readonly highWatermark: Offset | undefined;
  /** Known only where this node hosts a replica of the partition. */
  readonly logEndOffset: Offset | undefined;
  /**
   * Where this node follows the partition: how far its log was behind the leader's high
   * watermark after its last fetch, in messages (Kafka's FetcherLagMetrics ConsumerLag).
   */
  readonly followerLag: number | undefined;
}

export interface TopicView {
  readonly name: string;
  readonly topicId: Uuid;
  /** The topic's `min.insync.replicas` as this node resolves it from the image and its config. */
  readonly minInsyncReplicas: number;
  readonly partitions: readonly PartitionView[];
}

/**
 * The replication health of every partition in the view: those without a leader (Kafka's
 * OfflinePartitionsCount), those whose ISR is smaller than their replicas (UnderReplicated), and
 * those whose ISR is below min.insync.replicas capped at the replica count (Kafka's effective
 * min ISR, under which acks=all writes are refused).
 */
export interface ReplicationHealth {
  readonly offlinePartitions: number;
  readonly underReplicatedPartitions: number;
  readonly underMinIsrPartitions: number;
}

/** A replica of the metadata log as the quorum leader tracks it (DescribeQuorum's ReplicaState). */
export interface QuorumReplicaView {
  readonly id: NodeId;
  /** -1 while the leader has not heard from it. */
  readonly logEndOffset: number;
  /** How far it is behind the leader's log end offset, in records (-1 while unknown). */
  readonly lag: number;
}

/** The controller quorum as this node knows it. */
export interface ControllerView {
  /** The active controller, or undefined while no quorum leader is known. */
  readonly leaderId: NodeId | undefined;
  readonly leaderEpoch: LeaderEpoch;
  readonly voters: readonly NodeId[];
  /** The metadata log's high watermark as this node knows it, if it knows it. */
  readonly highWatermark: number | undefined;
  /** The end offset of this node's own copy of the metadata log. */
  readonly logEndOffset: number;
  /**
   * The voters and observers with their progress; only the quorum leader tracks them, so on
   * any other node undefined.
   */
  readonly replicas:
    | {
        readonly voters: readonly QuorumReplicaView[];
        readonly observers: readonly QuorumReplicaView[];
      }
    | undefined;
}

/**
 * This broker's replica manager, as its metrics show it (Kafka's ReplicaManager gauges, its ISR
 * change meters as totals since start, and the replica fetchers' MaxLag in messages).
 */
export interface ReplicaManagerView {
  readonly leaderCount: number;
  readonly partitionCount: number;
  readonly underReplicatedPartitions: number;
  readonly underMinIsrPartitionCount: number;
  readonly atMinIsrPartitionCount: number;
  readonly offlineReplicaCount: number;
  readonly reassigningPartitions: number;
  readonly isrShrinks: number;
  readonly isrExpands: number;
  readonly failedIsrUpdates: number;
  readonly maxLag: number;
}

/** The whole view, plain data assembled by the node from its metadata image and replicas. */
export interface ClusterView {
  readonly clusterId: string;
  readonly nodeId: NodeId;
  readonly roles: readonly ProcessRole[];
  readonly controller: ControllerView;
  /** Undefined on a node without the broker role. */
  readonly replicaManager: ReplicaManagerView | undefined;
  readonly brokers: readonly BrokerView[];
  readonly topics: readonly TopicView[];
  readonly logDirs: readonly LogDirView[];
  /** The groups this node coordinates; undefined on a node without the broker role. */
  readonly groups: readonly GroupView[] | undefined;
}

/** Gives the cluster view at the moment of asking. */
export interface ClusterViewSource {
  clusterView(): ClusterView;
}

const byNumber = (left: number, right: number): number => left - right;

/** The {@link ReplicationHealth} of `topics`, counted over all their partitions. */
export function replicationHealthOf(topics: readonly TopicView[]): ReplicationHealth {
  let offlinePartitions = 0;
  let underReplicatedPartitions = 0;
  let underMinIsrPartitions = 0;
  for (const topic of topics) {
    for (const partition of topic.partitions) {
      const { replicas, isr } = partition;
      if (partition.leader === undefined) offlinePartitions++;
      if (isr.length < replicas.length) underReplicatedPartitions++;
      if (isr.length < Math.min(topic.minInsyncReplicas, replicas.length)) underMinIsrPartitions++;
    }
  }
  return { offlinePartitions, underReplicatedPartitions, underMinIsrPartitions };
}

/**
 * The JSON form of `view`: brokers by id, topics by name, partitions by index, topic ids in
 * Kafka's base64 spelling, and null for what is unknown, so equal views give equal text.
 */
export function clusterViewJson(view: ClusterView): unknown {
  return {
    clusterId: view.clusterId,
    nodeId: view.nodeId,
    roles: view.roles,
    controller: controllerJson(view.controller),
    health: clusterHealthOf({
      leaderId: view.controller.leaderId,
      brokers: view.brokers,
      replication: replicationHealthOf(view.topics),
    }),
    replication: replicationHealthOf(view.topics),
    replicaManager:
      view.replicaManager === undefined ? null : replicaManagerJson(view.replicaManager),
    brokers: [...view.brokers].sort((left, right) => left.id - right.id).map(brokerJson),
    topics: [...view.topics]
      .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
      .map((topic) => ({
        name: topic.name,
        topicId: uuidToBase64(topic.topicId),
        minInsyncReplicas: topic.minInsyncReplicas,
        partitions: [...topic.partitions]
          .sort((left, right) => left.partition - right.partition)
          .map(partitionJson),
      })),
    logDirs: view.logDirs.map(({ path, isOnline }) => ({ path, isOnline })),
    groups: view.groups === undefined ? null : groupsJson(view.groups),
  };
}

function controllerJson(view: ControllerView): unknown {
  const replicas = view.replicas;
  const byId = (left: QuorumReplicaView, right: QuorumReplicaView): number => left.id - right.id;
  return {
    leaderId: view.leaderId ?? null,
    leaderEpoch: view.leaderEpoch,
    voters: [...view.voters].sort(byNumber),
    highWatermark: view.highWatermark ?? null,
    logEndOffset: view.logEndOffset,
    replicas:
      replicas === undefined
        ? null
        : {
            voters: [...replicas.voters].sort(byId),
            observers: [...replicas.observers].sort(byId),
          },
  };
}

function replicaManagerJson(view: ReplicaManagerView): unknown {
  return {
    leaderCount: view.leaderCount,
    partitionCount: view.partitionCount,
    underReplicatedPartitions: view.underReplicatedPartitions,
    underMinIsrPartitionCount: view.underMinIsrPartitionCount,
    atMinIsrPartitionCount: view.atMinIsrPartitionCount,
    offlineReplicaCount: view.offlineReplicaCount,
    reassigningPartitions: view.reassigningPartitions,
    isrShrinks: view.isrShrinks,
    isrExpands: view.isrExpands,
    failedIsrUpdates: view.failedIsrUpdates,
    maxLag: view.maxLag,
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
    directories: broker.directories.map(uuidToBase64),
  };
}

function partitionJson(partition: PartitionView): unknown {
  return {
    partition: partition.partition,
    leader: partition.leader ?? null,
    leaderEpoch: partition.leaderEpoch,
    replicas: partition.replicas,
    isr: partition.isr,
    elr: partition.elr,
    lastKnownElr: partition.lastKnownElr,
    highWatermark: partition.highWatermark ?? null,
    logEndOffset: partition.logEndOffset ?? null,
    followerLag: partition.followerLag ?? null,
  };
}

/** `GET /v1/cluster`: {@link clusterViewJson} of what `source` gives. */
export function clusterViewRoute(source: ClusterViewSource): HttpImmediateRoute {
  return {
    method: "GET",
    path: "/v1/cluster",
    handle: () => jsonResponse(200, clusterViewJson(source.clusterView())),
  };
}
