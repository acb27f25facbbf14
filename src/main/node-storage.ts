/**
 * The node's storage before anything opens it: every log dir and the metadata log dir must hold
 * meta.properties of one cluster and this node. Unformatted dirs are formatted when the operator
 * gave a cluster id (`--cluster-id`), or with a new cluster id on the first start of the
 * single-node preset (`npm start`); otherwise the node refuses to start, as Kafka does, and
 * says to run `sluice format`.
 */
import { brokerId, uuidFromRandomBytes, uuidToBase64, type NodeId } from "../common/index.js";
import type { Random } from "../ports/index.js";
import { readStoredNodeId } from "../broker/index.js";
import {
  LogDirIdentityError,
  LogManager,
  NoOnlineLogDirError,
  readMetaProperties,
  writeMetaProperties,
  type LogConfig,
  type MetaProperties,
} from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { logManagerConfigOf } from "./node-settings.js";
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

/**
 * Checks (and where the policy allows, formats) the node's dirs; returns the node's identity.
 * Throws NodeStartError when the dirs refuse this node.
 */
export async function prepareStorage(
  ports: NodePorts,
  config: NodeConfig,
  policy: FormatPolicy,
): Promise<NodeIdentity> {
  const dirs = nodeDirs(config);
  const stored = await readStoredNodeId(ports.fs, dirs);
  if (stored.kind === "inconsistent") throw new NodeStartError(stored.message);
  const nodeId = config.nodeId ?? (stored.kind === "stored" ? stored.nodeId : undefined);
  if (nodeId === undefined) {
    throw new NodeStartError("node.id is required: set it in the config file or with --set");
  }
  let clusterId: string;
  if (stored.kind === "stored") {
    if (stored.nodeId !== nodeId) {
      throw new NodeStartError(`${dirs.join(", ")} belong to node ${stored.nodeId}, not ${nodeId}`);
    }
    clusterId = stored.clusterId;
    const wanted = policy.clusterIdToFormat;
    if (wanted !== undefined && wanted !== clusterId) {
      throw new NodeStartError(`the log dirs belong to cluster ${clusterId}, not ${wanted}`);
    }
  } else {
    clusterId = policy.clusterIdToFormat ?? firstStartClusterId(ports.random, policy, dirs);
  }
  const formatted = await formatMissing(ports, dirs, { clusterId, nodeId: brokerId(nodeId) });
  const metadata = await readMetaProperties(ports.fs, config.log.metadataLogDir);
  const directoryId = metadata?.directoryId;
  if (directoryId === undefined) {
    throw new NodeStartError(`${config.log.metadataLogDir} has no directory.id: format it again`);
  }
  return {
    nodeId: brokerId(nodeId),
    clusterId,
    metadataDirectoryId: directoryId,
    wasFormatted: formatted > 0 && stored.kind === "none",
  };
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

/** Writes meta.properties into each dir that has none; returns how many it formatted. */
async function formatMissing(
  ports: NodePorts,
  dirs: readonly string[],
  identity: { readonly clusterId: string; readonly nodeId: NodeId },
): Promise<number> {
  let formatted = 0;
  for (const dir of dirs) {
    if ((await readMetaProperties(ports.fs, dir)) !== undefined) continue;
    const directoryId = newUuid(ports.random);
    await ports.fs.mkdir(dir, { recursive: true });
    const properties: MetaProperties = { version: 1, ...identity, directoryId };
    await writeMetaProperties(ports.fs, dir, properties, ports.clock.nowMs());
    ports.logger.info("formatted a log dir", {
      dir,
      clusterId: identity.clusterId,
      directoryId: uuidToBase64(directoryId),
    });
    formatted += 1;
  }
  return formatted;
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
  try {
    return await LogManager.start({
      fileSystem: ports.fs,
      clock: ports.clock,
      random: ports.random,
      logger: ports.logger,
      metrics: ports.metrics,
      config: logManagerConfigOf(config),
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
