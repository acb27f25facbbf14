/**
 * The node's HTTP endpoint (`sluice.http.listener`): Prometheus metrics, health and the JSON
 * cluster view, each read from the node's live state at the moment of the request.
 */
import { HttpServer, type PrometheusRegistry } from "../adapters/index.js";
import { brokerId, leaderEpoch, offset, partitionIndex, type BrokerId } from "../common/index.js";
import type { BrokerLifecycleManager, BrokerTopicStats } from "../broker/index.js";
import {
  httpRoutes,
  type BrokerView,
  type ClusterView,
  type NodeHealth,
  type ReplicaManagerView,
  type TopicView,
} from "../http/index.js";
import {
  EMPTY_IMAGE,
  sortedEntries,
  type MetadataImage,
  type TopicImage,
} from "../metadata/index.js";
import {
  partitionConfigOf,
  type ReplicaManager,
  type ReplicaManagerMetrics,
  type ReplicationSummary,
} from "../replication/index.js";
import { partitionFolderName, type LogManager } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { defaultPartitionConfigOf } from "./node-settings.js";
import type { Logger } from "../ports/index.js";
import { bindOrExplain } from "./node-port-reservation.js";
import type { NodeIdentity } from "./node-types.js";

/** What the HTTP routes read from the running node. */
export interface NodeHttpState {
  readonly config: NodeConfig;
  readonly identity: NodeIdentity;
  /** The freshest metadata image this node holds. */
  image(): MetadataImage | undefined;
  quorum(): { readonly leaderId: number | null; readonly epoch: number };
  /** The broker's lifecycle, on a node with the broker role. */
  broker(): BrokerLifecycleManager | undefined;
  /** What brings the families read off live state up to date, run before each scrape. */
  readonly collectors: readonly (() => void)[];
  /** The log manager of a broker, for replicas' offsets and offline dirs. */
  readonly logManager: LogManager | undefined;
  /** The replica manager and its metric families, on a node with the broker role. */
  readonly replication:
    | {
        readonly replicaManager: ReplicaManager;
        readonly replicaMetrics: ReplicaManagerMetrics;
        readonly topicStats: BrokerTopicStats;
      }
    | undefined;
}

/**
 * Binds `sluice.http.listener` before the node starts, so that a port in use stops it before it
 * touches its dirs; the server answers 503 until `serveHttp` gives it its routes.
 */
export function bindHttp(config: NodeConfig, logger: Logger): Promise<HttpServer> {
  const { host, port } = config.httpListener;
  return bindOrExplain(
    { address: { host, port }, purpose: "HTTP", key: "sluice.http.listener" },
    () => HttpServer.start({ host, port, logger }),
  );
}

/**
 * Serves the routes on `server`, the HTTP server `bindHttp` bound before the node started.
 */
export function serveHttp(
  server: HttpServer,
  state: NodeHttpState,
  options: { readonly registry: PrometheusRegistry },
): void {
  const registry = options.registry;
  const routes = httpRoutes({
    metrics: {
      render: () => {
        // The replica manager's gauges are read off its state as they are scraped.
        const replication = state.replication;
        replication?.replicaMetrics.update(replication.replicaManager.replicationSummary());
        for (const collect of state.collectors) collect();
        const topics = (state.image() ?? EMPTY_IMAGE).topics.byName;
        replication?.topicStats.retainTopics((topic) => topics.get(topic) !== undefined);
        return registry.render();
      },
    },
    health: { health: () => healthOf(state) },
    clusterView: { clusterView: () => clusterViewOf(state) },
  });
  server.serveRoutes(routes);
}

function healthOf(state: NodeHttpState): NodeHealth {
  const quorum = state.quorum();
  const logManager = state.logManager;
  return {
    nodeId: state.identity.nodeId,
    roles: state.config.processRoles,
    broker: brokerHealthOf(state.broker()),
    quorum: {
      leaderId: quorum.leaderId === null ? undefined : brokerId(quorum.leaderId),
      leaderEpoch: leaderEpoch(quorum.epoch),
    },
    logDirs: state.config.log.logDirs.map((path) => ({
      path,
      isOffline: logManager !== undefined && !logManager.isLogDirOnline(path),
    })),
  };
}

