/**
 * One node of the embedded cluster across its stops and starts: its place (ports and dirs), its
 * configuration, its disk, and the running node while it is up. Its storage is formatted by its
 * first start; later starts find it formatted. A failure the node cannot survive stops it, as
 * `sluice start` would exit, and is kept for the test to see.
 *
 * States: stopped → starting → running → stopping → stopped; a failed start ends stopped.
 */
import type { FileSystem } from "../../ports/index.js";
import type { NodeConfig } from "../config/node-config.js";
import { startNode, type RunningNode } from "../node.js";
import type { NodePorts } from "../node-types.js";
import {
  nodeConfigOf,
  nodeSettings,
  type ClusterOptions,
  type NodePlace,
} from "./cluster-settings.js";
import { FailingFileSystem } from "./failing-file-system.js";
import type { ClusterNodeInfo } from "./cluster.js";

export class ClusterMember {
  private readonly config: NodeConfig;
  private readonly fs: FailingFileSystem;
  private running: RunningNode | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private fatalError: unknown = undefined;

  constructor(
    private readonly place: NodePlace,
    private readonly context: {
      readonly ports: Omit<NodePorts, "fs">;
      readonly disk: FileSystem;
      readonly clusterId: string;
      readonly cluster: {
        readonly places: readonly NodePlace[];
        readonly host: string;
        readonly options: ClusterOptions;
      };
    },
  ) {
    const settings = nodeSettings(place, context.cluster);
    this.config = nodeConfigOf(place.node.id, settings);
    this.fs = new FailingFileSystem(context.disk, context.cluster.options.durable ?? false);
  }

  get info(): ClusterNodeInfo {
    const { host } = this.context.cluster;
    const { node, clientPort, controllerPort } = this.place;
    return {
      id: node.id,
      role: node.role,
      address: clientPort === undefined ? undefined : `${host}:${clientPort}`,
      controllerAddress: controllerPort === undefined ? undefined : `${host}:${controllerPort}`,
      logDir: this.place.logDir,
      metadataLogDir: this.place.metadataLogDir,
      isRunning: this.running !== undefined,
      fatalError: this.fatalError,
    };
  }

  /** The client listener's address while the node runs as a broker. */
  get clientAddress(): { host: string; port: number } | undefined {
    const port = this.place.clientPort;
    if (port === undefined || this.running === undefined) return undefined;
    return { host: this.context.cluster.host, port };
  }

  /** Starts the node (a new disk in place of a failed log dir); no-op while it runs. */
  start(): Promise<void> {
    if (this.running !== undefined) return Promise.resolve();
    this.starting ??= this.startOnce().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /**
   * Stops the node, with a controlled shutdown unless `isControlled` is false; waits for a start
   * under way first.
   */
  stop(isControlled = true): Promise<void> {
    this.stopping ??= this.stopOnce(isControlled).finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  failLogDir(): void {
    this.fs.fail(this.place.logDir);
  }

  private async startOnce(): Promise<void> {
    await this.stopping;
    this.fs.repair(this.place.logDir);
    this.fatalError = undefined;
    this.running = await startNode(
      { ...this.context.ports, fs: this.fs },
      {
        config: this.config,
        format: { clusterIdToFormat: this.context.clusterId, formatsOnFirstStart: false },
        onFatalError: (error) => {
          this.fatalError = error;
          this.context.ports.logger.error("fatal error: the node stops", {
            error: String(error),
          });
          void this.stop();
        },
      },
    );
  }

  private async stopOnce(isControlled: boolean): Promise<void> {
    // A start under way is let finish (or fail) before the node it started is stopped.
    await this.starting?.catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    await running?.shutdown({ isControlled });
  }
}
