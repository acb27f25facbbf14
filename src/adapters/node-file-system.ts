import { constants, promises as fs } from "node:fs";
import type { FileStat, FileSystem, OpenOptions, VolumeSpace } from "../ports/index.js";
import { toFileSystemError, translateErrors } from "./file-system-error.js";
import { NodeFileHandle } from "./node-file-handle.js";

function openFlags(options: OpenOptions): number {
  let flags = options.readOnly === true ? constants.O_RDONLY : constants.O_RDWR;
  if (options.create === true) flags |= constants.O_CREAT;
  if (options.create === true && options.exclusive === true) flags |= constants.O_EXCL;
  if (options.truncate === true) flags |= constants.O_TRUNC;
  return flags;
}

/** The real disk through node:fs/promises. Every failure is a FileSystemError. */
export class NodeFileSystem implements FileSystem {
  async open(path: string, options: OpenOptions = {}): Promise<NodeFileHandle> {
    const handle = await translateErrors("open", path, () => fs.open(path, openFlags(options)));
    try {
      const stat = await handle.stat();
      // Opening a folder read-only succeeds on Linux; the port promises files only.
      if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
      return new NodeFileHandle(path, handle, stat.size, options.readOnly === true);
    } catch (error) {
      await handle.close();
      throw toFileSystemError(error, "open", path);
    }
  }

  async rename(from: string, to: string): Promise<void> {
    await translateErrors("rename", `${from} -> ${to}`, () => fs.rename(from, to));
  }

  async readdir(path: string): Promise<string[]> {
    const names = await translateErrors("readdir", path, () => fs.readdir(path));
    // Compare by code unit, not locale, so that the order is the same on every machine.
    return names.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  }

  async unlink(path: string): Promise<void> {
    await translateErrors("unlink", path, () => fs.unlink(path));
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await translateErrors("mkdir", path, () =>
      fs.mkdir(path, { recursive: options.recursive === true }),
    );
  }

  async rmdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await translateErrors("rmdir", path, async () => {
      if (options.recursive !== true) return fs.rmdir(path);
      // fs.rm also removes files; check first so that rmdir of a file still fails as rmdir(2).
      const stat = await fs.stat(path);
      if (!stat.isDirectory()) throw Object.assign(new Error("not a dir"), { code: "ENOTDIR" });
      return fs.rm(path, { recursive: true });
    });
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const stat = await fs.stat(path);
      return {
        size: stat.size,
        isFile: stat.isFile(),
        isDirectory: stat.isDirectory(),
        modifiedMs: stat.mtimeMs,
      };
    } catch (error) {
      const translated = toFileSystemError(error, "stat", path);
      if (translated.code === "ENOENT") return undefined;
      throw translated;
    }
  }

  async volumeSpace(path: string): Promise<VolumeSpace> {
    const stats = await translateErrors("statfs", path, () => fs.statfs(path));
    return { totalBytes: stats.blocks * stats.bsize, usableBytes: stats.bavail * stats.bsize };
  }

  async syncDirectory(path: string): Promise<void> {
    // A folder's entries become durable only when the folder itself is fsynced (rename, create
    // and unlink change the folder, not the file).
    const handle = await translateErrors("open", path, () => fs.open(path, constants.O_RDONLY));
    try {
      await translateErrors("fsync", path, () => handle.sync());
    } finally {
      await handle.close();
    }
  }
}
