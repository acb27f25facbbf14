/**
 * The node's storage before anything opens it: every log dir and the metadata log dir must hold
 * meta.properties of one cluster and this node. Unformatted dirs are formatted when the operator
 * gave a cluster id (`--cluster-id`), or with a new cluster id on the first start of the
 * single-node preset (`npm start`); otherwise the node refuses to start, as Kafka does, and
 * says to run `sluice format`. A broker without node.id (a Sluice extension) has its dirs
 * formatted with directory ids only, and gets its id from the controller (node-assigned-id.ts).
 */
import {
  assert,
  dirname,
  uuidFromRandomBytes,
  uuidToBase64,
  type NodeId,
  type Uuid,
} from "../common/index.js";
import type { Random } from "../ports/index.js";
import { persistAssignedNodeId, readStoredNodeId, type StoredNodeId } from "../broker/index.js";
import {
  LogDirIdentityError,
  LogManager,
  NoOnlineLogDirError,
  readMetaProperties,
  readStoredMetaProperties,
  writeMetaProperties,
  type LogConfig,
  type MetaProperties,
  type UnassignedMetaProperties,
} from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { logManagerConfigOf } from "./node-settings.js";
import { reportOpenFileBudget } from "./open-file-budget.js";
import { NodeStartError, type NodeIdentity, type NodePorts } from "./node-types.js";

/** How unformatted storage is treated. */
export interface FormatPolicy {
  /** Formats unformatted dirs with this cluster id (`sluice start --cluster-id`). */
  readonly clusterIdToFormat: string | undefined;
  /** Formats a wholly unformatted node with a new cluster id (the single-node preset). */
  readonly formatsOnFirstStart: boolean;
}

/** Every dir that holds meta.properties: the log dirs and the metadata log dir. */
export function nodeDirs(config: NodeConfig): string[] {
  return [...new Set([...config.log.logDirs, config.log.metadataLogDir])];
}

/** The storage a node starts on: its identity, or all but the id the controller assigns. */
export type PreparedStorage =
  | { readonly kind: "identified"; readonly identity: NodeIdentity }
  | {
      /** A broker without node.id (a Sluice extension): it registers with -1 to get one. */
      readonly kind: "awaitingNodeId";
      readonly clusterId: string;
      readonly metadataDirectoryId: Uuid;
      /** The directory id of every dir of the node (log dirs and metadata log dir), by path. */
      readonly directoryIds: ReadonlyMap<string, Uuid>;
      readonly wasFormatted: boolean;
    };

/**
 * Checks (and where the policy allows, formats) the node's dirs; returns the node's identity, or,
 * for a broker without node.id in its config or its dirs, the dirs formatted with directory ids
 * but no node id. Throws NodeStartError when the dirs refuse this node.
 */
export async function prepareStorage(
  ports: NodePorts,
  config: NodeConfig,
  policy: FormatPolicy,
): Promise<PreparedStorage> {
  const dirs = nodeDirs(config);
  const stored = await readStoredNodeId(ports.fs, dirs);
  if (stored.kind === "inconsistent") throw new NodeStartError(stored.message);
  const clusterId = clusterIdOf(ports.random, { policy, dirs, stored });
  const nodeId = config.nodeId ?? (stored.kind === "stored" ? stored.nodeId : undefined);
  const isNew = stored.kind === "none";
  if (nodeId === undefined) {
    if (config.isController) throw new NodeStartError("node.id is required on a controller");
    const formatted = await formatMissing(ports, dirs, { clusterId, nodeId: undefined });
    const { directoryIds } = await unassignedStorage(ports, dirs);
    const metadataDirectoryId = directoryIds.get(config.log.metadataLogDir);
    assert(metadataDirectoryId !== undefined, "every dir was formatted with a directory id");
    const wasFormatted = formatted > 0 && isNew;
    return { kind: "awaitingNodeId", clusterId, metadataDirectoryId, directoryIds, wasFormatted };
  }
  if (stored.kind === "stored" && stored.nodeId !== nodeId) {
    throw new NodeStartError(`${dirs.join(", ")} belong to node ${stored.nodeId}, not ${nodeId}`);
  }
  const formatted = await formatMissing(ports, dirs, { clusterId, nodeId });
  await maybeCompleteAssignment(ports, { stored, clusterId, nodeId });
  const metadata = await readMetaProperties(ports.fs, config.log.metadataLogDir);
  const directoryId = metadata?.directoryId;
  if (directoryId === undefined) {
    throw new NodeStartError(`${config.log.metadataLogDir} has no directory.id: format it again`);
  }
  const wasFormatted = formatted > 0 && isNew;
  const identity = { nodeId, clusterId, metadataDirectoryId: directoryId, wasFormatted };
  return { kind: "identified", identity };
}

/** The cluster id the dirs record (checked against the operator's), or the one to format with. */
function clusterIdOf(
  random: Random,
  context: {
    readonly policy: FormatPolicy;
    readonly dirs: string[];
    readonly stored: StoredNodeId;
  },
): string {
  const { policy, dirs, stored } = context;
  if (stored.kind === "none") {
    return policy.clusterIdToFormat ?? firstStartClusterId(random, policy, dirs);
  }
  assert(stored.kind !== "inconsistent", "inconsistent dirs were refused");
  const wanted = policy.clusterIdToFormat;
  if (wanted !== undefined && wanted !== stored.clusterId) {
    throw new NodeStartError(`the log dirs belong to cluster ${stored.clusterId}, not ${wanted}`);
  }
  return stored.clusterId;
}

