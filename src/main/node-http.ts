/**
 * The node's HTTP endpoint (`sluice.http.listener`): Prometheus metrics, health and the JSON
 * cluster view, each read from the node's live state at the moment of the request.
 */
import { HttpServer, type PrometheusRegistry } from "../adapters/index.js";
import { brokerId, leaderEpoch } from "../common/index.js";
import type { BrokerLifecycleManager, BrokerTopicStats } from "../broker/index.js";
import type { GroupCoordinatorState } from "../coordinator/index.js";
import { httpRoutes, type MetadataChangeFeed, type NodeHealth } from "../http/index.js";
import { EMPTY_IMAGE, type MetadataImage } from "../metadata/index.js";
import type { DescribeQuorumResponse } from "../protocol/index.js";
import type { ReplicaManager, ReplicaManagerMetrics } from "../replication/index.js";
import type { LogManager } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { clusterViewOf } from "./node-cluster-view.js";
import { brokerMessageSource } from "./node-message-browser.js";
import type { Logger } from "../ports/index.js";
import { bindOrExplain } from "./node-port-reservation.js";
import type { NodeIdentity } from "./node-types.js";

/** What the HTTP routes read from the running node. */
export interface NodeHttpState {
  readonly config: NodeConfig;
  readonly identity: NodeIdentity;
  /** The freshest metadata image this node holds. */
  image(): MetadataImage | undefined;
  quorum(): {
    readonly leaderId: number | null;
    readonly epoch: number;
    readonly highWatermark: number | null;
    readonly logEndOffset: number;
  };
  /** DescribeQuorum as this node answers it (replicas' progress only at the leader). */
  describeQuorum(): DescribeQuorumResponse;
  /** The committed metadata changes, for the dashboard's stream. */
  readonly metadataChanges: MetadataChangeFeed;
  /** The group coordinator's state, on a broker once it serves clients. */
  groups(): GroupCoordinatorState | undefined;
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
    metadataChanges: state.metadataChanges,
    messages:
      state.replication === undefined
        ? undefined
        : brokerMessageSource({
            replicaManager: state.replication.replicaManager,
            messageMaxBytes: state.config.messageMaxBytes,
            listenerName: state.config.interBrokerListenerName ?? "PLAINTEXT",
          }),
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
