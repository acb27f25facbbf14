/**
 * The composition root of a node of any role (Kafka's KafkaRaftServer with its BrokerServer and
 * ControllerServer), started in Kafka's order: storage identity (for a broker without node.id,
 * registering to be assigned one, node-assigned-id.ts) → log manager (recovery) →
 * metadata log (Raft) with its listeners (the controller, the broker's metadata loader) →
 * controller listener → broker lifecycle (register, catch up, unfence) → client listener →
 * periodic tasks → HTTP. The Kafka listeners are bound before the storage is touched and each is
 * handed to its part as it starts (node-port-reservation.ts). `shutdown` undoes it in reverse
 * (node-shutdown.ts).
 */
import { brokerId, type NodeId } from "../common/index.js";
import { RaftDriver, type RaftListener } from "../raft/index.js";
import type { Address } from "../ports/index.js";
import type { LogConfig, LogManager } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { ClientRaftTransport, raftConfigOf } from "./controller-node-raft.js";
import { awaitAssignedNodeId } from "./node-assigned-id.js";
import {
  controllerLeaderFollower,
  createBrokerMembership,
  createBrokerSide,
  type BrokerMembership,
  type BrokerSide,
} from "./node-broker.js";
import {
  createControllerSide,
  readControllerBootstrap,
  type ControllerSide,
} from "./node-controller.js";
import type { MetadataChangeFeed } from "../http/index.js";
import type { NodeHttpState } from "./node-http.js";
import { listenController, startBrokerServing } from "./node-listeners.js";
import { listenerTlsOf, loadPeerSecurity } from "./node-security.js";
import { PortReservation } from "./node-port-reservation.js";
import { metadataChangeListener, newMetadataChangeFeed } from "./node-metadata-changes.js";
import { scrapeCollectors } from "./node-metrics.js";
import { shutdownNode, type NodeParts } from "./node-shutdown.js";
import { defaultLogConfigOf } from "./node-settings.js";
import { openLogManager, prepareStorage, type FormatPolicy } from "./node-storage.js";
import type { NodeHttpServer, NodeIdentity, NodePorts } from "./node-types.js";

export interface NodeOptions {
  readonly config: NodeConfig;
  readonly format: FormatPolicy;
  /**
   * Starts the node's HTTP endpoint over its live state (`sluice start` serves metrics, health
   * and the dashboard); a node without one (under simulation) has no HTTP address.
   */
  readonly http?: (state: NodeHttpState) => Promise<NodeHttpServer>;
  /** Told of a failure the node cannot survive (the metadata log, a broken invariant). */
  readonly onFatalError: (error: unknown) => void;
}

export interface RunningNode {
  readonly identity: NodeIdentity;
  /** Where each Kafka listener (client and controller) is bound. */
  readonly listeners: readonly { readonly name: string; readonly address: Address }[];
  readonly httpAddress: Address | undefined;
  /**
   * Controlled shutdown (unless `isControlled` is false: the whole cluster is stopping and no
   * leadership needs to move), then every part stopped and its files closed; idempotent.
   */
  shutdown(options?: { readonly isControlled?: boolean }): Promise<void>;
}

/**
 * Starts a node; throws NodeStartError when its listeners' ports, configuration or dirs refuse
 * it. The Kafka listeners are bound first, so that a node that cannot have its ports has not
 * touched its dirs (`sluice start` binds the HTTP endpoint before calling this).
 */
export async function startNode(ports: NodePorts, options: NodeOptions): Promise<RunningNode> {
  const peerSecurity = await loadPeerSecurity(ports, options.config);
  const tls = await listenerTlsOf(ports.fs, options.config);
  const reserved = await PortReservation.reserve(ports.network, options.config, (name) => {
    const settings = tls.get(name);
    return settings === undefined ? undefined : { tls: settings };
  });
  try {
    return await startOnPorts({ ...ports, network: reserved, peerSecurity }, options);
  } finally {
    // What no part took over: every listener, when the start failed before serving.
    await reserved.releaseUnused();
  }
}

