/**
 * The controller side of a node (Kafka's ControllerServer): the quorum controller fed by the
 * metadata log through a RaftDriverAdapter, and the controller listener's router serving
 * ApiVersions, the Raft APIs and the controller APIs.
 */
import { registerApiVersions, RequestRouter, type ApiHandler } from "../broker/index.js";
import { QuorumController, RaftDriverAdapter, controllerApiHandlers } from "../controller/index.js";
import type { LeaderChange, RaftDriver, RaftListener } from "../raft/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { registerRaftApis } from "./controller-node-raft.js";
import { controllerSettingsOf } from "./node-settings.js";
import type { NodeIdentity, NodePorts } from "./node-types.js";

/** The quorum controller and the Raft listener that feeds it; the driver is attached later. */
export interface ControllerSide {
  readonly controller: QuorumController;
  /**
   * Passed to the RaftDriver as a listener before it starts; it holds back leader changes
   * until `attach`, then delivers the latest.
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
  // A single voter elects itself while the driver starts, before `attach`. Told then, the
  // controller would propose its activation to a driver it cannot reach yet, be refused as
  // notLeader, and activate only on its next tick; so the change waits for `attach`.
  let isAttached = false;
  let heldLeaderChange: LeaderChange | undefined;
  const raftListener: RaftListener = {
    handleCommit: (batch) => adapter.handleCommit(batch),
    handleLoadSnapshot: (snapshot) => adapter.handleLoadSnapshot(snapshot),
    handleLeaderChange: (change) => {
      if (isAttached) adapter.handleLeaderChange(change);
      else heldLeaderChange = change;
    },
  };
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
    isAttached = true;
    if (heldLeaderChange !== undefined) adapter.handleLeaderChange(heldLeaderChange);
    heldLeaderChange = undefined;
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
  for (const handler of controllerApiHandlers(controller)) {
    router.register(handler.apiKey, handler satisfies ApiHandler);
  }
  return router;
}
