/**
 * Reading a configuration file through the FileSystem port, then loading the configuration.
 */
import { isFileSystemError, type FileSystem } from "../../ports/index.js";
import { readTextFileIfExists } from "../../storage/index.js";
import type { ConfigInput } from "./load-config.js";
import { loadNodeConfig } from "./load-config.js";
import type { NodeConfigResult } from "./node-config.js";
import { SINGLE_NODE_PRESET } from "./single-node.js";

/** What the command line gives: a file (or none, for the single-node preset), env and flags. */
export interface ConfigRequest {
  readonly configPath: string | undefined;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly flags: readonly string[];
}

/** A file that could not be read, besides every outcome of loadNodeConfig. */
export type ConfigFileResult =
  NodeConfigResult | { readonly kind: "unreadable"; readonly message: string };

/** Reads `request.configPath` (or takes the single-node preset) and loads the configuration. */
export async function loadNodeConfigFrom(
  fileSystem: FileSystem,
  request: ConfigRequest,
): Promise<ConfigFileResult> {
  const input: Omit<ConfigInput, "base"> = {
    environment: request.environment,
    flags: request.flags,
  };
  const path = request.configPath;
  if (path === undefined) return loadNodeConfig({ ...input, base: SINGLE_NODE_PRESET });
  let text: string | undefined;
  try {
    text = await readTextFileIfExists(fileSystem, path);
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    return { kind: "unreadable", message: `cannot read ${path}: ${error.message}` };
  }
  if (text === undefined) return { kind: "unreadable", message: `${path} does not exist` };
  return loadNodeConfig({ ...input, base: { kind: "file", path, text } });
}
