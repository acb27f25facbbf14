/**
 * `sluice format --config FILE --cluster-id ID [--set K=V]... [--ignore-formatted]
 * [--standalone | --initial-controllers LIST | --no-initial-controllers]
 * [--feature NAME=LEVEL]...`: writes meta.properties (version 1, cluster.id, node.id and a new
 * directory.id) into every log dir and the metadata log dir, and into the metadata log dir the
 * bootstrap metadata (the feature levels a new cluster starts with, format-features.ts), as
 * Kafka's storage tool does. A dir already formatted is refused unless --ignore-formatted, and a
 * dir of another cluster or node is refused always. For a dynamic quorum (KIP-853) --standalone
 * makes this controller the only voter and --initial-controllers names the first voters: either
 * writes the bootstrap checkpoint of the metadata log. A broker-only node without node.id (a
 * Sluice extension) has its dirs formatted with cluster.id and directory.id only; the controller
 * assigns its id at the first registration, and the broker writes it into every dir
 * (docs/decisions/0006).
 */
import { brokerId, uuidFromBase64, uuidToBase64, type NodeId, type Uuid } from "../common/index.js";
import {
  isFileSystemError,
  type Clock,
  type Crypto,
  type FileSystem,
  type Random,
} from "../ports/index.js";
import type { BootstrapOptions } from "../controller/index.js";
import { formatProblem, loadNodeConfigFrom, type NodeConfig } from "../main/index.js";
import {
  MalformedFileError,
  checkIdentity,
  readStoredMetaProperties,
  writeMetaProperties,
  type StoredMetaProperties,
} from "../storage/index.js";
import { EXIT, parseCommandOptions, type CommandOutput } from "./command-options.js";
import { scramCredentialsOf } from "./format-scram.js";
import { bootstrapOptionsOf, writeBootstrapFeatures } from "./format-features.js";
import { newRandomUuid } from "./random-uuid.js";
import {
  initialQuorumOf,
  maybeWriteBootstrap,
  ownDirectoryId,
  type InitialQuorum,
} from "./quorum-bootstrap.js";

export const FORMAT_USAGE =
  "usage: sluice format --config FILE --cluster-id ID [--set KEY=VALUE]... [--ignore-formatted]" +
  " [--standalone | --initial-controllers ID@HOST:PORT:DIRECTORY_ID,... |" +
  " --no-initial-controllers] [--feature NAME=LEVEL]...\n" +
  " [--add-scram SCRAM-SHA-256|SCRAM-SHA-512=[name=NAME,password=PASSWORD]]...\n" +
  "--feature eligible.leader.replicas.version=1 turns eligible leader replicas on (KIP-966).\n" +
  "A broker-only node may leave node.id out: its dirs are formatted without one, and the\n" +
  "controller assigns it an id (1000 or above) that the broker keeps in them.";

export interface FormatIo extends CommandOutput {
  readonly fileSystem: FileSystem;
  readonly random: Random;
  readonly clock: Clock;
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** Hashes for `--add-scram`. */
  readonly crypto?: Crypto;
}

/** What the command will do with one dir. */
type DirPlan =
  | { readonly kind: "format"; readonly dir: string }
  | { readonly kind: "formatted"; readonly dir: string }
  | { readonly kind: "refused"; readonly dir: string; readonly message: string };

/** Runs `sluice format` with the arguments after the command name. */
export async function format(args: readonly string[], io: FormatIo): Promise<number> {
  const parsed = parseCommandOptions(args, {
    booleans: ["--ignore-formatted", "--standalone", "--no-initial-controllers"],
    values: ["--config", "--cluster-id", "--initial-controllers"],
    repeatable: ["--set", "--feature", "--add-scram"],
  });
  if (parsed.kind === "usage" || parsed.positionals.length > 0) {
    io.error(parsed.kind === "usage" ? parsed.message : `unexpected ${parsed.positionals[0]}`);
    io.error(FORMAT_USAGE);
    return EXIT.usage;
  }
  const configPath = parsed.values.get("--config");
  const clusterId = parsed.values.get("--cluster-id");
  if (configPath === undefined || clusterId === undefined) {
    io.error(FORMAT_USAGE);
    return EXIT.usage;
  }
  // Kafka takes any cluster id that reads as a Uuid in its printed form.
  if (uuidFromBase64(clusterId) === undefined) {
    io.error(
      `cluster id ${JSON.stringify(clusterId)} is not a Uuid; make one with sluice random-uuid`,
    );
    return EXIT.failed;
  }
  const flags = parsed.repeated.get("--set") ?? [];
  const loaded = await loadNodeConfigFrom(io.fileSystem, {
    configPath,
    environment: io.environment,
    flags,
  });
  if (loaded.kind !== "valid") {
    if (loaded.kind === "unreadable") io.error(loaded.message);
    else for (const problem of loaded.problems) io.error(formatProblem(problem));
    return EXIT.failed;
  }
  const ignoreFormatted = parsed.booleans.has("--ignore-formatted");
  const quorum = initialQuorumOf(parsed, loaded.config);
  if (quorum.kind === "refused") {
    io.error(quorum.message);
    return EXIT.failed;
  }
  const features = bootstrapOptionsOf(parsed.repeated.get("--feature") ?? []);
  if (features.kind === "invalid") {
    io.error(features.message);
    return EXIT.failed;
  }
  const scram = scramOptionOf(parsed.repeated.get("--add-scram") ?? [], io);
  if (!scram.ok) {
    io.error(scram.message);
    return EXIT.failed;
  }
  const bootstrap =
    scram.value.length === 0
      ? features.options
      : { ...features.options, scramCredentials: scram.value };
  return formatDirs(loaded.config, { clusterId, ignoreFormatted, quorum, bootstrap }, io);
}

