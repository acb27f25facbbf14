/**
 * The first start of a broker without node.id (a Sluice extension after RocketMQ's controller
 * mode, docs/decisions/0006): everything past storage needs a node id (the log manager checks it
 * in meta.properties, the replica manager and the metadata log's observer run under it), so the
 * broker registers first, with -1 and the directory ids its dirs were formatted with. The id the
 * controller assigns is written into meta.properties of every dir before it is used, and the node
 * then starts under it; the lifecycle keeps heartbeating and is handed on to the broker side.
 * Later starts read the id from meta.properties and register under it from any address.
 */
import { assert, type BrokerId, type NodeId } from "../common/index.js";
import { BrokerLifecycleStoppedError, persistAssignedNodeId } from "../broker/index.js";
import type { LogManager } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { createBrokerMembership, type BrokerMembership } from "./node-broker.js";
import { nodeDirs, type PreparedStorage } from "./node-storage.js";
import { NodeStartError, type NodeIdentity, type NodePorts } from "./node-types.js";

/** Storage formatted for a broker whose id the controller is to assign. */
export type UnassignedStorage = Extract<PreparedStorage, { kind: "awaitingNodeId" }>;

/** What registering for an id reads from the rest of the node, bound late. */
export interface AssignmentContext {
  readonly storage: UnassignedStorage;
  /** The log manager once it runs, for the heartbeats' offline log dirs. */
  readonly logManager: () => LogManager | undefined;
  /** The metadata log's Raft leader, once the log runs. */
  readonly raftLeader: () => NodeId | undefined;
}

/** A broker registered under an assigned id that is now kept in every dir. */
export interface AssignedNode {
  readonly identity: NodeIdentity;
  /** The running membership (registered, heartbeating), for the broker side to take over. */
  readonly membership: BrokerMembership;
}

/**
 * Registers with -1, persists the assigned id and resolves with the node's identity. Throws
 * NodeStartError when no controller assigned an id before the lifecycle gave up.
 */
export async function awaitAssignedNodeId(
  ports: NodePorts,
  config: NodeConfig,
  context: AssignmentContext,
): Promise<AssignedNode> {
  const { storage } = context;
  const { clusterId } = storage;
  const directoryIdOf = (dir: string) => {
    const directoryId = storage.directoryIds.get(dir);
    assert(directoryId !== undefined, "every dir of the node was formatted with a directory id");
    return directoryId;
  };
  const dirs = nodeDirs(config).map((logDir) => ({ logDir, directoryId: directoryIdOf(logDir) }));
  const persistAssignedBrokerId = async (nodeId: BrokerId): Promise<void> => {
    await persistAssignedNodeId(ports.fs, {
      logDirs: dirs,
      clusterId,
      nodeId,
      nowMs: ports.clock.nowMs(),
    });
    ports.logger.info("the controller assigned this broker its node id", { nodeId });
  };
  const membership = createBrokerMembership(ports, config, {
    clusterId,
    nodeId: undefined,
    logDirIds: config.log.logDirs.map(directoryIdOf),
    // A broker that never had an id never shut down cleanly under one.
    previousBrokerEpoch: -1,
    logManager: context.logManager,
    raftLeader: context.raftLeader,
    persistAssignedBrokerId,
  });
  membership.lifecycle.start();
  try {
    const registration = await membership.lifecycle.whenRegistered();
    const identity: NodeIdentity = {
      nodeId: registration.brokerId,
      clusterId,
      metadataDirectoryId: storage.metadataDirectoryId,
      wasFormatted: storage.wasFormatted,
    };
    return { identity, membership };
  } catch (cause) {
    membership.lifecycle.close();
    membership.close();
    if (!(cause instanceof BrokerLifecycleStoppedError)) throw cause;
    throw new NodeStartError("no controller assigned this broker a node id", { cause });
  }
}
