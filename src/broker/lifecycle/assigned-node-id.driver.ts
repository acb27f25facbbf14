/**
 * Keeping a controller-assigned broker id (a Sluice extension, after RocketMQ's controller mode):
 * a broker started without `node.id` registers with -1, and the id it is given is written as
 * `node.id` into meta.properties of every log dir, so the next start finds it there and registers
 * under it, even from a host with another address.
 */
import { assert, dirname, type NodeId, type Uuid } from "../../common/index.js";
import type { FileSystem } from "../../ports/index.js";
import {
  LogDirIdentityError,
  readMetaProperties,
  writeMetaProperties,
  type MetaProperties,
} from "../../storage/index.js";

/** What the log dirs say about this node's id. */
export type StoredNodeId =
  /** No log dir holds meta.properties yet: the broker asks the controller for an id. */
  | { readonly kind: "none" }
  | {
      readonly kind: "stored";
      readonly nodeId: NodeId;
      readonly clusterId: string;
      /** The directory id of each log dir that has one, by path. */
      readonly directoryIds: ReadonlyMap<string, Uuid>;
    }
  /** The dirs disagree: the node must not start on them. */
  | { readonly kind: "inconsistent"; readonly message: string };

/** Reads meta.properties of every log dir and says which node id they record. */
export async function readStoredNodeId(
  fileSystem: FileSystem,
  logDirs: readonly string[],
): Promise<StoredNodeId> {
  const found: { logDir: string; properties: MetaProperties }[] = [];
  for (const logDir of logDirs) {
    const properties = await readMetaProperties(fileSystem, logDir);
    if (properties !== undefined) found.push({ logDir, properties });
  }
  const first = found[0];
  if (first === undefined) return { kind: "none" };
  const directoryIds = new Map<string, Uuid>();
  for (const { logDir, properties } of found) {
    if (properties.clusterId !== first.properties.clusterId) {
      return inconsistent("cluster.id", logDir, first.logDir);
    }
    if (properties.nodeId !== first.properties.nodeId) {
      return inconsistent("node.id", logDir, first.logDir);
    }
    if (properties.directoryId !== undefined) directoryIds.set(logDir, properties.directoryId);
  }
  const { nodeId, clusterId } = first.properties;
  return { kind: "stored", nodeId, clusterId, directoryIds };
}

function inconsistent(key: string, logDir: string, other: string): StoredNodeId {
  return { kind: "inconsistent", message: `${logDir} and ${other} record different ${key}s` };
}

/** A log dir and the directory id the broker registered for it. */
export interface LogDirToFormat {
  readonly logDir: string;
  readonly directoryId: Uuid;
}

/**
 * Writes `nodeId` into meta.properties of every log dir, with the cluster id and the directory id
 * the broker registered. A dir that already records another cluster or node is refused with
 * LogDirIdentityError before anything is written.
 */
export async function persistAssignedNodeId(
  fileSystem: FileSystem,
  options: {
    readonly logDirs: readonly LogDirToFormat[];
    readonly clusterId: string;
    readonly nodeId: NodeId;
    readonly nowMs: number;
  },
): Promise<void> {
  const { clusterId, nodeId, nowMs } = options;
  assert(options.logDirs.length > 0, "a broker has at least one log dir");
  for (const { logDir } of options.logDirs) {
    const found = await readMetaProperties(fileSystem, logDir);
    if (found === undefined) continue;
    if (found.clusterId !== clusterId) {
      throw new LogDirIdentityError(logDir, {
        kind: "clusterIdMismatch",
        expected: clusterId,
        found: found.clusterId,
      });
    }
    if (found.nodeId !== nodeId) {
      throw new LogDirIdentityError(logDir, {
        kind: "nodeIdMismatch",
        expected: nodeId,
        found: found.nodeId,
      });
    }
  }
  for (const { logDir, directoryId } of options.logDirs) {
    if ((await fileSystem.stat(logDir)) === undefined) {
      await fileSystem.mkdir(logDir, { recursive: true });
      // The new dir's entry must be durable, or a crash could lose the identity written in it.
      await fileSystem.syncDirectory(dirname(logDir));
    }
    const properties: MetaProperties = { version: 1, clusterId, nodeId, directoryId };
    await writeMetaProperties(fileSystem, logDir, properties, nowMs);
  }
}
