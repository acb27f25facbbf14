/**
 * Whole Sluice nodes under simulation: each node is built by `startNode`, the composition root
 * `sluice start` runs, from a configuration loaded as a properties file would be, on the
 * simulator's ports (its SimNode's clock, timers and random stream, its own SimFileSystem, the
 * SimNetwork). Real sockets, files and time are the only difference from production.
 */
import {
  startNode,
  loadNodeConfig,
  type NodeConfig,
  type RunningNode,
} from "../../src/main/index.js";
import { AssertionError } from "../../src/common/index.js";
import { bootstrapRecords, ELIGIBLE_LEADER_REPLICAS_FEATURE } from "../../src/controller/index.js";
import type { Address } from "../../src/ports/index.js";
import { encodeMetadataRecord } from "../../src/protocol/index.js";
import { writeBootstrapMetadata } from "../../src/raft/index.js";
import { keepAllWritten } from "../fs/crash.js";
import { MemoryMetricsSink } from "../memory-metrics.js";
import type { SimNode } from "../node.js";
import { TraceLogger } from "../cluster/trace-logger.js";
import type { SimWorld } from "../world.js";

/** The cluster id every simulated node is formatted with. */
export const SIM_CLUSTER_ID = "c2x1aWNlLXNpbS0wMDAwMA";

/** How long a supervisor (systemd's Restart=) waits before it starts an exited node again. */
const SUPERVISOR_RESTART_MS = 1000;

/** The client and controller ports of every simulated node (each node is its own host). */
export const CLIENT_PORT = 9092;
export const CONTROLLER_PORT = 9093;

export function hostOf(nodeId: number): string {
  return `n${nodeId}`;
}

/** The properties of combined node `nodeId` of a cluster whose voters are `voterIds`. */
export function combinedNodeSettings(
  nodeId: number,
  voterIds: readonly number[],
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const host = hostOf(nodeId);
  return {
    "process.roles": "broker,controller",
    "node.id": String(nodeId),
    listeners: `PLAINTEXT://${host}:${CLIENT_PORT},CONTROLLER://${host}:${CONTROLLER_PORT}`,
    "advertised.listeners": `PLAINTEXT://${host}:${CLIENT_PORT}`,
    "controller.listener.names": "CONTROLLER",
    "controller.quorum.voters": voterIds
      .map((id) => `${id}@${hostOf(id)}:${CONTROLLER_PORT}`)
      .join(","),
    "log.dirs": "/data/logs",
    "metadata.log.dir": "/data/metadata",
    ...extra,
  };
}

/** The properties of controller-only node `nodeId` of a quorum of `voterIds`. */
export function controllerNodeSettings(
  nodeId: number,
  voterIds: readonly number[],
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const host = hostOf(nodeId);
  const settings: Record<string, string> = {
    ...combinedNodeSettings(nodeId, voterIds, extra),
    "process.roles": "controller",
    listeners: `CONTROLLER://${host}:${CONTROLLER_PORT}`,
  };
  delete settings["advertised.listeners"];
  return settings;
}

/** The properties of broker-only node `nodeId` of a cluster whose voters are `voterIds`. */
export function brokerNodeSettings(
  nodeId: number,
  voterIds: readonly number[],
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const host = hostOf(nodeId);
  return {
    ...combinedNodeSettings(nodeId, voterIds, extra),
    "process.roles": "broker",
    listeners: `PLAINTEXT://${host}:${CLIENT_PORT}`,
  };
}

/** The NodeConfig of `settings`, as `sluice start --config` would load it. */
export function simNodeConfig(settings: Readonly<Record<string, string>>): NodeConfig {
  const text = Object.entries(settings)
    .map(([key, value]) => `${key}=${value}`)
    .join("\n");
  const loaded = loadNodeConfig({ base: { kind: "file", path: "sim.properties", text } });
  if (loaded.kind !== "valid") {
    throw new Error(`simulated node settings refused: ${JSON.stringify(loaded)}`);
  }
  return loaded.config;
}

/** One simulated node: its machine, its settings, and the running node while it is up. */
export class SimulatedNode {
  running: RunningNode | undefined;
  readonly metrics = new MemoryMetricsSink();
  fatalError: unknown = undefined;
  /** The first assertion the node broke, if any: a bug, whatever the faults. */
  brokenAssertion: AssertionError | undefined = undefined;

  constructor(
    readonly nodeId: number,
    readonly machine: SimNode,
    private readonly world: SimWorld,
    readonly settings: Readonly<Record<string, string>>,
  ) {}

  get clientAddress(): Address {
    return { host: hostOf(this.nodeId), port: CLIENT_PORT };
  }

  /**
   * Writes the bootstrap file `sluice format --feature eligible.leader.replicas.version=1`
   * writes, before the node's first start, so that the cluster runs with eligible leader
   * replicas (KIP-966).
   */
  async formatWithElr(): Promise<void> {
    const config = simNodeConfig(this.settings);
    const records = bootstrapRecords({
      features: [{ name: ELIGIBLE_LEADER_REPLICAS_FEATURE, level: 1 }],
    });
    const disk = this.world.disk(this.machine.name);
    await disk.mkdir(config.log.metadataLogDir, { recursive: true });
    await writeBootstrapMetadata(disk, {
      metadataLogDir: config.log.metadataLogDir,
      records: records.map((record) => encodeMetadataRecord(record)),
      timestamp: this.machine.clock.nowMs(),
    });
  }

  /** Starts the node with the production composition root; formats its dirs on first start. */
  async start(): Promise<RunningNode> {
    const name = this.machine.name;
    const ports = {
      fs: this.world.disk(name),
      network: this.world.network.forNode(name),
      clock: this.machine.clock,
      timers: this.machine.timers,
      random: this.machine.random,
      logger: new TraceLogger(this.world.scheduler, name),
      metrics: this.metrics,
    };
    const running = await startNode(ports, {
      config: simNodeConfig(this.settings),
      format: { clusterIdToFormat: SIM_CLUSTER_ID, formatsOnFirstStart: false },
      // The process exits, as `sluice start` does on a fatal error, and its supervisor starts it
      // again a second later. A broken assertion is a bug of the node, which the run reports.
      onFatalError: (error) => {
        this.fatalError = error;
        if (error instanceof AssertionError) this.brokenAssertion ??= error;
        this.world.scheduler.schedule(0, () => this.exit(), { label: "fatal error" });
      },
    });
    this.running = running;
    return running;
  }

  /** Starts a node whose machine is down again (after a crash, a kill or an exit). */
  restart(): void {
    if (this.machine.isUp) return;
    this.machine.restart();
    void this.start().catch((error: unknown) => {
      this.fatalError = error;
      if (error instanceof AssertionError) this.brokenAssertion ??= error;
    });
  }

  private exit(): void {
    if (!this.machine.isUp) return;
    this.world.disk(this.machine.name).crashOptions = keepAllWritten;
    this.machine.crash();
    this.running = undefined;
    this.world.scheduler.schedule(SUPERVISOR_RESTART_MS, () => this.restart(), {
      label: "supervisor restart",
    });
  }
}