async function startOnPorts(ports: NodePorts, options: NodeOptions): Promise<RunningNode> {
  const { config } = options;
  const late: LateBound = {};
  const raftLeader = (): NodeId | undefined => {
    const leaderId = late.raft?.status.leaderId;
    return leaderId === undefined || leaderId === null ? undefined : brokerId(leaderId);
  };
  const prepared = await prepareStorage(ports, config, options.format);
  const assigned =
    prepared.kind === "identified"
      ? { identity: prepared.identity, membership: undefined }
      : await awaitAssignedNodeId(ports, config, {
          storage: prepared,
          logManager: () => late.logManager,
          raftLeader,
        });
  const { identity } = assigned;
  const sideContext = { ...assigned, late, raftLeader };
  const { logManager, broker, controller } = await buildSides(ports, config, sideContext);
  const { listeners, metadataChanges } = raftListenersOf(controller, broker);
  const transport = new ClientRaftTransport(ports, config, identity.nodeId);
  const raft = await RaftDriver.start({
    ...ports,
    config: raftConfigOf(config, { ...identity, directoryId: identity.metadataDirectoryId }),
    metadataLogDir: config.log.metadataLogDir,
    segmentBytes: config.metadataLogSegmentBytes,
    transport,
    listeners,
    onFatalError: options.onFatalError,
  });
  late.raft = raft;
  // Voters are reached at the endpoints of the voter set in the log (KIP-853).
  transport.useVoterEndpoints((id) => raft.voterEndpoints(id));
  controller?.attach(raft);
  const parts: NodeParts = {
    ...{ ports, config, identity, raft, transport, controller, broker, logManager },
    ...{ servers: [], bound: [], client: undefined, tasks: undefined, http: undefined },
    collectors: [],
    isShutDown: false,
  };
  try {
    if (controller !== undefined) await listenController(parts, controller);
    if (broker !== undefined) await startBrokerServing(parts, broker, options.onFatalError);
    parts.collectors.push(...scrapeCollectors(parts));
    parts.http = await options.http?.({
      config,
      identity,
      image: () => broker?.metadataCache.image ?? controller?.controller.committedImage,
      quorum: () => raft.status,
      describeQuorum: () => raft.describeQuorum(),
      metadataChanges,
      groups: () => parts.client?.groups,
      broker: () => broker?.lifecycle,
      collectors: parts.collectors,
      logManager,
      replication: broker,
    });
  } catch (error) {
    await shutdownNode(parts);
    throw error;
  }
  const httpAddress = parts.http?.address;
  return {
    identity,
    listeners: parts.bound,
    httpAddress,
    shutdown: (shutdownOptions) => shutdownNode(parts, shutdownOptions),
  };
}

/**
 * Who hears of the metadata log's commits: the controller, the broker, and the dashboard's
 * feed of changes, which names topics from the node's freshest image.
 */
function raftListenersOf(
  controller: ControllerSide | undefined,
  broker: BrokerSide | undefined,
): { readonly listeners: RaftListener[]; readonly metadataChanges: MetadataChangeFeed } {
  const listeners: RaftListener[] = [];
  if (controller !== undefined) listeners.push(controller.raftListener);
  if (broker !== undefined) listeners.push(broker.loader, controllerLeaderFollower(broker.channel));
  const metadataChanges = newMetadataChangeFeed((topicId) => {
    const image = broker?.metadataCache.image ?? controller?.controller.committedImage;
    return image?.topics.byId.get(topicId)?.name;
  });
  // Last, so that a change is announced once every image it makes is published.
  listeners.push(metadataChangeListener(metadataChanges));
  return { listeners, metadataChanges };
}

/** Parts that exist only later in the start, read through closures built earlier. */
interface LateBound {
  raft?: RaftDriver;
  logManager?: LogManager;
}

/**
 * The log manager, the controller side and the broker side the node's roles call for; a broker
 * whose id the controller assigned brings its running membership.
 */
async function buildSides(
  ports: NodePorts,
  config: NodeConfig,
  context: {
    readonly identity: NodeIdentity;
    readonly membership: BrokerMembership | undefined;
    readonly late: LateBound;
    readonly raftLeader: () => NodeId | undefined;
  },
) {
  const { identity, late } = context;
  // The log manager asks for topic configs before the replica manager (which resolves them
  // from the metadata image) exists, so the lookup is bound late.
  const topicConfigs: { of?: (topic: string) => LogConfig } = {};
  const defaultLogConfig = defaultLogConfigOf(config);
  let logManager: LogManager | undefined;
  try {
    logManager = config.isBroker
      ? await openLogManager(ports, config, identity, (topic) =>
          topicConfigs.of === undefined ? defaultLogConfig : topicConfigs.of(topic),
        )
      : undefined;
  } catch (error) {
    // A broker registered under an assigned id stops heartbeating before the start fails.
    context.membership?.lifecycle.close();
    context.membership?.close();
    throw error;
  }
  if (logManager !== undefined) late.logManager = logManager;
  const controller = config.isController
    ? createControllerSide(
        ports,
        config,
        identity,
        await readControllerBootstrap(ports.fs, config.log.metadataLogDir),
      )
    : undefined;
  const broker =
    logManager === undefined
      ? undefined
      : createBrokerSide(ports, config, {
          identity,
          logManager,
          raftHighWatermark: () => late.raft?.status.highWatermark ?? undefined,
          membership: context.membership ?? membershipOf(ports, config, { ...context, logManager }),
        });
  if (broker !== undefined) {
    const replicaManager = broker.replicaManager;
    topicConfigs.of = (topic) => replicaManager.logConfigOf(topic);
  }
  return { logManager, broker, controller };
}

/** The membership of a broker with a node id, registering with its log manager's dirs. */
function membershipOf(
  ports: NodePorts,
  config: NodeConfig,
  context: {
    readonly identity: NodeIdentity;
    readonly logManager: LogManager;
    readonly raftLeader: () => NodeId | undefined;
  },
): BrokerMembership {
  const { identity, logManager } = context;
  return createBrokerMembership(ports, config, {
    clusterId: identity.clusterId,
    nodeId: identity.nodeId,
    logDirIds: config.log.logDirs.flatMap((dir) => {
      const id = logManager.directoryIdOf(dir);
      return id === undefined ? [] : [id];
    }),
    previousBrokerEpoch: logManager.previousBrokerEpoch ?? -1,
    logManager: () => logManager,
    raftLeader: context.raftLeader,
  });
}
