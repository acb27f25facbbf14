/**
 * The processes of a local cluster: waiting until every broker is registered and unfenced (each
 * broker's Metadata, which lists only unfenced brokers, names all of them), telling whether a
 * node is up, and stopping nodes with SIGTERM and a deadline.
 */
import { withConnection, type ClientPorts } from "../client/index.js";
import type { Clock, Network, Timers } from "../ports/index.js";
import { metadata } from "../protocol/index.js";
import { brokersOf, type ClusterNode, type ClusterState } from "./cluster-up-plan.js";

/** How `cluster` reaches the node processes (NodeProcesses in src/adapters). */
export interface ProcessControl {
  startDetached(options: {
    readonly args: readonly string[];
    readonly cwd: string;
    readonly logPath: string;
  }): Promise<number>;
  /**
   * True while process `pid` runs and, where its command line can be read, names `argument`
   * (so that a pid the system reused for another program is not taken for the node).
   */
  isRunning(pid: number, argument: string): boolean;
  signal(pid: number, signal: "SIGTERM" | "SIGKILL"): boolean;
}

export interface NodeWatchIo extends ClientPorts {
  readonly processes: ProcessControl;
}

/** The pause between two looks at the nodes while waiting for them. */
const POLL_INTERVAL_MS = 200;
/** How long one Metadata request of the readiness check may take. */
const REQUEST_TIMEOUT_MS = 2_000;

/** Why the cluster did not become ready: a node whose process ended, or the deadline. */
export type ReadyOutcome =
  | { readonly kind: "ready" }
  | { readonly kind: "exited"; readonly node: ClusterNode }
  | { readonly kind: "timeout"; readonly missing: readonly number[] };

/**
 * Waits until every broker's Metadata lists every broker (each is registered and unfenced), or
 * a node's process ends, or `timeoutMs` passes.
 */
export async function awaitReady(
  io: NodeWatchIo,
  state: ClusterState,
  timeoutMs: number,
): Promise<ReadyOutcome> {
  const deadlineMs = io.clock.monotonicMs() + timeoutMs;
  const brokerIds = brokersOf(state).map((node) => node.nodeId);
  let missing: readonly number[] = brokerIds;
  for (;;) {
    const exited = state.nodes.find((node) => !isNodeRunning(io.processes, node));
    if (exited !== undefined) return { kind: "exited", node: exited };
    const views = await Promise.all(
      brokersOf(state).map((node) => unfencedSeenBy(io, state, node)),
    );
    missing = brokerIds.filter((id) => views.some((seen) => !seen.includes(id)));
    if (missing.length === 0) return { kind: "ready" };
    if (io.clock.monotonicMs() >= deadlineMs) return { kind: "timeout", missing };
    await pause(io.timers, POLL_INTERVAL_MS);
  }
}

/** The broker ids `node`'s Metadata lists (only unfenced ones); none while it does not answer. */
async function unfencedSeenBy(
  io: ClientPorts,
  state: ClusterState,
  node: ClusterNode,
): Promise<readonly number[]> {
  if (node.clientPort === null) return [];
  const result = await withConnection(
    { host: state.host, port: node.clientPort },
    io,
    (connection) =>
      connection.send(metadata, { topics: [], allowAutoTopicCreation: false }, { maxVersion: 12 }),
    { requestTimeoutMs: REQUEST_TIMEOUT_MS, clientId: "sluice-cluster-up" },
  );
  return result.kind === "response" ? result.body.brokers.map((broker) => broker.nodeId) : [];
}

/** True while the node's recorded process runs `sluice start --config` of its file. */
export function isNodeRunning(processes: ProcessControl, node: ClusterNode): boolean {
  return node.pid !== null && processes.isRunning(node.pid, node.configPath);
}

/** How a node is doing: its process runs and its HTTP port accepts, or not. */
export type NodeStatus = "up" | "down" | "not answering";

export async function statusOf(
  io: { readonly processes: ProcessControl; readonly network: Network },
  state: ClusterState,
  node: ClusterNode,
): Promise<NodeStatus> {
  if (!isNodeRunning(io.processes, node)) return "down";
  // A node binds its HTTP port before anything else, so a process there that does not accept
  // is not the node (an id reused) or is stuck.
  try {
    const connection = await io.network.connect({ host: state.host, port: node.httpPort });
    connection.destroy();
    return "up";
  } catch {
    return "not answering";
  }
}

/**
 * Sends SIGTERM to every node of `nodes` that runs and waits for them to end; past
 * `timeoutMs` it sends SIGKILL. Resolves to the ids of the nodes that had to be killed.
 */
export async function stopNodes(
  io: { readonly processes: ProcessControl; readonly clock: Clock; readonly timers: Timers },
  nodes: readonly ClusterNode[],
  timeoutMs: number,
): Promise<readonly number[]> {
  const running = nodes.filter((node) => isNodeRunning(io.processes, node));
  for (const node of running) if (node.pid !== null) io.processes.signal(node.pid, "SIGTERM");
  const deadlineMs = io.clock.monotonicMs() + timeoutMs;
  const stillRunning = (): ClusterNode[] =>
    running.filter((node) => isNodeRunning(io.processes, node));
  while (stillRunning().length > 0 && io.clock.monotonicMs() < deadlineMs) {
    await pause(io.timers, POLL_INTERVAL_MS);
  }
  const killed = stillRunning();
  for (const node of killed) if (node.pid !== null) io.processes.signal(node.pid, "SIGKILL");
  return killed.map((node) => node.nodeId);
}

function pause(timers: Timers, delayMs: number): Promise<void> {
  return new Promise((resolve) => timers.schedule(delayMs, resolve));
}
