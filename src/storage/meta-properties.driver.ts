/**
 * Reading, writing and checking a log dir's meta.properties on the FileSystem port.
 */
import { joinPath } from "../common/index.js";
import type { FileSystem } from "../ports/index.js";
import { readTextFileIfExists, writeTextFileAtomically } from "./atomic-file.driver.js";
import { parsedOrThrow } from "./malformed-file-error.js";
import {
  checkIdentity,
  formatMetaProperties,
  LogDirIdentityError,
  META_PROPERTIES_FILE,
  parseMetaProperties,
  parseStoredMetaProperties,
  type ExpectedIdentity,
  type MetaProperties,
  type StoredMetaProperties,
  type UnassignedMetaProperties,
} from "./meta-properties.js";

/** The identity of `logDir`, or undefined when it has no meta.properties (not formatted yet). */
export async function readMetaProperties(
  fileSystem: FileSystem,
  logDir: string,
): Promise<MetaProperties | undefined> {
  const path = joinPath(logDir, META_PROPERTIES_FILE);
  const text = await readTextFileIfExists(fileSystem, path);
  if (text === undefined) return undefined;
  return parsedOrThrow(parseMetaProperties(text), path);
}

/**
 * The identity of `logDir` as the start-up of a broker whose id the controller assigns reads it:
 * also a dir formatted without node.id. Undefined when the dir has no meta.properties.
 */
export async function readStoredMetaProperties(
  fileSystem: FileSystem,
  logDir: string,
): Promise<StoredMetaProperties | undefined> {
  const path = joinPath(logDir, META_PROPERTIES_FILE);
  const text = await readTextFileIfExists(fileSystem, path);
  if (text === undefined) return undefined;
  return parsedOrThrow(parseStoredMetaProperties(text), path);
}

/** Writes `properties` as the identity of `logDir`, atomically, dated `nowMs`. */
export async function writeMetaProperties(
  fileSystem: FileSystem,
  logDir: string,
  properties: MetaProperties | UnassignedMetaProperties,
  nowMs: number,
): Promise<void> {
  const path = joinPath(logDir, META_PROPERTIES_FILE);
  await writeTextFileAtomically(fileSystem, path, formatMetaProperties(properties, nowMs));
}

/**
 * The identity of `logDir` after checking it is the expected one: undefined when the dir is not
 * formatted, a LogDirIdentityError when it belongs to another cluster or node, and a
 * MalformedFileError when its meta.properties cannot be read.
 */
export async function verifyLogDirIdentity(
  fileSystem: FileSystem,
  logDir: string,
  expected: ExpectedIdentity,
): Promise<MetaProperties | undefined> {
  const found = await readMetaProperties(fileSystem, logDir);
  if (found === undefined) return undefined;
  const check = checkIdentity(found, expected);
  if (check.kind !== "match") throw new LogDirIdentityError(logDir, check);
  return found;
}
