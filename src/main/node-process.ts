/**
 * `sluice start` for every role: loads the configuration (file or single-node preset, then
 * SLUICE_* environment variables, then --set flags), builds the Node adapters, starts the node,
 * prints where it listens, and shuts it down cleanly on SIGINT or SIGTERM. A failure the node
 * cannot survive (the metadata log's disk) stops it with exit code 1.
 */
import {
  ConsoleLogger,
  CryptoRandom,
  NodeCrypto,
  EventLoopDelay,
  GC_BUCKETS,
  ProcessMetrics,
  NodeFileSystem,
  NodeNetwork,
  NodeTimers,
  PrometheusRegistry,
  SystemClock,
  readOpenFileLimit,
} from "../adapters/index.js";
import { AssertionError } from "../common/index.js";
import { formatProblem } from "./config/config-types.js";
import { loadNodeConfigFrom } from "./config/load-config.driver.js";
import type { NodeConfig } from "./config/node-config.js";
import type { StartOutput, StartRequest } from "./controller-node-process.js";
import { startNode, type RunningNode } from "./node.js";
import { loggerOptionsOf } from "./node-settings.js";
import { bindHttp, serveHttp } from "./node-http.js";
import { NodeStartError, type NodePorts } from "./node-types.js";

/** The longest delay a Node timer takes (2^31 - 1 ms); the keep-alive timer never fires. */
const START_KEEP_ALIVE_MS = 2_147_483_647;

/** Runs a node until a signal stops it; resolves to the process exit code. */
export async function runNodeProcess(request: StartRequest, io: StartOutput): Promise<number> {
  const fs = new NodeFileSystem();
  const loaded = await loadNodeConfigFrom(fs, request);
  if (loaded.kind === "unreadable") {
    io.error(`sluice: ${loaded.message}`);
    return 1;
  }
  if (loaded.kind === "invalid") {
    for (const problem of loaded.problems) io.error(`sluice: ${formatProblem(problem)}`);
    return 1;
  }
  const config = loaded.config;
  const { ports, registry, monitors } = processPorts(fs, config);
  const { logger } = ports;
  let stop: (code: number) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => (stop = resolve));
  const onFatalError = (error: unknown): void => {
    logger.error("fatal error: the node stops", { error: String(error) });
    // A broken invariant ends the process at once (STYLE rule 3), outside any promise.
    if (error instanceof AssertionError)
      queueMicrotask(() => {
        throw error;
      });
    stop(1);
  };
  let node: RunningNode;
  // The node's timers do not hold the process open, and before its listeners are bound nothing
  // else may (a broker waiting between registration attempts for its assigned id), so a
  // referenced timer keeps the process alive until the start ends.
  const keepAlive = new NodeTimers({ unref: false }).schedule(START_KEEP_ALIVE_MS, () => undefined);
  try {
    node = await startWithHttp(ports, { request, config, registry, onFatalError });
  } catch (error) {
    monitors.stop();
    if (!(error instanceof NodeStartError)) throw error;
    io.error(`sluice: ${error.message}`);
    return 1;
  } finally {
    keepAlive.cancel();
  }
  io.write(listeningLine(config, node));
  const onSignal = (): void => stop(0);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const code = await stopped;
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  await node.shutdown();
  monitors.stop();
  io.write(`Sluice node ${node.identity.nodeId} stopped`);
  return code;
}

/**
 * The Node adapters a node process runs on, its metrics registry and its monitors (the event
 * loop's delay, the process's own metrics), which `stop` ends.
 */
function processPorts(fs: NodeFileSystem, config: NodeConfig) {
  const clock = new SystemClock();
  const registry = new PrometheusRegistry({
    bucketsByName: { nodejs_gc_duration_seconds: GC_BUCKETS },
  });
  const eventLoopDelay = new EventLoopDelay(registry);
  const processMetrics = new ProcessMetrics(registry);
  registry.addCollector(() => eventLoopDelay.update());
  registry.addCollector(() => processMetrics.update());
  const logger = new ConsoleLogger({
    ...loggerOptionsOf(config),
    clock,
    fields: { nodeId: config.nodeId ?? -1 },
  });
  const ports = {
    ...{ fs, clock, logger, network: new NodeNetwork(), timers: new NodeTimers() },
    ...{ random: new CryptoRandom(), metrics: registry, openFileLimit: readOpenFileLimit() },
    crypto: new NodeCrypto(),
  };
  const monitors = {
    stop: (): void => {
      eventLoopDelay.stop();
      processMetrics.stop();
    },
  };
  return { ports, registry, monitors };
}

/**
 * Binds the HTTP endpoint first, then starts the node, which gives it its routes once it runs;
 * a start that fails closes it.
 */
async function startWithHttp(
  ports: NodePorts,
  context: {
    readonly request: StartRequest;
    readonly config: NodeConfig;
    readonly registry: PrometheusRegistry;
    readonly onFatalError: (error: unknown) => void;
  },
): Promise<RunningNode> {
  const { request, config, registry } = context;
  const http = await bindHttp(config, ports.logger.child({ component: "http" }));
  try {
    return await startNode(ports, {
      config,
      format: {
        clusterIdToFormat: request.clusterIdToFormat,
        formatsOnFirstStart: request.configPath === undefined,
      },
      http: async (state) => {
        serveHttp(http, state, { registry });
        return http;
      },
      onFatalError: context.onFatalError,
    });
  } catch (error) {
    await http.close();
    throw error;
  }
}

/**
 * "Sluice listening on PLAINTEXT://127.0.0.1:9092 (controller 127.0.0.1:9093, http
 * 127.0.0.1:9644), data in ./data", with the ports actually bound.
 */
export function listeningLine(config: NodeConfig, node: RunningNode): string {
  const isController = (name: string): boolean => config.controllerListenerNames.includes(name);
  const text = (address: { host: string; port: number }): string =>
    `${address.host}:${address.port}`;
  const clients = node.listeners
    .filter((listener) => !isController(listener.name))
    .map((listener) => `${listener.name}://${text(listener.address)}`);
  const controllers = node.listeners
    .filter((listener) => isController(listener.name))
    .map((listener) => `controller ${text(listener.address)}`);
  const http = node.httpAddress === undefined ? [] : [`http ${text(node.httpAddress)}`];
  const details = [...controllers, ...http].join(", ");
  const where = clients.length > 0 ? clients.join(", ") : `node ${node.identity.nodeId}`;
  return `Sluice listening on ${where} (${details}), data in ${config.log.logDirs.join(",")}`;
}
