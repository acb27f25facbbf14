/**
 * The broker side of a node (Kafka's BrokerServer), built before the metadata log starts so
 * that its metadata loader sees every committed record: the channel to the active controller,
 * the metadata cache and the replica manager as publishers of the broker's own loader, the
 * AlterPartition sender, the admin forwarder and the lifecycle manager (register, catch up,
 * unfence, controlled shutdown).
 */
import { brokerId, type NodeId } from "../common/index.js";
import {
  BrokerLifecycleManager,
  ControllerAlterPartitionSender,
  ControllerChannel,
  ControllerForwarder,
  MetadataCache,
  newIncarnationId,
  type ControllerEndpoint,
} from "../broker/index.js";
import { ClientPool } from "../client/index.js";
import {
  METADATA_VERSION,
  METADATA_VERSION_LATEST,
  METADATA_VERSION_MIN,
} from "../controller/index.js";
import { MetadataLoader } from "../metadata/index.js";
import { ReplicaManager } from "../replication/index.js";
import type { LogManager } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { defaultPartitionConfigOf } from "./node-settings.js";
import type { NodeIdentity, NodePorts } from "./node-types.js";

/** Kafka's default `request.timeout.ms` for requests a broker sends to the controller. */
const CONTROLLER_REQUEST_TIMEOUT_MS = 30_000;

/** The broker's parts, wired to each other and not yet started. */
export interface BrokerSide {
  readonly loader: MetadataLoader;
  readonly metadataCache: MetadataCache;
  readonly replicaManager: ReplicaManager;
  readonly lifecycle: BrokerLifecycleManager;
  readonly forwarder: ControllerForwarder;
  readonly channel: ControllerChannel;
  /** Closes the connections to the controllers. */
  close(): void;
}

/** What the broker side reads from the rest of the node. */
export interface BrokerSideContext {
  readonly identity: NodeIdentity;
  readonly logManager: LogManager;
  /** The metadata log's Raft leader now (the active controller), once the log runs. */
  readonly raftLeader: () => NodeId | undefined;
}

/** Builds the broker side of a node; nothing is sent until `lifecycle.start()`. */
export function createBrokerSide(
  ports: NodePorts,
  config: NodeConfig,
  context: BrokerSideContext,
): BrokerSide {
  const { identity, logManager } = context;
  const logger = ports.logger.child({ component: "broker" });
  const pool = new ClientPool(ports, {
    requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS,
    clientId: `broker-${identity.nodeId}-to-controller`,
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
  const lifecycle = createLifecycle(ports, config, { identity, logManager, channel, loader });
  const brokerEpoch = (): number => lifecycle.registration?.brokerEpoch ?? -1;
  const alterPartitionSender = new ControllerAlterPartitionSender(
    channel,
    () => ({ brokerId: identity.nodeId, brokerEpoch: brokerEpoch() }),
    { requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS },
  );
  const replicaManager = new ReplicaManager({
    brokerId: identity.nodeId,
    brokerEpoch,
    logManager,
    alterPartitionSender,
    clock: ports.clock,
    logger,
    defaults: defaultPartitionConfigOf(config),
    replicaLagTimeMaxMs: config.replicaLagTimeMaxMs,
  });
  const metadataCache = new MetadataCache({ clusterId: identity.clusterId, random: ports.random });
  loader.register(metadataCache);
  loader.register(replicaManager);
  const forwarder = new ControllerForwarder(channel, {
    requestTimeoutMs: CONTROLLER_REQUEST_TIMEOUT_MS,
  });
  const close = (): void => {
    channel.close();
    pool.close();
  };
  return { loader, metadataCache, replicaManager, lifecycle, forwarder, channel, close };
}

/** The lifecycle manager, registering with the advertised listeners and every log dir. */
function createLifecycle(
  ports: NodePorts,
  config: NodeConfig,
  parts: {
    readonly identity: NodeIdentity;
    readonly logManager: LogManager;
    readonly channel: ControllerChannel;
    readonly loader: MetadataLoader;
  },
): BrokerLifecycleManager {
  const { identity, logManager } = parts;
  const logDirIds = config.log.logDirs.flatMap((dir) => {
    const id = logManager.directoryIdOf(dir);
    return id === undefined ? [] : [id];
  });
  const offlineLogDirs = () =>
    config.log.logDirs.flatMap((dir) => {
      const id = logManager.directoryIdOf(dir);
      return id === undefined || logManager.isLogDirOnline(dir) ? [] : [id];
    });
  const lifecycle = new BrokerLifecycleManager({
    identity: {
      nodeId: identity.nodeId,
      clusterId: identity.clusterId,
      incarnationId: newIncarnationId(ports.random),
      listeners: config.advertisedListeners.map(({ name, host, port }) => ({
        name,
        host,
        port,
        securityProtocol: 0,
      })),
      rack: null,
      logDirIds,
      features: [
        {
          name: METADATA_VERSION,
          minSupportedVersion: METADATA_VERSION_MIN,
          maxSupportedVersion: METADATA_VERSION_LATEST,
        },
      ],
      previousBrokerEpoch: logManager.previousBrokerEpoch ?? -1,
    },
    config: {
      heartbeatIntervalMs: config.brokerHeartbeatIntervalMs,
      communicationTimeoutMs: Math.floor(config.brokerSessionTimeoutMs / 2),
    },
    channel: parts.channel,
    timers: ports.timers,
    logger: ports.logger.child({ component: "broker-lifecycle" }),
    heartbeatReport: () => ({
      metadataOffset: parts.loader.image.provenance.lastContainedOffset,
      offlineLogDirs: offlineLogDirs(),
    }),
  });
  return lifecycle;
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
