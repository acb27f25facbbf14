/**
 * `sluice quorum add-controller --bootstrap-controller HOST:PORT --config FILE` and
 * `sluice quorum remove-controller --bootstrap-controller HOST:PORT --controller-id N
 * --controller-directory-id D`: change the voter set of a dynamic quorum one controller at a
 * time (KIP-853, AddRaftVoter and RemoveRaftVoter), as Kafka's kafka-metadata-quorum.sh does.
 * The controller asked forwards nothing: it must be the leader, and the leader answers only once
 * the new voter set is committed.
 */
import { errorName, uuidFromBase64, uuidToBase64, type Uuid } from "../common/index.js";
import { describeFailure, type ClientPorts } from "../client/index.js";
import { isFileSystemError, type Crypto, type FileSystem } from "../ports/index.js";
import {
  formatProblem,
  loadNodeConfigFrom,
  parseHostPort,
  type NodeConfig,
} from "../main/index.js";
import { addRaftVoter, removeRaftVoter } from "../protocol/index.js";
import { MalformedFileError, readMetaProperties } from "../storage/index.js";
import type { ClusterCommandIo } from "./cluster-session.js";
import { EXIT, parseCommandOptions, type CommandOutput } from "./command-options.js";
import { withQuorumConnection } from "./quorum-security.js";

export const ADD_CONTROLLER_USAGE =
  "usage: sluice quorum add-controller --bootstrap-controller HOST:PORT --config FILE " +
  "[--command-config FILE]";

export const REMOVE_CONTROLLER_USAGE =
  "usage: sluice quorum remove-controller --bootstrap-controller HOST:PORT " +
  "--controller-id ID --controller-directory-id DIRECTORY_ID [--command-config FILE]";

/** How long the leader may take to commit the change (Kafka's default API timeout). */
const VOTER_CHANGE_TIMEOUT_MS = 60_000;