async function formatDirs(
  config: NodeConfig,
  request: {
    readonly clusterId: string;
    readonly ignoreFormatted: boolean;
    readonly quorum: InitialQuorum;
    readonly bootstrap: BootstrapOptions;
  },
  io: FormatIo,
): Promise<number> {
  if (config.nodeId === undefined && config.isController) {
    io.error("node.id must be set to format a controller: the id is written into every log dir");
    return EXIT.failed;
  }
  // Undefined for a broker whose id the controller assigns.
  const nodeId = config.nodeId === undefined ? undefined : brokerId(config.nodeId);
  const dirs = [...new Set([...config.log.logDirs, config.log.metadataLogDir])];
  const plans: DirPlan[] = [];
  for (const dir of dirs) plans.push(await planDir(io.fileSystem, dir, request.clusterId, nodeId));
  const refused = plans.filter((plan) => plan.kind === "refused");
  const formatted = plans.filter((plan) => plan.kind === "formatted");
  for (const plan of refused) io.error(plan.message);
  if (!request.ignoreFormatted) {
    for (const plan of formatted) {
      io.error(
        `Log directory ${plan.dir} is already formatted. ` +
          "Use --ignore-formatted to ignore this directory and format the others.",
      );
    }
  }
  if (refused.length > 0 || (formatted.length > 0 && !request.ignoreFormatted)) return EXIT.failed;
  const toFormat = plans.filter((plan) => plan.kind === "format");
  if (toFormat.length === 0) io.write("All of the log directories are already formatted.");
  for (const plan of toFormat) {
    try {
      const isMetadataDir = plan.dir === config.log.metadataLogDir;
      const directoryId = await formatDir(plan.dir, request.clusterId, nodeId, {
        io,
        directoryId:
          isMetadataDir && nodeId !== undefined
            ? ownDirectoryId(request.quorum, nodeId)
            : undefined,
      });
      if (isMetadataDir) {
        await writeBootstrapFeatures(config, request.bootstrap, io);
        await maybeWriteBootstrap(config, request.quorum, directoryId, io);
      }
    } catch (error) {
      if (!isFileSystemError(error)) throw error;
      io.error(`cannot format ${plan.dir}: ${error.message}`);
      return EXIT.failed;
    }
  }
  return EXIT.ok;
}

async function planDir(
  fileSystem: FileSystem,
  dir: string,
  clusterId: string,
  nodeId: NodeId | undefined,
): Promise<DirPlan> {
  let stored: StoredMetaProperties | undefined;
  try {
    stored = await readStoredMetaProperties(fileSystem, dir);
  } catch (error) {
    if (!(error instanceof MalformedFileError) && !isFileSystemError(error)) throw error;
    return {
      kind: "refused",
      dir,
      message: `cannot read the identity of ${dir}: ${error.message}`,
    };
  }
  if (stored === undefined) return { kind: "format", dir };
  const found = stored.properties;
  // A dir formatted without node.id belongs to any node of its cluster: the node's start writes
  // the id in; and a broker without node.id finds its assigned id in the dir.
  const expected = { clusterId, nodeId: nodeId ?? brokerId(-1) };
  const check =
    stored.kind === "assigned" && nodeId !== undefined
      ? checkIdentity(stored.properties, expected)
      : checkIdentity({ ...found, nodeId: expected.nodeId }, expected);
  switch (check.kind) {
    case "match":
      return { kind: "formatted", dir };
    case "clusterIdMismatch":
      return {
        kind: "refused",
        dir,
        message: `${dir} is formatted for cluster ${check.found}, not ${check.expected}`,
      };
    case "nodeIdMismatch":
      return {
        kind: "refused",
        dir,
        message: `${dir} is formatted for node ${check.found}, not ${check.expected}`,
      };
  }
}

async function formatDir(
  dir: string,
  clusterId: string,
  nodeId: NodeId | undefined,
  options: { readonly io: FormatIo; readonly directoryId: Uuid | undefined },
): Promise<Uuid> {
  const io = options.io;
  const directoryId = options.directoryId ?? newRandomUuid(io.random);
  await io.fileSystem.mkdir(dir, { recursive: true });
  const properties =
    nodeId === undefined
      ? ({ version: 1, clusterId, directoryId } as const)
      : ({ version: 1, clusterId, nodeId, directoryId } as const);
  await writeMetaProperties(io.fileSystem, dir, properties, io.clock.nowMs());
  const node =
    nodeId === undefined ? "no node.id (the controller assigns it)" : `node.id ${nodeId}`;
  io.write(
    `Formatting ${dir} with cluster.id ${clusterId}, ${node}, ` +
      `directory.id ${uuidToBase64(directoryId)}.`,
  );
  return directoryId;
}

/** The `--add-scram` credentials; a command without Crypto takes none. */
function scramOptionOf(values: readonly string[], io: FormatIo) {
  if (values.length === 0) return { ok: true, value: [] } as const;
  if (io.crypto === undefined) return { ok: false, message: "--add-scram needs hashes" } as const;
  return scramCredentialsOf(values, { crypto: io.crypto, random: io.random });
}
