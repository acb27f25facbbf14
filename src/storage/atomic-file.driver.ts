/**
 * Whole-file reads and crash-safe whole-file replacement on the FileSystem port, the protocol
 * Kafka uses for every checkpoint and properties file: write `<name>.tmp`, fsync it, rename it
 * over `<name>`, fsync the folder. After a crash at any step the file is the old one or the new
 * one, never a mix.
 */
import { dirname } from "../common/index.js";
import { isFileSystemError, type FileHandle, type FileSystem } from "../ports/index.js";
import { MalformedFileError } from "./malformed-file-error.js";

/** The suffix of the temporary file a replacement is written to first. */
export const TEMPORARY_FILE_SUFFIX = ".tmp";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Replaces the file at `path` with `data`, atomically and durably. */
export async function writeFileAtomically(
  fileSystem: FileSystem,
  path: string,
  data: Uint8Array,
): Promise<void> {
  const temporaryPath = `${path}${TEMPORARY_FILE_SUFFIX}`;
  const handle = await fileSystem.open(temporaryPath, { create: true, truncate: true });
  try {
    await handle.write(data, 0);
    // The data must be durable before the rename makes it visible under the real name.
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fileSystem.rename(temporaryPath, path);
  await fileSystem.syncDirectory(dirname(path));
}

/** Replaces the file at `path` with the UTF-8 bytes of `text`, atomically and durably. */
export async function writeTextFileAtomically(
  fileSystem: FileSystem,
  path: string,
  text: string,
): Promise<void> {
  await writeFileAtomically(fileSystem, path, encoder.encode(text));
}

/** The whole content of the file at `path`, or undefined when there is no such file. */
export async function readFileIfExists(
  fileSystem: FileSystem,
  path: string,
): Promise<Uint8Array | undefined> {
  let handle;
  try {
    handle = await fileSystem.open(path, { readOnly: true });
  } catch (error) {
    if (isFileSystemError(error, "ENOENT")) return undefined;
    throw error;
  }
  try {
    return await readAll(handle);
  } finally {
    await handle.close();
  }
}

/**
 * The text of the file at `path`, or undefined when there is no such file. Bytes that are not
 * UTF-8 are a MalformedFileError.
 */
export async function readTextFileIfExists(
  fileSystem: FileSystem,
  path: string,
): Promise<string | undefined> {
  const bytes = await readFileIfExists(fileSystem, path);
  if (bytes === undefined) return undefined;
  try {
    return decoder.decode(bytes);
  } catch (cause) {
    throw new MalformedFileError(path, "not UTF-8 text", { cause });
  }
}

/** Reads from position 0 to the end of the file. */
async function readAll(handle: FileHandle): Promise<Uint8Array> {
  const size = await handle.size();
  const bytes = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    const count = await handle.read(bytes, filled, size - filled, filled);
    // The file shrank while we read it; what was read is all there is.
    if (count === 0) return bytes.subarray(0, filled);
    filled += count;
  }
  return bytes;
}

/** Syncs the file at `path` to the disk, if it is there (a file deleted since needs nothing). */
export async function syncFileIfExists(fileSystem: FileSystem, path: string): Promise<void> {
  if ((await fileSystem.stat(path)) === undefined) return;
  const handle = await fileSystem.open(path);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
