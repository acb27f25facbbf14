/**
 * `sluice cluster up | down | status [--dir DIR]`: a local cluster for development, every node
 * a detached `sluice start` process with its files in DIR (./cluster by default). `up` formats
 * each node's dirs with one new cluster id, starts the nodes on free loopback ports, records
 * them in DIR/cluster.json and waits until every broker is registered and unfenced, then prints
 * the bootstrap servers and the dashboard; on a folder whose cluster is down it starts the same
 * nodes again. `down` stops the nodes (brokers first, SIGTERM, then SIGKILL past the timeout);
 * `status` prints each node up or down and exits 1 unless all are up.
 */
import type { Clock, FileSystem, Network, Random, Timers } from "../ports/index.js";
import { EXIT, parseCommandOptions, type CommandOutput } from "./command-options.js";
import { format } from "./format.js";
import {
  awaitReady,
  isNodeRunning,
  stopNodes,
  type NodeWatchIo,
  type ProcessControl,
} from "./cluster-up-nodes.js";
import {
  brokersOf,
  BROKERS_MAX,
  CONTROLLERS_MAX,
  planNodes,
  propertiesOf,
  readState,
  STATE_FILE,
  writeState,
  type ClusterState,
} from "./cluster-up-plan.js";
import { newRandomUuid } from "./random-uuid.js";
import { printUp, stateOrThrow, status } from "./cluster-up-status.js";
import { uuidToBase64 } from "../common/index.js";
import { readTextFileIfExists, writeTextFileAtomically } from "../storage/index.js";

export const CLUSTER_USAGES = [
  "usage: sluice cluster up [--brokers N] [--controllers N] [--dir DIR] [--set KEY=VALUE]..." +
    " [--timeout-ms MS]",
  "usage: sluice cluster down [--dir DIR] [--timeout-ms MS]",
  "usage: sluice cluster status [--dir DIR]",
];

/** The `cluster` subcommands this file runs; `cluster health` asks a running cluster. */
export const LOCAL_CLUSTER_SUBCOMMANDS: readonly string[] = ["up", "down", "status"];

const DEFAULT_DIR = "./cluster";
const UP_TIMEOUT_MS = 60_000;
const DOWN_TIMEOUT_MS = 30_000;
/** How many of its last log lines are shown for a node that exited during `up`. */
const LOG_LINES_SHOWN = 5;

export interface ClusterIo extends CommandOutput, NodeWatchIo {
  readonly fileSystem: FileSystem;
  readonly network: Network;
  readonly timers: Timers;
  readonly clock: Clock;
  readonly random: Random;
  readonly processes: ProcessControl;
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** The `sluice` script each node runs (`node SCRIPT start --config FILE`). */
  readonly sluiceScript: string;
  /** The folder relative paths are taken from. */
  readonly workingDir: string;
}

