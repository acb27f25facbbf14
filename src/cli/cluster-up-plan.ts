/**
 * The layout of a local development cluster (`sluice cluster up`) in one folder: which nodes
 * (one combined node for one broker and one controller, as Kafka's quickstart runs; otherwise
 * controllers with ids 1..M and brokers with ids M+1..M+N, as Kafka's isolated-mode examples),
 * each node's free loopback ports, its server.properties and the state file, `cluster.json`,
 * that records the cluster id, every node's ports and files and the pid of its process.
 */
import type { FileSystem, Network } from "../ports/index.js";
import { readTextFileIfExists, writeTextFileAtomically } from "../storage/index.js";

/** The most nodes of each kind `cluster up` starts on one host. */
export const CONTROLLERS_MAX = 9;
export const BROKERS_MAX = 20;

/** The state file in the cluster's folder. */
export const STATE_FILE = "cluster.json";

const HOST = "127.0.0.1";

export type NodeRole = "broker" | "controller";

/** One node of the cluster: its roles, ports and files (absolute paths), and its process. */
export interface ClusterNode {
  readonly nodeId: number;
  readonly roles: readonly NodeRole[];
  /** The client listener's port, on a broker. */
  readonly clientPort: number | null;
  /** The controller listener's port, on a controller. */
  readonly controllerPort: number | null;
  /** `sluice.http.listener`'s port: metrics, health, dashboard. */
  readonly httpPort: number;
  readonly configPath: string;
  readonly dataDir: string;
  readonly logPath: string;
  /** The process last started for the node; null once it was stopped by `cluster down`. */
  readonly pid: number | null;
}

/** What `cluster.json` holds. */
export interface ClusterState {
  readonly clusterId: string;
  readonly host: string;
  readonly nodes: readonly ClusterNode[];
}

/** The ids and roles of the nodes for `brokers` brokers and `controllers` controllers. */
export function nodeRoles(counts: {
  readonly brokers: number;
  readonly controllers: number;
}): { readonly nodeId: number; readonly roles: readonly NodeRole[] }[] {
  if (counts.brokers === 1 && counts.controllers === 1) {
    return [{ nodeId: 1, roles: ["broker", "controller"] }];
  }
  const controllers = Array.from({ length: counts.controllers }, (_, index) => ({
    nodeId: index + 1,
    roles: ["controller"] as const,
  }));
  const brokers = Array.from({ length: counts.brokers }, (_, index) => ({
    nodeId: counts.controllers + index + 1,
    roles: ["broker"] as const,
  }));
  return [...controllers, ...brokers];
}

/**
 * The nodes of a new cluster in `folder` (an absolute path), each port one the system handed
 * out for port 0: all are bound together, so they differ, then released for the nodes to bind.
 */
export async function planNodes(
  network: Network,
  options: { readonly folder: string; readonly brokers: number; readonly controllers: number },
): Promise<ClusterNode[]> {
  const roles = nodeRoles(options);
  const wanted = roles.reduce((sum, node) => sum + node.roles.length + 1, 0);
  const listeners = [];
  try {
    for (let index = 0; index < wanted; index++) {
      listeners.push(await network.listen({ host: HOST, port: 0 }, (c) => c.destroy()));
    }
  } finally {
    await Promise.all(listeners.map((listener) => listener.close()));
  }
  const ports = listeners.map((listener) => listener.address.port);
  const take = (): number => {
    const port = ports.shift();
    if (port === undefined) throw new Error("a port was bound for every listener");
    return port;
  };
  return roles.map(({ nodeId, roles: nodeRoles }) => {
    const dir = `${options.folder}/node-${nodeId}`;
    return {
      nodeId,
      roles: nodeRoles,
      clientPort: nodeRoles.includes("broker") ? take() : null,
      controllerPort: nodeRoles.includes("controller") ? take() : null,
      httpPort: take(),
      configPath: `${dir}/server.properties`,
      dataDir: `${dir}/data`,
      logPath: `${dir}/sluice.log`,
      pid: null,
    };
  });
}

