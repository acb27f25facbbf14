/**
 * Reading and writing a partition folder's partition.metadata on the FileSystem port.
 */
import { joinPath, type Uuid } from "../common/index.js";
import type { FileSystem } from "../ports/index.js";
import { readTextFileIfExists, writeTextFileAtomically } from "./atomic-file.driver.js";
import { parsedOrThrow } from "./malformed-file-error.js";
import {
  formatPartitionMetadata,
  PARTITION_METADATA_FILE,
  parsePartitionMetadata,
} from "./partition-metadata.js";

/** The topic id recorded in `partitionDir`, or undefined when the file does not exist yet. */
export async function readPartitionMetadata(
  fileSystem: FileSystem,
  partitionDir: string,
): Promise<Uuid | undefined> {
  const path = joinPath(partitionDir, PARTITION_METADATA_FILE);
  const text = await readTextFileIfExists(fileSystem, path);
  if (text === undefined) return undefined;
  return parsedOrThrow(parsePartitionMetadata(text), path);
}

/** Records `topicId` in `partitionDir`, atomically and durably. */
export async function writePartitionMetadata(
  fileSystem: FileSystem,
  partitionDir: string,
  topicId: Uuid,
): Promise<void> {
  const path = joinPath(partitionDir, PARTITION_METADATA_FILE);
  await writeTextFileAtomically(fileSystem, path, formatPartitionMetadata(topicId));
}
