/**
 * The broker side of a node (Kafka's BrokerServer), built before the metadata log starts so
 * that its metadata loader sees every committed record: first its membership (the channel to the
 * active controller, the loader, the lifecycle manager: register, catch up, unfence, controlled
 * shutdown), then the metadata cache and the replica manager as publishers of the loader, the
 * AlterPartition sender and the admin forwarder.
 */
import { SECURITY_PROTOCOL_IDS } from "./node-security.js";
import { brokerId, type BrokerId, type NodeId, type Uuid } from "../common/index.js";
import {
  BrokerTopicStats,
  BrokerLifecycleManager,
  ControllerAlterPartitionSender,
  ControllerChannel,
  MetadataCache,
  type ControllerForwarder,
  newIncarnationId,
  type ControllerEndpoint,
} from "../broker/index.js";
import { ClientPool } from "../client/index.js";
import { supportedFeatureRanges } from "../controller/index.js";
import type { ProducerIdManager } from "../coordinator/index.js";
import { MetadataLoader } from "../metadata/index.js";
import type { RaftListener } from "../raft/index.js";
import {
  RemoteLeaderEndpoint,
  ReplicaManager,
  ReplicaManagerMetrics,
  ReplicationQuotas,
  replicaSelectorOf,
} from "../replication/index.js";
import type { LogManager } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { defaultPartitionConfigOf } from "./node-settings.js";
import { directoryReporting } from "./node-directories.js";
import type { NodeIdentity, NodePorts } from "./node-types.js";

import {
  CONTROLLER_REQUEST_TIMEOUT_MS,
  createProducerIds,
  forwarderOf,
} from "./node-broker-controller.js";

/**
 * The broker's membership in the cluster, built first: the channel to the active controller, the
 * metadata loader (whose applied offset the heartbeats report) and the lifecycle manager. A
 * broker whose id the controller assigns starts it before anything else (node-assigned-id.ts).
 */
export interface BrokerMembership {
  readonly loader: MetadataLoader;
  readonly lifecycle: BrokerLifecycleManager;
  readonly channel: ControllerChannel;
  /** Closes the connections to the controllers. */
  close(): void;
}

/** The broker's parts, wired to each other and not yet started. */
export interface BrokerSide extends BrokerMembership {
  readonly metadataCache: MetadataCache;
  readonly replicaManager: ReplicaManager;
  readonly forwarder: ControllerForwarder;
  /** The replica manager's metric families, updated from its summary at each scrape. */
  readonly replicaMetrics: ReplicaManagerMetrics;
  /** Kafka's BrokerTopicMetrics, which Produce and Fetch count. */
  readonly topicStats: BrokerTopicStats;
  /** Producer ids for InitProducerId, from the blocks the controller grants. */
  readonly producerIds: ProducerIdManager;
}

/** Who the broker registers as, and what of the node its heartbeats read. */
export interface MembershipContext {
  readonly clusterId: string;
  /** `node.id`, or undefined when the controller is to assign one. */
  readonly nodeId: NodeId | undefined;
  /** The directory ids of the log dirs, in `log.dirs` order. */
  readonly logDirIds: readonly Uuid[];
  /** The broker epoch of the clean-shutdown marker, or -1. */
  readonly previousBrokerEpoch: number;
  /** The log manager once it runs: the heartbeats report its offline dirs. */
  readonly logManager: () => LogManager | undefined;
  /** The metadata log's Raft leader now (the active controller), once the log runs. */
  readonly raftLeader: () => NodeId | undefined;
  /** Makes an assigned id durable before the broker uses it; required without `nodeId`. */
  readonly persistAssignedBrokerId?: (brokerId: BrokerId) => Promise<void>;
}

/** Builds the broker's membership; nothing is sent until `lifecycle.start()`. */
export function createBrokerMembership(
  ports: NodePorts,
  config: NodeConfig,
  context: MembershipContext,
): BrokerMembership {
  const logger = ports.logger.child({ component: "broker" });
  const pool = new ClientPool(ports, {
    requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS,
    clientId: `broker-${context.nodeId ?? "unassigned"}-to-controller`,
    security: ports.peerSecurity?.controller,
  });
  const channel = new ControllerChannel(
    { pool, clock: ports.clock, timers: ports.timers, logger },
    {
      endpoints: controllerEndpoints(config),
      requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS,
      retryBackoffMs: config.quorum.retryBackoffMs,
      leaderHint: context.raftLeader,
    },
  );
  const loader = new MetadataLoader({ nowMs: ports.clock.monotonicMs() });
  const lifecycle = createLifecycle(ports, config, { context, channel, loader });
  const close = (): void => {
    channel.close();
    pool.close();
  };
  return { loader, lifecycle, channel, close };
}

/**
 * The Raft listener that points the broker's controller channel at each new leader of the
 * metadata log the moment its election ends, so that requests to the controller (forwarded
 * admin requests, heartbeats, AlterPartition) reach the next active controller without first
 * trying the dead one again or waiting out a backoff.
 */
export function controllerLeaderFollower(channel: ControllerChannel): RaftListener {
  return {
    handleCommit: () => undefined,
    handleLoadSnapshot: () => undefined,
    handleLeaderChange: (change) => {
      channel.followLeader(change.leaderId === null ? undefined : brokerId(change.leaderId));
    },
  };
}

/** What the broker side reads from the rest of the node. */
export interface BrokerSideContext {
  readonly identity: NodeIdentity;
  readonly logManager: LogManager;
  readonly membership: BrokerMembership;
  /** The metadata log's high watermark as this node's Raft replica knows it. */
  readonly raftHighWatermark: () => number | undefined;
}

