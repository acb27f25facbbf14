/**
 * The JSON files of the administration commands (`reassign`'s plans, `elect-leaders
 * --path-to-json-file`): read whole and parsed, or written atomically; a file that is missing,
 * unreadable or not JSON ends the command with a message naming it.
 */
import { isFileSystemError, type FileSystem } from "../ports/index.js";
import {
  MalformedFileError,
  readTextFileIfExists,
  writeTextFileAtomically,
} from "../storage/index.js";
import { CommandFailure } from "./cluster-session.js";

/** The parsed JSON of the file at `path`. */
export async function readJsonFile(fileSystem: FileSystem, path: string): Promise<unknown> {
  let text: string | undefined;
  try {
    text = await readTextFileIfExists(fileSystem, path);
  } catch (error) {
    if (!isFileSystemError(error) && !(error instanceof MalformedFileError)) throw error;
    throw new CommandFailure(`cannot read ${path}: ${error.message}`);
  }
  if (text === undefined) throw new CommandFailure(`file ${path} does not exist`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CommandFailure(`${path} is not JSON: ${reason}`);
  }
}

/** Writes `value` as JSON to `path`, replacing the file atomically. */
export async function writeJsonFile(
  fileSystem: FileSystem,
  path: string,
  value: unknown,
): Promise<void> {
  try {
    await writeTextFileAtomically(fileSystem, path, `${JSON.stringify(value)}\n`);
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new CommandFailure(`cannot write ${path}: ${error.message}`);
  }
}

/** `value[key]` as an array, or a failure naming what the file lacks. */
export function arrayField(value: unknown, key: string, what: string): unknown[] {
  const field = (value as Record<string, unknown> | null)?.[key];
  if (typeof value !== "object" || value === null || !Array.isArray(field)) {
    throw new CommandFailure(`${what} has no "${key}" array`);
  }
  return field;
}
