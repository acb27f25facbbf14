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
  readStoredMetaProperties,
  writeMetaProperties,
  type MetaProperties,
  type StoredMetaProperties,
} from "../../storage/index.js";

/** What the log dirs say about this node's id. */
export type StoredNodeId =
  /** No log dir holds meta.properties yet: the broker asks the controller for an id. */
  | { readonly kind: "none" }
  /**
   * Every formatted dir was formatted without node.id (`sluice format` of a broker without
   * node.id): the broker registers with their directory ids and asks the controller for an id.
   */
  | {
      readonly kind: "unassigned";
      readonly clusterId: string;
      readonly directoryIds: ReadonlyMap<string, Uuid>;
    }
  | {
      readonly kind: "stored";
      readonly nodeId: NodeId;
      readonly clusterId: string;
      /** The directory id of each log dir that has one, by path. */
      readonly directoryIds: ReadonlyMap<string, Uuid>;
      /**
       * Dirs still formatted without node.id: a crash came between writing the assigned id into
       * one dir and the next. The id must be written into them before they are used.
       */
      readonly unassignedDirs: readonly string[];
    }
  /** The dirs disagree: the node must not start on them. */
  | { readonly kind: "inconsistent"; readonly message: string };

/** Reads meta.properties of every log dir and says which node id they record. */
export async function readStoredNodeId(
  fileSystem: FileSystem,
  logDirs: readonly string[],
): Promise<StoredNodeId> {
  const found: { logDir: string; stored: StoredMetaProperties }[] = [];
  for (const logDir of logDirs) {
    const stored = await readStoredMetaProperties(fileSystem, logDir);
    if (stored !== undefined) found.push({ logDir, stored });
  }
  const first = found[0];
  if (first === undefined) return { kind: "none" };
  const clusterId = first.stored.properties.clusterId;
  const directoryIds = new Map<string, Uuid>();
  const unassignedDirs: string[] = [];
  let assigned: { logDir: string; nodeId: NodeId } | undefined;
  for (const { logDir, stored } of found) {
    if (stored.properties.clusterId !== clusterId) {
      return inconsistent("cluster.id", logDir, first.logDir);
    }
    if (stored.properties.directoryId !== undefined) {
      directoryIds.set(logDir, stored.properties.directoryId);
    }
    if (stored.kind === "unassigned") {
      unassignedDirs.push(logDir);
    } else if (assigned === undefined) {
      assigned = { logDir, nodeId: stored.properties.nodeId };
    } else if (stored.properties.nodeId !== assigned.nodeId) {
      return inconsistent("node.id", logDir, assigned.logDir);
    }
  }
  if (assigned === undefined) return { kind: "unassigned", clusterId, directoryIds };
  return { kind: "stored", nodeId: assigned.nodeId, clusterId, directoryIds, unassignedDirs };
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
 * LogDirIdentityError before anything is written; a dir formatted without node.id takes the id.
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
  for (const { logDir, directoryId } of options.logDirs) {
    const stored = await readStoredMetaProperties(fileSystem, logDir);
    if (stored === undefined) continue;
    const found = stored.properties;
    if (found.clusterId !== clusterId) {
      throw new LogDirIdentityError(logDir, {
        kind: "clusterIdMismatch",
        expected: clusterId,
        found: found.clusterId,
      });
    }
    if (stored.kind === "assigned" && stored.properties.nodeId !== nodeId) {
      throw new LogDirIdentityError(logDir, {
        kind: "nodeIdMismatch",
        expected: nodeId,
        found: stored.properties.nodeId,
      });
    }
    // The broker registered each formatted dir under the directory id the dir records.
    if (found.directoryId !== undefined) {
      assert(found.directoryId === directoryId, "the broker registered the dir's own id");
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