/** Builds the rest of the broker side around its membership, under the node's id. */
export function createBrokerSide(
  ports: NodePorts,
  config: NodeConfig,
  context: BrokerSideContext,
): BrokerSide {
  const { identity, logManager, membership } = context;
  const { lifecycle, channel, loader } = membership;
  const logger = ports.logger.child({ component: "broker" });
  const brokerEpoch = (): number => lifecycle.registration?.brokerEpoch ?? -1;
  const sender = () => ({ brokerId: identity.nodeId, brokerEpoch: brokerEpoch() });
  const alterPartitionSender = new ControllerAlterPartitionSender(channel, sender, {
    requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS,
  });
  const directories = directoryReporting(ports, context, {
    brokerEpoch,
    requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS,
    image: () => replicaManager.metadataImage,
  });
  const replication = config.replication;
  // Followers reach partition leaders on their own connections, apart from the controller's.
  const fetchPool = new ClientPool(ports, {
    requestTimeoutMs: replication.requestTimeoutMs,
    clientId: `broker-${identity.nodeId}-fetcher`,
    security: ports.peerSecurity?.interBroker,
  });
  const replicaManager = new ReplicaManager({
    brokerId: identity.nodeId,
    brokerEpoch,
    logManager,
    alterPartitionSender,
    clock: ports.clock,
    timers: ports.timers,
    logger,
    defaults: defaultPartitionConfigOf(config),
    replicaLagTimeMaxMs: config.replicaLagTimeMaxMs,
    replicaSelector: replicaSelectorOf(config.values.stringOrNull("replica.selector.class")),
    network: {
      listenerName: config.interBrokerListenerName ?? "PLAINTEXT",
      endpointOf: (leaderId, address) => {
        fetchPool.setNodeAddress(leaderId, address);
        return new RemoteLeaderEndpoint(fetchPool, leaderId, {
          replicaId: identity.nodeId,
          requestTimeoutMs: replication.requestTimeoutMs,
          logger: ports.logger.child({ component: "replica-fetcher" }),
        });
      },
      fetchers: replication,
    },
    replicationQuotas: new ReplicationQuotas(identity.nodeId, ports, replication.quotaWindow),
    directoryAssigner: directories.assigner,
  });
  const replicaMetrics = new ReplicaManagerMetrics(ports.metrics, {
    isPartitionLevel: config.partitionLevelMetricsEnable,
  });
  const metadataCache = new MetadataCache({ clusterId: identity.clusterId, random: ports.random });
  loader.register(replicaManager);
  replicaManager.publishAfterApplying(metadataCache);
  const forwarder = forwarderOf(ports, channel, { metadataCache, context });
  const producerIds = createProducerIds(ports, channel, sender);
  const close = (): void => {
    directories.close();
    membership.close();
    fetchPool.close();
  };
  const topicStats = new BrokerTopicStats(ports.metrics);
  const parts = {
    ...{ metadataCache, replicaManager, forwarder, replicaMetrics, producerIds, topicStats },
  };
  return { ...membership, ...parts, close };
}

/** The lifecycle manager, registering with the advertised listeners and every log dir. */
function createLifecycle(
  ports: NodePorts,
  config: NodeConfig,
  parts: {
    readonly context: MembershipContext;
    readonly channel: ControllerChannel;
    readonly loader: MetadataLoader;
  },
): BrokerLifecycleManager {
  const { context } = parts;
  const offlineLogDirs = (): Uuid[] => {
    const logManager = context.logManager();
    if (logManager === undefined) return [];
    return config.log.logDirs.flatMap((dir) => {
      const id = logManager.directoryIdOf(dir);
      return id === undefined || logManager.isLogDirOnline(dir) ? [] : [id];
    });
  };
  const persist = context.persistAssignedBrokerId;
  return new BrokerLifecycleManager({
    identity: {
      nodeId: context.nodeId,
      clusterId: context.clusterId,
      incarnationId: newIncarnationId(ports.random),
      listeners: config.advertisedListeners.map(({ name, host, port, securityProtocol }) => ({
        name,
        host,
        port,
        securityProtocol: SECURITY_PROTOCOL_IDS[securityProtocol],
      })),
      rack: config.values.stringOrNull("broker.rack"),
      logDirIds: context.logDirIds,
      // Every level the node runs, eligible.leader.replicas.version included: the controller
      // refuses a broker that cannot run a finalized level.
      features: supportedFeatureRanges(),
      previousBrokerEpoch: context.previousBrokerEpoch,
    },
    config: {
      heartbeatIntervalMs: config.brokerHeartbeatIntervalMs,
      communicationTimeoutMs: Math.floor(config.brokerSessionTimeoutMs / 2),
      logDirFailureTimeoutMs: config.values.number("log.dir.failure.timeout.ms"),
    },
    channel: parts.channel,
    timers: ports.timers,
    logger: ports.logger.child({ component: "broker-lifecycle" }),
    heartbeatReport: () => ({
      metadataOffset: parts.loader.image.provenance.lastContainedOffset,
      offlineLogDirs: offlineLogDirs(),
    }),
    ...(persist === undefined ? {} : { persistAssignedBrokerId: persist }),
  });
}

/** The controllers a broker talks to: the static voters, else the bootstrap servers. */
export function controllerEndpoints(config: NodeConfig): ControllerEndpoint[] {
  if (config.quorum.voters.length > 0) {
    return config.quorum.voters.map((voter) => ({
      nodeId: brokerId(voter.nodeId),
      address: { host: voter.host, port: voter.port },
    }));
  }
  return config.quorum.bootstrapServers.map(({ host, port }) => ({
    nodeId: undefined,
    address: { host, port },
  }));
}