/**
 * Writes the node id into dirs formatted without one: dirs a crash left behind while an assigned
 * id was being written into each, or dirs of a broker that now has node.id in its config.
 */
async function maybeCompleteAssignment(
  ports: NodePorts,
  context: { readonly stored: StoredNodeId; readonly clusterId: string; readonly nodeId: NodeId },
): Promise<boolean> {
  const { stored, clusterId, nodeId } = context;
  if (stored.kind !== "stored" && stored.kind !== "unassigned") return false;
  const dirs = stored.kind === "stored" ? stored.unassignedDirs : [...stored.directoryIds.keys()];
  if (dirs.length === 0) return false;
  const logDirs = dirs.map((logDir) => {
    const directoryId = stored.directoryIds.get(logDir);
    assert(directoryId !== undefined, "a dir formatted without node.id has a directory id");
    return { logDir, directoryId };
  });
  try {
    const nowMs = ports.clock.nowMs();
    await persistAssignedNodeId(ports.fs, { logDirs, clusterId, nodeId, nowMs });
  } catch (error) {
    if (!(error instanceof LogDirIdentityError)) throw error;
    throw new NodeStartError(error.message, { cause: error });
  }
  ports.logger.info("wrote the node id into dirs formatted without one", { nodeId, dirs });
  return true;
}

/** The directory ids of dirs that are all formatted and record no node id yet. */
async function unassignedStorage(
  ports: NodePorts,
  dirs: readonly string[],
): Promise<{ readonly directoryIds: ReadonlyMap<string, Uuid> }> {
  const stored = await readStoredNodeId(ports.fs, dirs);
  assert(stored.kind === "unassigned", "the dirs were just formatted without node.id");
  for (const dir of dirs) assert(stored.directoryIds.has(dir), "every dir has a directory id");
  return { directoryIds: stored.directoryIds };
}

function firstStartClusterId(random: Random, policy: FormatPolicy, dirs: string[]): string {
  if (!policy.formatsOnFirstStart) {
    throw new NodeStartError(
      `${dirs.join(", ")} not formatted: run sluice format --config FILE --cluster-id ID, ` +
        "or start with --cluster-id ID",
    );
  }
  return uuidToBase64(newUuid(random));
}

/**
 * Writes meta.properties into each dir that has none, without node.id when it is undefined (a
 * broker whose id the controller assigns); returns how many it formatted.
 */
async function formatMissing(
  ports: NodePorts,
  dirs: readonly string[],
  identity: { readonly clusterId: string; readonly nodeId: NodeId | undefined },
): Promise<number> {
  let formatted = 0;
  const { clusterId, nodeId } = identity;
  for (const dir of dirs) {
    if ((await readStoredMetaProperties(ports.fs, dir)) !== undefined) continue;
    const directoryId = newUuid(ports.random);
    await ports.fs.mkdir(dir, { recursive: true });
    // The dir's own entry must survive a power cut, as Kafka flushes the parent of a new log dir.
    await syncAncestors(ports, dir);
    const properties: MetaProperties | UnassignedMetaProperties =
      nodeId === undefined
        ? { version: 1, clusterId, directoryId }
        : { version: 1, clusterId, nodeId, directoryId };
    await writeMetaProperties(ports.fs, dir, properties, ports.clock.nowMs());
    ports.logger.info("formatted a log dir", {
      dir,
      clusterId,
      directoryId: uuidToBase64(directoryId),
    });
    formatted += 1;
  }
  return formatted;
}

/** Makes the entries of `dir` and of every folder above it durable. */
async function syncAncestors(ports: NodePorts, dir: string): Promise<void> {
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    await ports.fs.syncDirectory(parent);
    if (dirname(parent) === parent) return;
  }
}

/** A random Uuid, drawn again while it is one of Kafka's reserved ids. */
function newUuid(random: Random) {
  for (let draw = 0; draw < 100; draw++) {
    const uuid = uuidFromRandomBytes(random.fill(new Uint8Array(16)));
    if (uuid !== undefined) return uuid;
  }
  throw new Error("no usable Uuid in 100 random draws; the random source is broken");
}

/**
 * Opens the log dirs and loads (recovering where needed) every partition log. Every dir was
 * formatted by prepareStorage, so a dir without meta.properties now is refused.
 */
export async function openLogManager(
  ports: NodePorts,
  config: NodeConfig,
  identity: NodeIdentity,
  logConfigOf: (topic: string) => LogConfig,
): Promise<LogManager> {
  const settings = logManagerConfigOf(config);
  const maxOpenFiles = reportOpenFileBudget(ports.logger, {
    configured: settings.maxOpenFiles,
    processLimit: ports.openFileLimit,
  });
  try {
    return await LogManager.start({
      fileSystem: ports.fs,
      clock: ports.clock,
      random: ports.random,
      logger: ports.logger,
      metrics: ports.metrics,
      config: { ...settings, maxOpenFiles },
      identity: { clusterId: identity.clusterId, nodeId: identity.nodeId },
      formatUnformatted: false,
      logConfigOf,
    });
  } catch (error) {
    if (error instanceof LogDirIdentityError || error instanceof NoOnlineLogDirError) {
      throw new NodeStartError(error.message, { cause: error });
    }
    throw error;
  }
}
