/**
 * A broker process for the lifecycle tests: a ClientPool, a ControllerChannel and a
 * BrokerLifecycleManager on one simulated node, talking to a FakeControllerQuorum.
 */
import { brokerId, type NodeId, type Uuid } from "../../../src/common/index.js";
import { ClientPool } from "../../../src/client/index.js";
import {
  METADATA_VERSION,
  METADATA_VERSION_LATEST,
  METADATA_VERSION_MIN,
} from "../../../src/controller/index.js";
import {
  BrokerLifecycleManager,
  ControllerChannel,
  newIncarnationId,
  type BrokerLifecycleManagerConfig,
  type ControllerEndpoint,
  type LifecycleEvent,
} from "../../../src/broker/index.js";
import { MemoryLogger } from "../../../src/broker/network/test-doubles.test-support.js";
import { SimWorld } from "../../../sim/index.js";
import { CLUSTER_ID, FakeControllerQuorum } from "./fake-controller.js";

/** Two controller voters, 1 and 2, on their own machines. */
export const VOTERS: readonly ControllerEndpoint[] = [
  { nodeId: brokerId(1), address: { host: "controller-1", port: 9093 } },
  { nodeId: brokerId(2), address: { host: "controller-2", port: 9093 } },
];

/** A log dir id for the tests, never a reserved one. */
export const LOG_DIR_ID = "a0000000000000000000000000000001" as Uuid;

/** One simulated broker process and what the test inspects. */
export interface BrokerProcess {
  readonly manager: BrokerLifecycleManager;
  readonly channel: ControllerChannel;
  readonly pool: ClientPool;
  readonly events: LifecycleEvent[];
  /** The metadata offset the broker reports; tests move it forward. */
  metadataOffset: number;
}

/** A world with a started controller quorum. */
export async function startQuorum(seed: number): Promise<{
  world: SimWorld;
  quorum: FakeControllerQuorum;
}> {
  const world = new SimWorld({ seed });
  const quorum = new FakeControllerQuorum(world, VOTERS);
  await quorum.start();
  return { world, quorum };
}

/** A broker process on node `name`, not started yet. */
export function brokerProcess(
  world: SimWorld,
  options: {
    name: string;
    nodeId: NodeId | undefined;
    config?: Partial<BrokerLifecycleManagerConfig>;
    persistAssignedBrokerId?: (id: NodeId) => Promise<void>;
  },
): BrokerProcess {
  const node = world.scheduler.node(options.name);
  const ports = {
    network: world.network.forNode(options.name),
    timers: node.timers,
    clock: node.clock,
    random: node.random,
  };
  const pool = new ClientPool(ports, { requestTimeoutMs: 2000 });
  const logger = new MemoryLogger();
  const channel = new ControllerChannel(
    { pool, clock: node.clock, timers: node.timers, logger },
    { endpoints: VOTERS, requestTimeoutMs: 2000, retryBackoffMs: 100 },
  );
  const events: LifecycleEvent[] = [];
  const process: BrokerProcess = {
    manager: undefined as unknown as BrokerLifecycleManager,
    channel,
    pool,
    events,
    metadataOffset: 0,
  };
  const manager = new BrokerLifecycleManager({
    identity: {
      nodeId: options.nodeId,
      clusterId: CLUSTER_ID,
      incarnationId: newIncarnationId(node.random),
      listeners: [{ name: "PLAINTEXT", host: options.name, port: 9092, securityProtocol: 0 }],
      rack: null,
      logDirIds: [LOG_DIR_ID],
      features: [
        {
          name: METADATA_VERSION,
          minSupportedVersion: METADATA_VERSION_MIN,
          maxSupportedVersion: METADATA_VERSION_LATEST,
        },
      ],
      previousBrokerEpoch: -1,
    },
    config: options.config ?? {},
    channel,
    timers: node.timers,
    logger,
    heartbeatReport: () => ({ metadataOffset: process.metadataOffset, offlineLogDirs: [] }),
    ...(options.persistAssignedBrokerId === undefined
      ? {}
      : { persistAssignedBrokerId: options.persistAssignedBrokerId }),
  });
  manager.onEvent((event) => events.push(event));
  return Object.assign(process, { manager });
}
