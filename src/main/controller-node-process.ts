/**
 * `sluice start` for a node with `process.roles=controller`: loads the configuration, builds
 * the Node adapters, starts the controller node, prints where it listens, and shuts down
 * cleanly on SIGINT or SIGTERM. An I/O failure of the metadata log ends the process with a
 * failure code, as Kafka halts a controller whose metadata log failed.
 */
import {
  ConsoleLogger,
  CryptoRandom,
  NodeCrypto,
  NodeFileSystem,
  NodeNetwork,
  NodeTimers,
  SystemClock,
} from "../adapters/index.js";
import type { Counter, Gauge, Histogram, MetricsSink } from "../ports/index.js";
import { formatProblem } from "./config/config-types.js";
import { loadNodeConfigFrom } from "./config/load-config.driver.js";
import { ControllerStartError, startControllerNode } from "./controller-node.js";
import { loggerOptionsOf } from "./node-settings.js";

/** What `sluice start` was given. */
export interface StartRequest {
  readonly configPath: string | undefined;
  readonly flags: readonly string[];
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** `--cluster-id`: formats an unformatted metadata log dir with it. */
  readonly clusterIdToFormat: string | undefined;
}

export interface StartOutput {
  readonly write: (line: string) => void;
  readonly error: (line: string) => void;
}

/** Metrics go nowhere until the HTTP exporter exists. */
const DISCARDED_METRICS: MetricsSink = {
  counter: (): Counter => ({ inc: () => undefined }),
  gauge: (): Gauge => ({ set: () => undefined }),
  histogram: (): Histogram => ({ observe: () => undefined }),
};

/**
 * Runs a controller-only node until a signal stops it; resolves to the exit code, or to
 * "notController" when the configuration gives the node other roles.
 */
export async function runControllerProcess(
  request: StartRequest,
  io: StartOutput,
): Promise<number | "notController"> {
  const fs = new NodeFileSystem();
  const loaded = await loadNodeConfigFrom(fs, request);
  if (loaded.kind === "unreadable") {
    io.error(loaded.message);
    return 1;
  }
  if (loaded.kind === "invalid") {
    for (const problem of loaded.problems) io.error(formatProblem(problem));
    return 1;
  }
  const config = loaded.config;
  if (config.processRoles.join(",") !== "controller") return "notController";
  const clock = new SystemClock();
  const logger = new ConsoleLogger({
    ...loggerOptionsOf(config),
    clock,
    fields: { nodeId: config.nodeId },
  });
  let fatal: (code: number) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => (fatal = resolve));
  const ports = {
    fs,
    clock,
    logger,
    network: new NodeNetwork(),
    timers: new NodeTimers(),
    random: new CryptoRandom(),
    crypto: new NodeCrypto(),
    metrics: DISCARDED_METRICS,
  };
  let node;
  try {
    node = await startControllerNode(ports, {
      config,
      ...(request.clusterIdToFormat === undefined
        ? {}
        : { clusterIdToFormat: request.clusterIdToFormat }),
      onFatalError: () => fatal(1),
    });
  } catch (error) {
    if (!(error instanceof ControllerStartError)) throw error;
    io.error(`sluice: ${error.message}`);
    return 1;
  }
  for (const { name, address } of node.listeners) {
    io.write(
      `Sluice controller ${node.nodeId} listening on ${name}://${address.host}:${address.port}`,
    );
  }
  const onSignal = (): void => fatal(0);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const code = await stopped;
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  await node.shutdown();
  io.write(`Sluice controller ${node.nodeId} stopped`);
  return code;
}
