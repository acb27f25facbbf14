/**
 * The initial voters `sluice format` writes for a dynamic quorum (KIP-853), as Kafka's storage
 * tool: `--standalone` (this controller alone), `--initial-controllers ID@HOST:PORT:DIRID,...`
 * (the first voters, each with its metadata directory id), or `--no-initial-controllers` (a
 * controller that joins later as an observer). The chosen voters go into the bootstrap
 * checkpoint of the metadata log.
 */
import { uuidFromBase64, type NodeId, type Uuid } from "../common/index.js";
import type { NodeConfig } from "../main/index.js";
import { writeBootstrapCheckpoint, type ConfiguredVoter } from "../raft/index.js";
import type { ParsedOptions } from "./command-options.js";
import type { FormatIo } from "./format.js";

/** The voters format writes into the bootstrap checkpoint, if any. */
export type InitialQuorum =
  | { readonly kind: "none" }
  | { readonly kind: "standalone" }
  | { readonly kind: "initialControllers"; readonly voters: readonly ConfiguredVoter[] }
  | { readonly kind: "refused"; readonly message: string };

/** `ID@HOST:PORT:DIRECTORY_ID`, the directory id in Kafka's base64 form. */
const INITIAL_CONTROLLER = /^(\d+)@(.+):(\d+):([A-Za-z0-9_-]{22})$/;

/** The initial quorum the options ask for, checked against the configuration. */
export function initialQuorumOf(
  parsed: Extract<ParsedOptions, { kind: "ok" }>,
  config: NodeConfig,
): InitialQuorum {
  const isStandalone = parsed.booleans.has("--standalone");
  const list = parsed.values.get("--initial-controllers");
  const isNone = parsed.booleans.has("--no-initial-controllers");
  const chosen = [isStandalone, list !== undefined, isNone].filter(Boolean).length;
  if (chosen > 1) {
    const names = "--standalone, --initial-controllers and --no-initial-controllers";
    return refused(`only one of ${names} may be given`);
  }
  if (chosen === 0) return { kind: "none" };
  if (!config.isController) return refused("only a controller takes an initial quorum");
  if (config.quorum.voters.length > 0) {
    return refused("a dynamic quorum is configured with controller.quorum.bootstrap.servers");
  }
  if (isStandalone) return { kind: "standalone" };
  if (list === undefined) return { kind: "none" };
  return parseInitialControllers(list, config.controllerListenerNames[0] ?? "CONTROLLER");
}

function parseInitialControllers(list: string, listenerName: string): InitialQuorum {
  const voters: ConfiguredVoter[] = [];
  for (const entry of list.split(",")) {
    const match = INITIAL_CONTROLLER.exec(entry.trim());
    const directoryId = match === null ? undefined : uuidFromBase64(match[4] as string);
    if (match === null || directoryId === undefined) {
      return refused(`"${entry}" is not ID@HOST:PORT:DIRECTORY_ID`);
    }
    const id = Number(match[1]);
    if (voters.some((voter) => voter.id === id)) return refused(`controller ${id} is listed twice`);
    const endpoint = { name: listenerName, host: match[2] as string, port: Number(match[3]) };
    voters.push({ id, directoryId, endpoints: [endpoint] });
  }
  return { kind: "initialControllers", voters };
}

function refused(message: string): InitialQuorum & { kind: "refused" } {
  return { kind: "refused", message };
}

/** The metadata directory id --initial-controllers gives this node, if it lists it. */
export function ownDirectoryId(quorum: InitialQuorum, nodeId: NodeId): Uuid | undefined {
  if (quorum.kind !== "initialControllers") return undefined;
  const own = quorum.voters.find((voter) => voter.id === nodeId);
  return own?.directoryId ?? undefined;
}

/**
 * Writes the bootstrap checkpoint of a standalone or initial-controllers quorum into the
 * metadata log dir just formatted with `directoryId`; does nothing for the other choices.
 */
export async function maybeWriteBootstrap(
  config: NodeConfig,
  quorum: InitialQuorum,
  directoryId: Uuid,
  io: FormatIo,
): Promise<void> {
  if (quorum.kind !== "standalone" && quorum.kind !== "initialControllers") return;
  const voters =
    quorum.kind === "initialControllers" ? quorum.voters : [selfVoter(config, directoryId)];
  const written = await writeBootstrapCheckpoint(io.fileSystem, {
    metadataLogDir: config.log.metadataLogDir,
    voters,
    timestamp: io.clock.nowMs(),
  });
  const ids = voters.map((voter) => voter.id).join(",");
  if (written.kind === "exists") {
    io.write(`The metadata log of ${config.log.metadataLogDir} already has a snapshot.`);
  } else io.write(`Bootstrap checkpoint written with voters ${ids}.`);
}

/** This controller as the only voter: its id, metadata directory and controller listeners. */
function selfVoter(config: NodeConfig, directoryId: Uuid): ConfiguredVoter {
  const endpoints = config.listeners
    .filter((listener) => config.controllerListenerNames.includes(listener.name))
    .map(({ name, host, port }) => ({ name, host, port }));
  return { id: config.nodeId ?? -1, directoryId, endpoints };
}
