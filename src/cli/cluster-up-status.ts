/**
 * What `sluice cluster up` prints once the cluster is ready, and `sluice cluster status`: each
 * node with its roles, pid, listeners, HTTP endpoint and log, and whether it is up.
 */
import { EXIT } from "./command-options.js";
import { statusOf, type NodeStatus, type ProcessControl } from "./cluster-up-nodes.js";
import {
  bootstrapServers,
  brokersOf,
  readState,
  STATE_FILE,
  type ClusterNode,
  type ClusterState,
} from "./cluster-up-plan.js";
import type { CommandOutput } from "./command-options.js";
import type { FileSystem, Network } from "../ports/index.js";

/** What printing and status read. */
export interface StatusIo extends CommandOutput {
  readonly fileSystem: FileSystem;
  readonly network: Network;
  readonly processes: ProcessControl;
}

export function printUp(io: StatusIo, state: ClusterState, folder: string): void {
  const brokers = brokersOf(state);
  const controllers = state.nodes.filter((node) => node.controllerPort !== null);
  const first = brokers[0];
  const counted = (count: number, noun: string): string =>
    `${count} ${noun}${count === 1 ? "" : "s"}`;
  const brokerCount = counted(brokers.length, "broker");
  const sizes = `${brokerCount}, ${counted(controllers.length, "controller")}`;
  io.write(`Sluice cluster up in ${folder}: ${sizes}`);
  io.write(`bootstrap servers: ${bootstrapServers(state)}`);
  if (first !== undefined) io.write(`dashboard: http://${state.host}:${first.httpPort}/`);
  for (const node of state.nodes) io.write(describeNode(state, node));
}

export async function status(io: StatusIo, folder: string): Promise<number> {
  const state = await stateOrThrow(io, folder);
  let allUp = true;
  io.write(`cluster ${state.clusterId} in ${folder}; bootstrap servers ${bootstrapServers(state)}`);
  for (const node of state.nodes) {
    const nodeStatus = await statusOf(io, state, node);
    if (nodeStatus !== "up") allUp = false;
    io.write(describeNode(state, node, nodeStatus));
  }
  return allUp ? EXIT.ok : EXIT.failed;
}

/**
 * "node 4 (broker) up, pid 123, client 127.0.0.1:4001, http 127.0.0.1:4002, log
 * DIR/node-4/sluice.log", with the status when one is given.
 */
function describeNode(state: ClusterState, node: ClusterNode, status?: NodeStatus): string {
  const parts = [
    `node ${node.nodeId} (${node.roles.join(",")})${status === undefined ? "" : ` ${status}`}`,
  ];
  if (node.pid !== null && status !== "down") parts.push(`pid ${node.pid}`);
  if (node.clientPort !== null) parts.push(`client ${state.host}:${node.clientPort}`);
  if (node.controllerPort !== null) parts.push(`controller ${state.host}:${node.controllerPort}`);
  parts.push(`http ${state.host}:${node.httpPort}`, `log ${node.logPath}`);
  return parts.join(", ");
}

export async function stateOrThrow(io: StatusIo, folder: string): Promise<ClusterState> {
  const state = await readState(io.fileSystem, folder);
  if (state === undefined) throw new Error(`no cluster in ${folder} (no ${STATE_FILE})`);
  return state;
}
