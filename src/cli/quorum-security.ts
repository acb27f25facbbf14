/**
 * `--command-config FILE` for the `sluice quorum` commands, as kafka-metadata-quorum.sh takes
 * it: the controller listener's TLS and SASL for the connections they open (command-config.ts
 * reads the file). Without the option the connections are plain.
 */
import {
  withConnection,
  type ClientConnection,
  type ClientOptions,
  type ClientPorts,
} from "../client/index.js";
import type { Address, Crypto, FileSystem } from "../ports/index.js";
import { CommandConfigProblem, commandSecurityOf } from "./command-config.js";
import { EXIT, type CommandOutput } from "./command-options.js";

/** What reading `--command-config` takes: the file, and hashes for SCRAM. */
interface CommandConfigFiles {
  readonly fileSystem?: FileSystem | undefined;
  readonly crypto?: Crypto | undefined;
}

/** The connection options `--command-config path` gives, or the problem with the file. */
export async function quorumConnectionOptions(
  io: CommandConfigFiles,
  path: string | undefined,
): Promise<Partial<ClientOptions> | { readonly problem: string }> {
  if (path === undefined) return {};
  const { fileSystem, crypto } = io;
  if (fileSystem === undefined) return { problem: "--command-config: no files to read" };
  try {
    return { security: await commandSecurityOf({ fileSystem, crypto }, path) };
  } catch (error) {
    if (error instanceof CommandConfigProblem) return { problem: error.message };
    throw error;
  }
}

/**
 * Runs `action` on a connection to `address` secured as `--command-config path` says; a problem
 * with the file is printed and exits 1.
 */
export async function withQuorumConnection(
  address: Address,
  io: CommandOutput & ClientPorts & CommandConfigFiles,
  path: string | undefined,
  action: (connection: ClientConnection) => Promise<number>,
): Promise<number> {
  const options = await quorumConnectionOptions(io, path);
  if ("problem" in options) {
    io.error(options.problem);
    return EXIT.failed;
  }
  return withConnection(address, io, action, options);
}
