/**
 * The parts of a running node and their orderly stop, in Kafka's order: controlled shutdown
 * with the controller (so that leadership moves away first), the client listener, the periodic
 * tasks and the request path's purgatories, the replica manager, the log manager (checkpoints
 * and the clean-shutdown marker with the broker epoch), the controller, the metadata log (a
 * leader resigns with EndQuorumEpoch), the controller listener, HTTP. Each step runs whatever
 * happened to the one before, so one failure never leaves files open.
 */
import { AssertionError } from "../common/index.js";
import type { SocketServer } from "../broker/index.js";
import type { Address } from "../ports/index.js";
import type { RaftDriver } from "../raft/index.js";
import type { LogManager } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import type { ClientRaftTransport } from "./controller-node-raft.js";
import type { BrokerSide } from "./node-broker.js";
import type { ClientListener } from "./node-client-listener.js";
import type { ControllerSide } from "./node-controller.js";
import type { NodeTasks } from "./node-tasks.js";
import type { NodeHttpServer, NodeIdentity, NodePorts } from "./node-types.js";

/** Everything a node started, filled in as it starts; shutdown stops what is there. */
export interface NodeParts {
  readonly ports: NodePorts;
  readonly config: NodeConfig;
  readonly identity: NodeIdentity;
  readonly raft: RaftDriver;
  readonly transport: ClientRaftTransport;
  readonly controller: ControllerSide | undefined;
  readonly broker: BrokerSide | undefined;
  readonly logManager: LogManager | undefined;
  /** The controller listener's server (and the client listener's, once started). */
  readonly servers: SocketServer[];
  /** Every bound Kafka listener. */
  readonly bound: { readonly name: string; readonly address: Address }[];
  /** What a scrape of /metrics runs first, to read families off live state (node-metrics.ts). */
  readonly collectors: (() => void)[];
  client: ClientListener | undefined;
  tasks: NodeTasks | undefined;
  http: NodeHttpServer | undefined;
  isShutDown: boolean;
}

/**
 * Stops every part of `parts` in order; see the file comment. Without `isControlled` the broker
 * stops talking to the controller at once instead of asking for a controlled shutdown, which
 * waits for a controller quorum.
 */
export async function shutdownNode(
  parts: NodeParts,
  options: { readonly isControlled?: boolean } = {},
): Promise<void> {
  if (parts.isShutDown) return;
  parts.isShutDown = true;
  const { logger } = parts.ports;
  const step = async (name: string, work: () => Promise<void> | void): Promise<void> => {
    try {
      await work();
    } catch (error) {
      if (error instanceof AssertionError) throw error;
      logger.error("shutdown step failed", { step: name, error: String(error) });
    }
  };
  const broker = parts.broker;
  if (broker !== undefined && options.isControlled === false) {
    await step("broker lifecycle", () => broker.lifecycle.close());
  } else if (broker !== undefined) {
    await step("controlled shutdown", async () => {
      const outcome = await broker.lifecycle.beginControlledShutdown();
      logger.info("controlled shutdown ended", { outcome });
    });
  }
  await step("client listener", () => parts.client?.close());
  await step("periodic tasks", () => parts.tasks?.stop());
  if (broker !== undefined) {
    await step("replica manager", () => broker.replicaManager.shutdown());
    await step("broker channel", () => broker.close());
  }
  const brokerEpoch = broker?.lifecycle.registration?.brokerEpoch ?? -1;
  await step("log manager", () => parts.logManager?.shutdown(brokerEpoch));
  await step("controller", () => parts.controller?.controller.stop());
  await step("metadata log", () => parts.raft.shutdown());
  await step("raft transport", () => parts.transport.close());
  for (const server of parts.servers) await step("listener", () => server.close());
  await step("http", () => parts.http?.close());
  logger.info("node stopped", { nodeId: parts.identity.nodeId });
}
