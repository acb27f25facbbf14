/**
 * The composition root of a node of any role (Kafka's KafkaRaftServer with its BrokerServer and
 * ControllerServer), started in Kafka's order: storage identity → log manager (recovery) →
 * metadata log (Raft) with its listeners (the controller, the broker's metadata loader) →
 * controller listener → broker lifecycle (register, catch up, unfence) → client listener →
 * periodic tasks → HTTP. `shutdown` undoes it in reverse (node-shutdown.ts).
 */
import type { PrometheusRegistry } from "../adapters/index.js";
import { brokerId } from "../common/index.js";
import { RaftDriver, type RaftListener } from "../raft/index.js";
import type { Address } from "../ports/index.js";
import type { LogConfig } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { ClientRaftTransport, raftConfigOf } from "./controller-node-raft.js";
import { createBrokerSide } from "./node-broker.js";
import { createControllerSide } from "./node-controller.js";
import { startHttp } from "./node-http.js";
import { listenController, startBrokerServing } from "./node-listeners.js";
import { shutdownNode, type NodeParts } from "./node-shutdown.js";
import { defaultLogConfigOf } from "./node-settings.js";
import { openLogManager, prepareStorage, type FormatPolicy } from "./node-storage.js";
import type { NodeIdentity, NodePorts } from "./node-types.js";

/** What starting a node needs besides its ports. */
export interface NodeOptions {
  readonly config: NodeConfig;
  readonly format: FormatPolicy;
  /** The metrics registry the HTTP endpoint renders (the same object as `ports.metrics`). */
  readonly registry: PrometheusRegistry;
  /** Told of a failure the node cannot survive (the metadata log, a broken invariant). */
  readonly onFatalError: (error: unknown) => void;
}

/** A running node. */
export interface RunningNode {
  readonly identity: NodeIdentity;
  /** Where each Kafka listener (client and controller) is bound. */
  readonly listeners: readonly { readonly name: string; readonly address: Address }[];
  readonly httpAddress: Address;
  /** Controlled shutdown, then every part stopped and its files closed; idempotent. */
  shutdown(): Promise<void>;
}

/** Starts a node; throws NodeStartError when its configuration or dirs refuse it. */
export async function startNode(ports: NodePorts, options: NodeOptions): Promise<RunningNode> {
  const { config } = options;
  const identity = await prepareStorage(ports, config, options.format);
  const { logManager, broker, controller, raftHolder } = await buildSides(ports, config, identity);
  const listeners: RaftListener[] = [];
  if (controller !== undefined) listeners.push(controller.raftListener);
  if (broker !== undefined) listeners.push(broker.loader);
  const transport = new ClientRaftTransport(ports, config, identity.nodeId);
  const raft = await RaftDriver.start({
    ...ports,
    config: raftConfigOf(config, { ...identity, directoryId: identity.metadataDirectoryId }),
    metadataLogDir: config.log.metadataLogDir,
    transport,
    listeners,
    onFatalError: options.onFatalError,
  });
  raftHolder.driver = raft;
  controller?.attach(raft);
  const parts: NodeParts = {
    ...{ ports, config, identity, raft, transport, controller, broker, logManager },
    ...{ servers: [], bound: [], client: undefined, tasks: undefined, http: undefined },
    isShutDown: false,
  };
  try {
    if (controller !== undefined) await listenController(parts, controller);
    if (broker !== undefined) await startBrokerServing(parts, broker, options.onFatalError);
    parts.http = await startHttp(
      {
        config,
        identity,
        image: () => broker?.metadataCache.image ?? controller?.controller.committedImage,
        quorum: () => raft.status,
        broker: () => broker?.lifecycle,
        logManager,
      },
      { registry: options.registry, logger: ports.logger.child({ component: "http" }) },
    );
  } catch (error) {
    await shutdownNode(parts);
    throw error;
  }
  const httpAddress = parts.http.address;
  return {
    identity,
    listeners: parts.bound,
    httpAddress,
    shutdown: () => shutdownNode(parts),
  };
}

/** The log manager, the controller side and the broker side the node's roles call for. */
async function buildSides(ports: NodePorts, config: NodeConfig, identity: NodeIdentity) {
  // The log manager asks for topic configs before the replica manager (which resolves them
  // from the metadata image) exists, so the lookup is bound late.
  const topicConfigs: { of?: (topic: string) => LogConfig } = {};
  const defaultLogConfig = defaultLogConfigOf(config);
  const logManager = config.isBroker
    ? await openLogManager(ports, config, identity, (topic) =>
        topicConfigs.of === undefined ? defaultLogConfig : topicConfigs.of(topic),
      )
    : undefined;
  const controller = config.isController
    ? createControllerSide(ports, config, identity)
    : undefined;
  const raftHolder: { driver?: RaftDriver } = {};
  const broker =
    logManager === undefined
      ? undefined
      : createBrokerSide(ports, config, {
          identity,
          logManager,
          raftLeader: () => {
            const leaderId = raftHolder.driver?.status.leaderId;
            return leaderId === undefined || leaderId === null ? undefined : brokerId(leaderId);
          },
        });
  if (broker !== undefined) {
    const replicaManager = broker.replicaManager;
    topicConfigs.of = (topic) => replicaManager.logConfigOf(topic);
  }
  return { logManager, broker, controller, raftHolder };
}
