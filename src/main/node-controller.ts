/**
 * The controller side of a node (Kafka's ControllerServer): the quorum controller fed by the
 * metadata log through a RaftDriverAdapter, and the controller listener's router serving
 * ApiVersions, the Raft APIs and the controller APIs.
 */
import { registerApiVersions, RequestRouter } from "../broker/index.js";
import { QuorumController, RaftDriverAdapter, controllerApiHandlers } from "../controller/index.js";
import type { RaftDriver, RaftListener } from "../raft/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { registerRaftApis } from "./controller-node-raft.js";
import { controllerSettingsOf } from "./node-settings.js";
import type { NodeIdentity, NodePorts } from "./node-types.js";

/** The quorum controller and the Raft listener that feeds it; the driver is attached later. */
export interface ControllerSide {
  readonly controller: QuorumController;
  /**
   * Passed to the RaftDriver as a listener before it starts; the adapter behind it holds back
   * leader changes until `attach`, then delivers the latest.
   */
  readonly raftListener: RaftListener;
  /** Connects the started driver, so that the controller can propose and snapshot. */
  attach(raft: RaftDriver): void;
}

/** Builds the quorum controller of `identity`'s cluster, inactive until Raft elects it. */
export function createControllerSide(
  ports: NodePorts,
  config: NodeConfig,
  identity: NodeIdentity,
): ControllerSide {
  const adapter = new RaftDriverAdapter(identity.nodeId);
  const controller = new QuorumController({
    raft: adapter,
    settings: controllerSettingsOf(config, identity.clusterId),
    clock: ports.clock,
    timers: ports.timers,
    random: ports.random,
    logger: ports.logger.child({ component: "controller" }),
    metrics: ports.metrics,
  });
  // The adapter holds back a leader change that comes before `attach` (a single voter elects
  // itself while its driver starts), so it is the Raft listener as it stands.
  const raftListener: RaftListener = adapter;
  const attach = (raft: RaftDriver): void => {
    adapter.attach({
      get leaderId() {
        return raft.status.leaderId;
      },
      get epoch() {
        return raft.status.epoch;
      },
      propose: (records) => raft.propose(records),
      createSnapshot: (request) => raft.createSnapshot(request),
    });
  };
  return { controller, raftListener, attach };
}

/**
 * The controller listener's router: ApiVersions, the Raft APIs of `raft`, and, on a node with
 * the controller role, the controller APIs of `controller`.
 */
export function controllerRouter(
  ports: NodePorts,
  raft: () => RaftDriver,
  controller: QuorumController,
): RequestRouter {
  const router = new RequestRouter({ logger: ports.logger });
  registerApiVersions(router);
  registerRaftApis(router, raft);
  for (const handler of controllerApiHandlers(controller)) router.register(handler);
  return router;
}
