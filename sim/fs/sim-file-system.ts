import {
  FileSystemError,
  type FileStat,
  type VolumeSpace,
  type FileSystem,
  type OpenOptions,
} from "../../src/ports/index.js";
import type { SimNode } from "../node.js";
import type { SeededRandom } from "../random.js";
import type { Lane, Scheduler } from "../scheduler.js";
import { crashTree, type CrashOptions } from "./crash.js";
import { FaultSet, type FaultRule, type FileOperation, type InjectedFault } from "./faults.js";
import type { FileInode, UnsyncedChange } from "./inodes.js";
import { Namespace } from "./namespace.js";
import { SimFileHandle, type FileOperator } from "./sim-file-handle.js";

/** A latency range in simulated milliseconds, both ends included. */
export interface LatencyRange {
  readonly minMs: number;
  readonly maxMs: number;
}

/** Options of a SimFileSystem. */
export interface SimFileSystemOptions {
  /** The disk's size: growth beyond it fails with ENOSPC (default: unlimited). */
  readonly capacityBytes?: number;
  /** The latency of ordinary calls (default 0 to 1 ms). */
  readonly latency?: LatencyRange;
  /** The latency of sync, datasync and syncDirectory (default 1 to 5 ms). */
  readonly syncLatency?: LatencyRange;
  /** What a crash of the node keeps of unsynced data (default: see CrashOptions). */
  readonly crash?: CrashOptions;
}

const syncOperations: ReadonlySet<FileOperation> = new Set(["sync", "datasync", "syncDirectory"]);

/**
 * One node's disk, in memory. Calls complete in call order after a simulated latency (one disk
 * queue per node). Files and folders each have a visible and a durable state: file contents
 * become durable on sync/datasync, a folder's entries (creations, renames, unlinks) on
 * syncDirectory of that folder. A crash of the node keeps the durable state, maybe a prefix of
 * what was not synced, maybe a torn write; calls in flight never complete.
 */
export class SimFileSystem implements FileSystem, FileOperator {
  /** What the next crash keeps of unsynced data; tests may change it between crashes. */
  crashOptions: CrashOptions;
  private readonly namespace: Namespace;
  private readonly faults: FaultSet;
  private readonly random: SeededRandom;
  private readonly lane: Lane;
  private readonly latency: LatencyRange;
  private readonly syncLatency: LatencyRange;

  constructor(
    private readonly scheduler: Scheduler,
    readonly node: SimNode,
    options: SimFileSystemOptions = {},
  ) {
    this.random = node.random.fork("fs");
    this.faults = new FaultSet(this.random.fork("faults"));
    this.namespace = new Namespace(options.capacityBytes ?? Number.POSITIVE_INFINITY, () =>
      node.clock.nowMs(),
    );
    this.lane = scheduler.lane(`disk ${node.name}`);
    this.latency = options.latency ?? { minMs: 0, maxMs: 1 };
    this.syncLatency = options.syncLatency ?? { minMs: 1, maxMs: 5 };
    this.crashOptions = options.crash ?? {};
    node.onCrash(() => this.crash());
  }

  /** Bytes in named files now. */
  get usedBytes(): number {
    return this.namespace.usedBytes;
  }

  /** Makes matching calls fail until the rule expires or is removed. */
  injectFault(rule: FaultRule): InjectedFault {
    return this.faults.add(rule);
  }

  /** Removes every fault rule. */
  clearFaults(): void {
    this.faults.clear();
  }

  /**
   * Replaces the disk's state by what survives a power cut. The node's crash calls this; a test
   * may call it directly with options for one crash.
   */
  crash(options: CrashOptions = this.crashOptions): void {
    this.scheduler.record(`fs ${this.node.name} crash`);
    // Calls in flight belong to the dead incarnation and never complete either way.
    if (options.keepsAllWritten === true) return;
    crashTree(this.namespace.root, this.random, options);
    this.namespace.recount();
  }

  /** The visible contents of a file now, without latency or faults (for checkers). */
  peekFile(path: string): Uint8Array | undefined {
    const inode = this.namespace.lookup(path, "peek");
    return inode?.kind === "file" ? inode.content.snapshot() : undefined;
  }

  /** The names in a folder now, without latency or faults (for checkers). */
  peekDirectory(path: string): string[] | undefined {
    const inode = this.namespace.lookup(path, "peek");
    return inode?.kind === "directory" ? this.namespace.readdir(path) : undefined;
  }

  open(path: string, options: OpenOptions = {}): Promise<SimFileHandle> {
    const incarnation = this.node.incarnation;
    return this.operate(
      "open",
      path,
      () => {
        const inode = this.namespace.open(path, options);
        return new SimFileHandle(path, inode, options.readOnly === true, this, incarnation);
      },
      incarnation,
    );
  }

  rename(from: string, to: string): Promise<void> {
    return this.call("rename", `${from} -> ${to}`, () => this.namespace.rename(from, to));
  }

  readdir(path: string): Promise<string[]> {
    return this.call("readdir", path, () => this.namespace.readdir(path));
  }

  unlink(path: string): Promise<void> {
    return this.call("unlink", path, () => this.namespace.unlink(path));
  }

  mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    return this.call("mkdir", path, () => this.namespace.mkdir(path, options.recursive === true));
  }

  rmdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    return this.call("rmdir", path, () => this.namespace.rmdir(path, options.recursive === true));
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.call("stat", path, () => this.namespace.stat(path));
  }

  syncDirectory(path: string): Promise<void> {
    return this.call("syncDirectory", path, () => this.namespace.syncDirectory(path));
  }

  /** The simulated disk's capacity and what is left of it; unknown for an unlimited disk. */
  volumeSpace(path: string): Promise<VolumeSpace | undefined> {
    return this.call("volumeSpace", path, () => this.namespace.volumeSpace(path));
  }

  /** Part of FileOperator: see there. */
  change(inode: FileInode, change: UnsyncedChange, syscall: string, path: string): void {
    this.namespace.change(inode, change, syscall, path);
  }

  /** Part of FileOperator: see there. */
  operate<T>(
    operation: FileOperation,
    path: string,
    effect: () => T,
    incarnation: number,
  ): Promise<T> {
    const range = syncOperations.has(operation) ? this.syncLatency : this.latency;
    const delayMs = this.random.between(range.minMs, range.maxMs);
    return new Promise<T>((resolve, reject) => {
      const complete = (): void => {
        const injected = this.faults.check(operation, path);
        if (injected !== undefined) {
          this.scheduler.record(`fs ${this.node.name} ${operation} ${path} ${injected} injected`);
          reject(new FileSystemError(injected, operation, path));
          return;
        }
        try {
          const value = effect();
          this.scheduler.record(`fs ${this.node.name} ${operation} ${path} ok`);
          resolve(value);
        } catch (error) {
          // Only refusals of the file system are answers; a broken assertion must stop the run.
          if (!(error instanceof FileSystemError)) throw error;
          this.scheduler.record(`fs ${this.node.name} ${operation} ${path} ${error.code}`);
          reject(error);
        }
      };
      this.lane.push(delayMs, complete, { node: this.node, incarnation, label: `fs ${operation}` });
    });
  }

  private call<T>(operation: FileOperation, path: string, effect: () => T): Promise<T> {
    return this.operate(operation, path, effect, this.node.incarnation);
  }
}
