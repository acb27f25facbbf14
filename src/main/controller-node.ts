/**
 * The composition root of a node with `process.roles=controller`: checks (or formats) the
 * identity of the metadata log dir, starts the Raft driver on the metadata log, and serves the
 * Raft APIs (and ApiVersions) on the controller listeners. The controller's state machine will
 * be one of the driver's listeners once it exists.
 */
import { loadPeerSecurity } from "./node-security.js";
import { uuidFromRandomBytes, uuidToBase64, type Uuid } from "../common/index.js";
import { registerApiVersions, RequestRouter, SocketServer } from "../broker/index.js";
import type {
  Address,
  Clock,
  FileSystem,
  Logger,
  MetricsSink,
  Network,
  Random,
  Timers,
} from "../ports/index.js";
import { RaftDriver, type RaftListener } from "../raft/index.js";
import { readMetaProperties, writeMetaProperties } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { ClientRaftTransport, raftConfigOf, registerRaftApis } from "./controller-node-raft.js";
import { socketServerConfigOf } from "./node-settings.js";

export interface ControllerNodePorts {
  readonly fs: FileSystem;
  readonly network: Network;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
  readonly logger: Logger;
  readonly metrics: MetricsSink;
}

export interface ControllerNodeOptions {
  readonly config: NodeConfig;
  /** Formats an unformatted metadata log dir with this cluster id; without it one is refused. */
  readonly clusterIdToFormat?: string;
  /** Listeners of the metadata log (the controller, tests, benchmarks). */
  readonly listeners?: readonly RaftListener[];
  /** Told when the metadata log fails; the process should halt. */
  readonly onFatalError: (error: unknown) => void;
}

export interface ControllerNode {
  readonly nodeId: number;
  readonly clusterId: string;
  /** Where each controller listener is bound. */
  readonly listeners: readonly { readonly name: string; readonly address: Address }[];
  readonly raft: RaftDriver;
  /** Resigns leadership, stops the driver, and closes the connections and listeners. */
  shutdown(): Promise<void>;
}

/** Why a controller node could not start: a message for the operator. */
export class ControllerStartError extends Error {
  override readonly name = "ControllerStartError";
}

/** Starts a controller node; throws ControllerStartError when its config or dir refuse it. */
export async function startControllerNode(
  ports: ControllerNodePorts,
  options: ControllerNodeOptions,
): Promise<ControllerNode> {
  const { config } = options;
  if (config.nodeId === undefined) throw new ControllerStartError("node.id is required");
  const nodeId = config.nodeId;
  const identity = await metadataDirIdentity(ports, config, options.clusterIdToFormat);
  const peerSecurity = await loadPeerSecurity(ports, config);
  const transport = new ClientRaftTransport({ ...ports, peerSecurity }, config, nodeId);
  const raft = await RaftDriver.start({
    ...ports,
    config: raftConfigOf(config, { nodeId, ...identity }),
    metadataLogDir: config.log.metadataLogDir,
    segmentBytes: config.metadataLogSegmentBytes,
    transport,
    listeners: options.listeners ?? [],
    onFatalError: options.onFatalError,
  });
  transport.useVoterEndpoints((id) => raft.voterEndpoints(id));
  const router = new RequestRouter({ logger: ports.logger });
  registerApiVersions(router);
  registerRaftApis(router, () => raft);
  const server = new SocketServer(ports, router, { config: socketServerConfigOf(config) });
  const listeners = [];
  for (const listener of config.listeners) {
    if (!config.controllerListenerNames.includes(listener.name)) continue;
    const address = await server.listen(listener.name, listener);
    listeners.push({ name: listener.name, address });
  }
  const shutdown = async (): Promise<void> => {
    await raft.shutdown();
    transport.close();
    await server.close();
  };
  return { nodeId, clusterId: identity.clusterId, listeners, raft, shutdown };
}

/** The cluster and directory ids of the metadata log dir, formatting it when asked to. */
async function metadataDirIdentity(
  ports: ControllerNodePorts,
  config: NodeConfig,
  clusterIdToFormat: string | undefined,
): Promise<{ clusterId: string; directoryId: Uuid }> {
  const dir = config.log.metadataLogDir;
  const nodeId = config.nodeId as NonNullable<NodeConfig["nodeId"]>;
  let found = await readMetaProperties(ports.fs, dir);
  if (found === undefined) {
    if (clusterIdToFormat === undefined) {
      throw new ControllerStartError(
        `${dir} is not formatted: run sluice format --config FILE --cluster-id ID`,
      );
    }
    const directoryId = newUuid(ports.random);
    await ports.fs.mkdir(dir, { recursive: true });
    found = { version: 1, clusterId: clusterIdToFormat, nodeId, directoryId };
    await writeMetaProperties(ports.fs, dir, found, ports.clock.nowMs());
    ports.logger.info("formatted the metadata log dir", {
      dir,
      clusterId: clusterIdToFormat,
      directoryId: uuidToBase64(directoryId),
    });
  }
  if (found.nodeId !== nodeId) {
    throw new ControllerStartError(`${dir} belongs to node ${found.nodeId}, not ${nodeId}`);
  }
  if (clusterIdToFormat !== undefined && found.clusterId !== clusterIdToFormat) {
    throw new ControllerStartError(`${dir} belongs to cluster ${found.clusterId}`);
  }
  if (found.directoryId === undefined) {
    throw new ControllerStartError(`${dir} has no directory.id: format it again`);
  }
  return { clusterId: found.clusterId, directoryId: found.directoryId };
}

/** A random directory id, drawn until it is not one of Kafka's reserved ids. */
function newUuid(random: Random): Uuid {
  for (let draw = 0; draw < 100; draw++) {
    const uuid = uuidFromRandomBytes(random.fill(new Uint8Array(16)));
    if (uuid !== undefined) return uuid;
  }
  throw new Error("no usable Uuid in 100 random draws; the random source is broken");
}