/** Runs `sluice cluster ...` with the arguments after `cluster`. */
export async function clusterCommand(args: readonly string[], io: ClusterIo): Promise<number> {
  const [subcommand, ...rest] = args;
  const parsed = parseCommandOptions(rest, {
    booleans: [],
    values: ["--dir", "--brokers", "--controllers", "--timeout-ms"],
    repeatable: ["--set"],
  });
  const usage = (): number => {
    for (const line of CLUSTER_USAGES) io.error(line);
    return EXIT.usage;
  };
  if (parsed.kind === "usage") {
    io.error(parsed.message);
    return usage();
  }
  if (parsed.positionals.length > 0) return usage();
  const folder = absolute(io.workingDir, parsed.values.get("--dir") ?? DEFAULT_DIR);
  const timeout = countOption(io, "--timeout-ms", parsed.values, { min: 1, max: 3_600_000 });
  if (timeout === "bad") return usage();
  try {
    switch (subcommand) {
      case "up": {
        const brokers = countOption(io, "--brokers", parsed.values, { min: 1, max: BROKERS_MAX });
        const controllers = countOption(io, "--controllers", parsed.values, {
          min: 1,
          max: CONTROLLERS_MAX,
        });
        if (brokers === "bad" || controllers === "bad") return usage();
        const extra = parsed.repeated.get("--set") ?? [];
        const counts = { brokers, controllers };
        return await up(io, { folder, counts, extra, timeoutMs: timeout ?? UP_TIMEOUT_MS });
      }
      case "down":
        return await down(io, folder, timeout ?? DOWN_TIMEOUT_MS);
      case "status":
        return await status(io, folder);
      default:
        return usage();
    }
  } catch (error) {
    io.error(`sluice cluster: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
}

interface UpRequest {
  readonly folder: string;
  readonly counts: {
    readonly brokers: number | undefined;
    readonly controllers: number | undefined;
  };
  readonly extra: readonly string[];
  readonly timeoutMs: number;
}

async function up(io: ClusterIo, request: UpRequest): Promise<number> {
  const { folder } = request;
  const existing = await readState(io.fileSystem, folder);
  let state: ClusterState;
  if (existing === undefined) {
    state = await createCluster(io, request);
  } else {
    const running = existing.nodes.filter((node) => isNodeRunning(io.processes, node));
    if (running.length > 0) {
      const ids = running.map((node) => node.nodeId).join(", ");
      throw new Error(`${folder} has nodes running (${ids}): run sluice cluster down first`);
    }
    if (!matchesCounts(existing, request.counts)) {
      throw new Error(
        `${folder} holds a cluster of another size: remove it or choose another --dir`,
      );
    }
    state = existing;
    io.write(`Starting the cluster in ${folder} again (cluster id ${state.clusterId})`);
  }
  state = await startNodes(io, state, folder);
  const outcome = await awaitReady(io, state, request.timeoutMs);
  if (outcome.kind !== "ready") {
    await stopNodes(io, state.nodes, DOWN_TIMEOUT_MS);
    await writeState(io.fileSystem, folder, withoutPids(state));
    if (outcome.kind === "exited") {
      // The node's last words say why (a port in use, a refused dir).
      const log = (await readTextFileIfExists(io.fileSystem, outcome.node.logPath)) ?? "";
      for (const line of log.trimEnd().split("\n").slice(-LOG_LINES_SHOWN)) io.error(line);
    }
    const why =
      outcome.kind === "exited"
        ? `node ${outcome.node.nodeId} exited; its log is ${outcome.node.logPath}`
        : `brokers ${outcome.missing.join(", ")} were not unfenced within ${request.timeoutMs} ms`;
    throw new Error(`the cluster did not start: ${why}; every node was stopped`);
  }
  printUp(io, state, folder);
  return EXIT.ok;
}

/** Plans, configures and formats the nodes of a new cluster in `folder`. */
async function createCluster(io: ClusterIo, request: UpRequest): Promise<ClusterState> {
  const { folder } = request;
  const entries = await readdirIfExists(io.fileSystem, folder);
  if (entries.length > 0) {
    throw new Error(`${folder} is not empty and has no ${STATE_FILE}: choose another --dir`);
  }
  const brokers = request.counts.brokers ?? 1;
  const controllers = request.counts.controllers ?? 1;
  const nodes = await planNodes(io.network, { folder, brokers, controllers });
  const state: ClusterState = {
    clusterId: uuidToBase64(newRandomUuid(io.random)),
    host: "127.0.0.1",
    nodes,
  };
  for (const node of nodes) {
    await io.fileSystem.mkdir(node.dataDir, { recursive: true });
    const text = propertiesOf(state, node, request.extra);
    await writeTextFileAtomically(io.fileSystem, node.configPath, text);
    const formatOutput: string[] = [];
    const args = ["--config", node.configPath, "--cluster-id", state.clusterId];
    const code = await format(args, {
      ...io,
      write: () => undefined,
      error: (line) => formatOutput.push(line),
    });
    if (code !== EXIT.ok) {
      const problem = formatOutput.join("; ");
      throw new Error(`formatting node ${node.nodeId}: ${problem}; remove ${folder} and retry`);
    }
  }
  await writeState(io.fileSystem, folder, state);
  return state;
}

/** Starts every node (controllers first) and records the pids. */
async function startNodes(
  io: ClusterIo,
  state: ClusterState,
  folder: string,
): Promise<ClusterState> {
  const ordered = [
    ...state.nodes.filter((node) => node.controllerPort !== null),
    ...state.nodes.filter((node) => node.controllerPort === null),
  ];
  const pids = new Map<number, number>();
  for (const node of ordered) {
    const pid = await io.processes.startDetached({
      args: [io.sluiceScript, "start", "--config", node.configPath],
      cwd: folder,
      logPath: node.logPath,
    });
    pids.set(node.nodeId, pid);
    // Recorded as each starts, so that `down` finds every node even if `up` is interrupted.
    const started = state.nodes.map((each) => ({
      ...each,
      pid: pids.get(each.nodeId) ?? each.pid,
    }));
    await writeState(io.fileSystem, folder, { ...state, nodes: started });
  }
  return {
    ...state,
    nodes: state.nodes.map((node) => ({ ...node, pid: pids.get(node.nodeId) ?? null })),
  };
}

async function down(io: ClusterIo, folder: string, timeoutMs: number): Promise<number> {
  const state = await stateOrThrow(io, folder);
  // Brokers first, so that their controlled shutdown still finds the controllers.
  const brokers = brokersOf(state);
  const controllersOnly = state.nodes.filter((node) => node.clientPort === null);
  const killed = [
    ...(await stopNodes(io, brokers, timeoutMs)),
    ...(await stopNodes(io, controllersOnly, timeoutMs)),
  ];
  await writeState(io.fileSystem, folder, withoutPids(state));
  for (const nodeId of killed)
    io.error(`node ${nodeId} did not stop within ${timeoutMs} ms: killed`);
  io.write(`Sluice cluster in ${folder} stopped`);
  return EXIT.ok;
}

function withoutPids(state: ClusterState): ClusterState {
  return { ...state, nodes: state.nodes.map((node) => ({ ...node, pid: null })) };
}

function matchesCounts(state: ClusterState, counts: UpRequest["counts"]): boolean {
  const brokers = brokersOf(state).length;
  const controllers = state.nodes.filter((node) => node.controllerPort !== null).length;
  return (
    (counts.brokers === undefined || counts.brokers === brokers) &&
    (counts.controllers === undefined || counts.controllers === controllers)
  );
}

async function readdirIfExists(fileSystem: FileSystem, folder: string): Promise<string[]> {
  const stat = await fileSystem.stat(folder);
  if (stat === undefined) return [];
  if (!stat.isDirectory) throw new Error(`${folder} is not a folder`);
  return fileSystem.readdir(folder);
}

/** A whole number option within bounds; undefined when not given, "bad" when out of them. */
function countOption(
  io: CommandOutput,
  name: string,
  values: ReadonlyMap<string, string>,
  bounds: { readonly min: number; readonly max: number },
): number | undefined | "bad" {
  const text = values.get(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (/^\d+$/.test(text) && value >= bounds.min && value <= bounds.max) return value;
  io.error(`${name} must be a whole number from ${bounds.min} to ${bounds.max}, not ${text}`);
  return "bad";
}

function absolute(workingDir: string, path: string): string {
  const joined = path.startsWith("/") ? path : `${workingDir}/${path}`;
  // "./cluster" reads as DIR/cluster, and a trailing slash is dropped.
  return joined.replace(/\/\.\//g, "/").replace(/\/+$/, "") || "/";
}