function brokerHealthOf(lifecycle: BrokerLifecycleManager | undefined): NodeHealth["broker"] {
  if (lifecycle === undefined) return undefined;
  return {
    state: lifecycle.state,
    isRegistered: lifecycle.registration !== undefined,
    isFenced: lifecycle.isFenced,
  };
}

function clusterViewOf(state: NodeHttpState): ClusterView {
  const image = state.image() ?? EMPTY_IMAGE;
  const quorum = state.quorum();
  const brokers: BrokerView[] = sortedEntries(image.cluster.brokers).map(([, broker]) => ({
    id: broker.id,
    epoch: broker.epoch,
    isFenced: broker.isFenced,
    inControlledShutdown: broker.isInControlledShutdown,
    rack: broker.rack ?? undefined,
    endpoints: broker.listeners.map((endpoint) => ({
      name: endpoint.name,
      host: endpoint.host,
      port: endpoint.port,
      securityProtocol: endpoint.securityProtocol === 0 ? "PLAINTEXT" : "OTHER",
    })),
  }));
  // Topic configs resolve as this node's replica manager resolves them.
  const configs = {
    defaults: defaultPartitionConfigOf(state.config),
    brokerId: state.identity.nodeId,
  };
  const summary = state.replication?.replicaManager.replicationSummary();
  const lags = new Map<string, number>();
  for (const { topicPartition, lag } of summary?.followerLags ?? []) {
    lags.set(partitionFolderName(topicPartition), lag);
  }
  const topics = sortedEntries(image.topics.byName).map(([, topic]) => {
    const { minInsyncReplicas } = partitionConfigOf(image, topic.name, configs);
    return topicView(state, topic, { minInsyncReplicas, lags });
  });
  return {
    clusterId: state.identity.clusterId,
    nodeId: state.identity.nodeId,
    roles: state.config.processRoles,
    controller: {
      leaderId: quorum.leaderId === null ? undefined : brokerId(quorum.leaderId),
      leaderEpoch: leaderEpoch(quorum.epoch),
      voters: state.config.quorum.voters.map((voter): BrokerId => brokerId(voter.nodeId)),
    },
    replicaManager: replicaManagerView(summary),
    brokers,
    topics,
  };
}

/** The summary's numbers but the lag of each partition, which the page does not show. */
function replicaManagerView(
  summary: ReplicationSummary | undefined,
): ReplicaManagerView | undefined {
  if (summary === undefined) return undefined;
  const { followerLags: _perPartition, ...counts } = summary;
  return counts;
}

function topicView(
  state: NodeHttpState,
  topic: TopicImage,
  local: { readonly minInsyncReplicas: number; readonly lags: ReadonlyMap<string, number> },
): TopicView {
  const partitions = sortedEntries(topic.partitions).map(([index, registration]) => {
    const topicPartition = { topic: topic.name, partition: index };
    const lookup = state.logManager?.getLog(topicPartition);
    const highWatermark = state.logManager?.highWatermarkOf(topicPartition);
    const hosted = lookup?.kind === "online";
    return {
      partition: partitionIndex(index),
      leader: registration.leader < 0 ? undefined : registration.leader,
      leaderEpoch: registration.leaderEpoch,
      replicas: registration.replicas,
      isr: registration.isr,
      highWatermark: hosted && highWatermark !== undefined ? offset(highWatermark) : undefined,
      logEndOffset: hosted ? offset(lookup.log.logEndOffset) : undefined,
      followerLag: local.lags.get(partitionFolderName(topicPartition)),
    };
  });
  return {
    name: topic.name,
    topicId: topic.id,
    minInsyncReplicas: local.minInsyncReplicas,
    partitions,
  };
}