/** `host:port,...` of every broker's client listener. */
export function bootstrapServers(state: ClusterState): string {
  return brokersOf(state)
    .map((node) => `${state.host}:${node.clientPort}`)
    .join(",");
}

export function brokersOf(state: ClusterState): ClusterNode[] {
  return state.nodes.filter((node) => node.clientPort !== null);
}

/** The node's server.properties: Kafka's keys for its roles, then the operator's `--set`s. */
export function propertiesOf(
  state: ClusterState,
  node: ClusterNode,
  extra: readonly string[],
): string {
  const voters = state.nodes
    .filter((each) => each.controllerPort !== null)
    .map((each) => `${each.nodeId}@${state.host}:${each.controllerPort}`)
    .join(",");
  const brokerCount = brokersOf(state).length;
  const listeners = [
    ...(node.clientPort === null ? [] : [`PLAINTEXT://${state.host}:${node.clientPort}`]),
    ...(node.controllerPort === null ? [] : [`CONTROLLER://${state.host}:${node.controllerPort}`]),
  ];
  const lines = [
    "# Written by sluice cluster up.",
    `process.roles=${node.roles.join(",")}`,
    `node.id=${node.nodeId}`,
    `listeners=${listeners.join(",")}`,
    ...(node.clientPort === null
      ? []
      : [`advertised.listeners=PLAINTEXT://${state.host}:${node.clientPort}`]),
    "controller.listener.names=CONTROLLER",
    `controller.quorum.voters=${voters}`,
    `sluice.http.listener=${state.host}:${node.httpPort}`,
    `log.dirs=${node.dataDir}`,
    // As Kafka's development examples: the offsets topic fits the brokers there are, and a
    // group's first rebalance does not wait for more members.
    `offsets.topic.replication.factor=${Math.min(3, brokerCount)}`,
    "group.initial.rebalance.delay.ms=0",
    ...extra,
  ];
  return `${lines.join("\n")}\n`;
}

/** The state in `folder`, or undefined when it has none; throws on a file it cannot read. */
export async function readState(
  fileSystem: FileSystem,
  folder: string,
): Promise<ClusterState | undefined> {
  const path = `${folder}/${STATE_FILE}`;
  const text = await readTextFileIfExists(fileSystem, path);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON`);
  }
  if (!isClusterState(parsed)) throw new Error(`${path} does not describe a cluster`);
  return parsed;
}

export async function writeState(
  fileSystem: FileSystem,
  folder: string,
  state: ClusterState,
): Promise<void> {
  const text = `${JSON.stringify(state, null, 2)}\n`;
  await writeTextFileAtomically(fileSystem, `${folder}/${STATE_FILE}`, text);
}

function isClusterState(value: unknown): value is ClusterState {
  if (typeof value !== "object" || value === null) return false;
  const { clusterId, host, nodes } = value as Partial<Record<keyof ClusterState, unknown>>;
  if (typeof clusterId !== "string" || typeof host !== "string") return false;
  return Array.isArray(nodes) && nodes.every(isClusterNode);
}

function isClusterNode(value: unknown): value is ClusterNode {
  if (typeof value !== "object" || value === null) return false;
  const node = value as Partial<Record<keyof ClusterNode, unknown>>;
  const isPort = (port: unknown): boolean => port === null || Number.isInteger(port);
  return (
    Number.isInteger(node.nodeId) &&
    Array.isArray(node.roles) &&
    node.roles.every((role) => role === "broker" || role === "controller") &&
    isPort(node.clientPort) &&
    isPort(node.controllerPort) &&
    Number.isInteger(node.httpPort) &&
    typeof node.configPath === "string" &&
    typeof node.dataDir === "string" &&
    typeof node.logPath === "string" &&
    (node.pid === null || Number.isInteger(node.pid))
  );
}
