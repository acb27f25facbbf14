import type { SimNode } from "./node.js";
import { Scheduler } from "./scheduler.js";
import { SimFileSystem, type SimFileSystemOptions } from "./fs/sim-file-system.js";
import { SimNetwork, type SimNetworkOptions } from "./net/sim-network.js";
import { Trace } from "./trace.js";

/** Options of a SimWorld. */
export interface SimWorldOptions {
  readonly seed: number;
  readonly network?: SimNetworkOptions;
  /** Options of every node's disk. */
  readonly disk?: SimFileSystemOptions;
  /** Keep every trace line in memory (default false). */
  readonly keepTrace?: boolean;
}

/** A scheduler with one network and one disk per node: everything a simulated cluster needs. */
export class SimWorld<M = unknown> {
  readonly scheduler: Scheduler;
  readonly network: SimNetwork<M>;
  private readonly disks = new Map<string, SimFileSystem>();

  constructor(private readonly options: SimWorldOptions) {
    this.scheduler = new Scheduler({
      seed: options.seed,
      trace: new Trace({ keepAll: options.keepTrace === true }),
    });
    this.network = new SimNetwork<M>(this.scheduler, options.network);
  }

  /** The node called `name` (created on first use, with its disk and network attachment). */
  node(name: string): SimNode {
    this.disk(name);
    return this.scheduler.node(name);
  }

  /** The disk of node `name`; it survives the node's crashes, keeping what was durable. */
  disk(name: string): SimFileSystem {
    let disk = this.disks.get(name);
    if (disk === undefined) {
      disk = new SimFileSystem(this.scheduler, this.scheduler.node(name), this.options.disk);
      this.disks.set(name, disk);
    }
    return disk;
  }

  /** The hash of everything that happened so far. */
  traceHash(): string {
    return this.scheduler.traceHash();
  }
}
