/**
 * Opening a node's Kafka listeners: the controller listeners with the controller's router, and
 * on a broker, after the controller has unfenced it, the client listeners with the request
 * path's router, followed by the broker's periodic tasks.
 */
import {
  SocketServer,
  registerSaslApis,
  type RequestRouter,
  type ScramCredential,
  type ScramMechanism,
} from "../broker/index.js";
import type { MetricsSink } from "../ports/index.js";
import type { BrokerSide } from "./node-broker.js";
import { openClientListener } from "./node-client-listener.js";
import { controllerRouter, type ControllerSide } from "./node-controller.js";
import type { NodeParts } from "./node-shutdown.js";
import { listenerOptionsOf, scramCredentialIn } from "./node-security.js";
import { socketServerConfigOf } from "./node-settings.js";
import { NodeTasks } from "./node-tasks.js";
import { NodeStartError } from "./node-types.js";

/** Serves the controller listeners (`controller.listener.names`). */
export async function listenController(
  parts: NodeParts,
  controller: ControllerSide,
): Promise<void> {
  const router = controllerRouter(
    parts.ports,
    parts.config,
    () => parts.raft,
    controller.controller,
  );
  registerSaslApis(router);
  // A SCRAM login on the controller listener is checked against the controller's own committed
  // image, as Kafka's ControllerServer does with its ScramPublisher: a broker logs in before it
  // has replayed anything, with credentials the active controller committed (at first from
  // `sluice format --add-scram`).
  const metrics = labelledMetrics(parts.ports.metrics, "controller");
  const scramCredential = (mechanism: ScramMechanism, user: string) =>
    scramCredentialIn(controller.controller.committedImage, mechanism, user);
  const server = serverFor(parts, router, metrics, scramCredential);
  parts.servers.push(server);
  for (const listener of parts.config.listeners) {
    if (!parts.config.controllerListenerNames.includes(listener.name)) continue;
    const options = await listenerOptionsOf(parts.ports.fs, parts.config, listener.name);
    const address = await server.listen(listener.name, listener, options);
    parts.bound.push({ name: listener.name, address });
  }
}

/**
 * Registers the broker with the controller, waits until it is unfenced (caught up with the
 * metadata log), then serves the client listeners and starts the periodic tasks.
 */
export async function startBrokerServing(
  parts: NodeParts,
  broker: BrokerSide,
  onFatalError: (error: unknown) => void,
): Promise<void> {
  const logManager = parts.logManager;
  if (logManager === undefined) throw new Error("a broker has a log manager");
  broker.lifecycle.onEvent((event) => {
    if (event.kind !== "offlineDirsUnreported") return;
    onFatalError(new Error(`failed log dirs ${event.dirs.join(", ")} could not be reported`));
  });
  // A broker whose id the controller assigned registered before anything else started.
  if (broker.lifecycle.state === "notRunning") broker.lifecycle.start();
  try {
    await broker.lifecycle.whenUnfenced();
  } catch (cause) {
    throw new NodeStartError(
      "the broker was not registered and unfenced by the controller quorum in time",
      { cause },
    );
  }
  const scramCredential = (mechanism: ScramMechanism, user: string) =>
    scramCredentialIn(broker.metadataCache.image, mechanism, user);
  parts.client = await openClientListener(parts, broker, (router) =>
    serverFor(parts, router, labelledMetrics(parts.ports.metrics, "client"), scramCredential),
  );
  parts.tasks = new NodeTasks({
    logManager,
    replicaManager: broker.replicaManager,
    clock: parts.ports.clock,
    timers: parts.ports.timers,
    logger: parts.ports.logger,
    replicaLagTimeMaxMs: parts.config.replicaLagTimeMaxMs,
    onFatalError,
  });
  parts.tasks.start();
}

function serverFor(
  parts: NodeParts,
  router: RequestRouter,
  metrics: MetricsSink,
  scramCredential: (mechanism: ScramMechanism, user: string) => ScramCredential | undefined,
): SocketServer {
  const { config, ports } = parts;
  const crypto = ports.crypto;
  return new SocketServer({ ...ports, metrics }, router, {
    config: socketServerConfigOf(config),
    ...(crypto === undefined
      ? {}
      : { authentication: { crypto, random: ports.random, scramCredential } }),
  });
}

/**
 * A metrics sink that adds the label `server` to every series, so that the controller and the
 * client listeners of a combined node count their connections apart.
 */
export function labelledMetrics(sink: MetricsSink, server: string): MetricsSink {
  return {
    counter: (name, help, labels = {}) => sink.counter(name, help, { ...labels, server }),
    gauge: (name, help, labels = {}) => sink.gauge(name, help, { ...labels, server }),
    histogram: (name, help, labels = {}) => sink.histogram(name, help, { ...labels, server }),
  };
}