export interface QuorumVotersIo extends CommandOutput, ClientPorts {
  readonly fileSystem: FileSystem;
  readonly crypto?: Crypto | undefined;
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** A controller as AddRaftVoter names it. */
interface ControllerToAdd {
  readonly clusterId: string;
  readonly nodeId: number;
  readonly directoryId: Uuid;
  readonly listeners: readonly { name: string; host: string; port: number }[];
}

/** Runs `sluice quorum add-controller` with the arguments after `add-controller`. */
export async function quorumAddController(
  args: readonly string[],
  io: QuorumVotersIo,
): Promise<number> {
  const parsed = parseCommandOptions(args, {
    booleans: [],
    values: ["--bootstrap-controller", "--config", "--command-config"],
  });
  const configPath = parsed.kind === "ok" ? parsed.values.get("--config") : undefined;
  const target = parsed.kind === "ok" ? parsed.values.get("--bootstrap-controller") : undefined;
  const address = target === undefined ? undefined : parseHostPort(target);
  if (parsed.kind === "usage" || configPath === undefined || address === undefined) {
    if (parsed.kind === "usage") io.error(parsed.message);
    io.error(ADD_CONTROLLER_USAGE);
    return EXIT.usage;
  }
  if (!address.ok) {
    io.error(address.message);
    return EXIT.usage;
  }
  const controller = await controllerOf(configPath, io);
  if (typeof controller === "string") {
    io.error(controller);
    return EXIT.failed;
  }
  return withQuorumConnection(
    address.value,
    io,
    parsed.values.get("--command-config"),
    async (connection) => {
      const result = await connection.send(addRaftVoter, {
        clusterId: controller.clusterId,
        timeoutMs: VOTER_CHANGE_TIMEOUT_MS,
        voterId: controller.nodeId,
        voterDirectoryId: controller.directoryId,
        listeners: controller.listeners.map((listener) => ({ ...listener })),
      });
      if (result.kind !== "response") {
        io.error(`AddRaftVoter failed: ${describeFailure(result)}`);
        return EXIT.failed;
      }
      if (result.body.errorCode !== 0) return refused("AddRaftVoter", result.body, io);
      const endpoints = controller.listeners.map((l) => `${l.name}://${l.host}:${l.port}`);
      io.write(
        `Added controller ${controller.nodeId} with directory id ` +
          `${uuidToBase64(controller.directoryId)} and endpoints: ${endpoints.join(", ")}`,
      );
      return EXIT.ok;
    },
  );
}

/** Runs `sluice quorum remove-controller` with the arguments after `remove-controller`. */
export async function quorumRemoveController(
  args: readonly string[],
  io: ClusterCommandIo,
): Promise<number> {
  const parsed = parseCommandOptions(args, {
    booleans: [],
    values: [
      "--bootstrap-controller",
      "--controller-id",
      "--controller-directory-id",
      "--command-config",
    ],
  });
  const values = parsed.kind === "ok" ? parsed.values : new Map<string, string>();
  const target = values.get("--bootstrap-controller");
  const address = target === undefined ? undefined : parseHostPort(target);
  const idText = values.get("--controller-id");
  const directoryText = values.get("--controller-directory-id");
  if (parsed.kind === "usage" || address === undefined || idText === undefined) {
    if (parsed.kind === "usage") io.error(parsed.message);
    io.error(REMOVE_CONTROLLER_USAGE);
    return EXIT.usage;
  }
  const voterId = /^\d+$/.test(idText) ? Number(idText) : undefined;
  const directoryId = directoryText === undefined ? undefined : uuidFromBase64(directoryText);
  const problem = !address.ok
    ? address.message
    : voterId === undefined
      ? `--controller-id ${JSON.stringify(idText)} is not a node id`
      : directoryId === undefined
        ? `--controller-directory-id ${JSON.stringify(directoryText ?? "")} is not a Uuid`
        : undefined;
  if (problem !== undefined || !address.ok || voterId === undefined || directoryId === undefined) {
    io.error(problem ?? REMOVE_CONTROLLER_USAGE);
    io.error(REMOVE_CONTROLLER_USAGE);
    return EXIT.usage;
  }
  return withQuorumConnection(
    address.value,
    io,
    values.get("--command-config"),
    async (connection) => {
      const body = { clusterId: null, voterId, voterDirectoryId: directoryId };
      const result = await connection.send(removeRaftVoter, body);
      if (result.kind !== "response") {
        io.error(`RemoveRaftVoter failed: ${describeFailure(result)}`);
        return EXIT.failed;
      }
      if (result.body.errorCode !== 0) return refused("RemoveRaftVoter", result.body, io);
      io.write(`Removed controller ${voterId} with directory id ${uuidToBase64(directoryId)}`);
      return EXIT.ok;
    },
  );
}

function refused(
  api: string,
  body: { readonly errorCode: number; readonly errorMessage: string | null },
  io: CommandOutput,
): number {
  io.error(`${api} failed: ${errorName(body.errorCode)} ${body.errorMessage ?? ""}`.trimEnd());
  return EXIT.failed;
}

/**
 * The controller the configuration at `configPath` describes: its node id, its metadata log
 * dir's cluster and directory ids (written by `sluice format`), and its controller listeners.
 * Returns the reason when it cannot be read.
 */
async function controllerOf(
  configPath: string,
  io: QuorumVotersIo,
): Promise<ControllerToAdd | string> {
  const loaded = await loadNodeConfigFrom(io.fileSystem, {
    configPath,
    environment: io.environment,
    flags: [],
  });
  if (loaded.kind === "unreadable") return loaded.message;
  if (loaded.kind !== "valid") return loaded.problems.map(formatProblem).join("\n");
  const config: NodeConfig = loaded.config;
  if (config.nodeId === undefined || !config.isController) {
    return `${configPath} is not the configuration of a controller with a node.id`;
  }
  const dir = config.log.metadataLogDir;
  let meta;
  try {
    meta = await readMetaProperties(io.fileSystem, dir);
  } catch (error) {
    if (!(error instanceof MalformedFileError) && !isFileSystemError(error)) throw error;
    return `cannot read the identity of ${dir}: ${error.message}`;
  }
  if (meta?.directoryId === undefined) {
    return `${dir} has no directory.id: format it with sluice format first`;
  }
  const listeners = config.listeners
    .filter((listener) => config.controllerListenerNames.includes(listener.name))
    .map(({ name, host, port }) => ({ name, host, port }));
  // The leader and the other voters connect to these endpoints, so each must be a real port.
  if (listeners.length === 0 || listeners.some((listener) => listener.port === 0)) {
    return `${configPath} must bind its controller listeners to fixed ports to join the quorum`;
  }
  return {
    clusterId: meta.clusterId,
    nodeId: config.nodeId,
    directoryId: meta.directoryId,
    listeners,
  };
}
