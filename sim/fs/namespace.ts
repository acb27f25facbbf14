import {
  FileSystemError,
  type FileStat,
  type FileSystemErrorCode,
  type VolumeSpace,
} from "../../src/ports/index.js";
import {
  DirectoryInode,
  FileInode,
  splitPath,
  treeBytes,
  type Inode,
  type UnsyncedChange,
} from "./inodes.js";

/** Throws the FileSystemError a failed call gets. */
export function fail(code: FileSystemErrorCode, syscall: string, path: string): never {
  throw new FileSystemError(code, syscall, path);
}

/** Options of Namespace.open, as in the FileSystem port. */
export interface NamespaceOpenOptions {
  readonly create?: boolean;
  readonly exclusive?: boolean;
  readonly truncate?: boolean;
}

/**
 * The folder tree and file contents of one simulated disk, with synchronous operations that
 * change it or throw a FileSystemError. Latency, faults and crashes are added by SimFileSystem.
 * Space is counted over the files that have a name; a file's bytes are freed when its name goes.
 */
export class Namespace {
  root = new DirectoryInode(0);
  usedBytes = 0;

  constructor(
    private readonly capacityBytes: number,
    private readonly nowMs: () => number,
  ) {}

  /** The inode at `path`, or undefined; a file in the middle of the path is ENOTDIR. */
  lookup(path: string, syscall: string): Inode | undefined {
    let inode: Inode = this.root;
    for (const part of splitPath(path)) {
      if (inode.kind !== "directory") fail("ENOTDIR", syscall, path);
      const child = inode.entries.get(part);
      if (child === undefined) return undefined;
      inode = child;
    }
    return inode;
  }

  /** The folder that holds `path` and the name in it. */
  parentOf(path: string, syscall: string): { directory: DirectoryInode; name: string } {
    const parts = splitPath(path);
    const name = parts.pop();
    if (name === undefined) fail("EISDIR", syscall, path);
    const parent = this.lookup(parts.join("/"), syscall);
    if (parent === undefined) fail("ENOENT", syscall, path);
    if (parent.kind !== "directory") fail("ENOTDIR", syscall, path);
    return { directory: parent, name };
  }

  open(path: string, options: NamespaceOpenOptions): FileInode {
    const { directory, name } = this.parentOf(path, "open");
    let inode = directory.entries.get(name);
    if (inode?.kind === "directory") fail("EISDIR", "open", path);
    if (inode !== undefined && options.create === true && options.exclusive === true) {
      fail("EEXIST", "open", path);
    }
    if (inode === undefined) {
      if (options.create !== true) fail("ENOENT", "open", path);
      inode = new FileInode(this.nowMs());
      directory.entries.set(name, inode);
      directory.modifiedMs = this.nowMs();
    }
    if (options.truncate === true && inode.content.length > 0) {
      this.change(inode, { kind: "truncate", length: 0 }, "open", path);
    }
    return inode;
  }

  /** Applies a change to a file's contents, refusing growth beyond the disk's capacity. */
  change(inode: FileInode, change: UnsyncedChange, syscall: string, path: string): void {
    const before = inode.content.length;
    const after =
      change.kind === "write"
        ? Math.max(before, change.position + change.data.length)
        : change.length;
    if (after > before && this.usedBytes + (after - before) > this.capacityBytes) {
      fail("ENOSPC", syscall, path);
    }
    inode.apply(change);
    inode.modifiedMs = this.nowMs();
    this.usedBytes += after - before;
  }

  rename(from: string, to: string): void {
    const source = this.parentOf(from, "rename");
    const inode = source.directory.entries.get(source.name);
    if (inode === undefined) fail("ENOENT", "rename", from);
    const target = this.parentOf(to, "rename");
    const replaced = target.directory.entries.get(target.name);
    if (replaced === inode) return;
    if (inode.kind === "directory" && this.isInside(inode, target.directory)) {
      fail("EOTHER", "rename", to);
    }
    if (replaced !== undefined) this.checkReplaceable(inode, replaced, to);
    if (replaced !== undefined) this.usedBytes -= treeBytes(replaced);
    target.directory.entries.set(target.name, inode);
    source.directory.entries.delete(source.name);
    source.directory.modifiedMs = this.nowMs();
    target.directory.modifiedMs = this.nowMs();
  }

  readdir(path: string): string[] {
    const inode = this.lookup(path, "readdir");
    if (inode === undefined) fail("ENOENT", "readdir", path);
    if (inode.kind !== "directory") fail("ENOTDIR", "readdir", path);
    return [...inode.entries.keys()].sort((left, right) =>
      left < right ? -1 : left > right ? 1 : 0,
    );
  }

  unlink(path: string): void {
    const { directory, name } = this.parentOf(path, "unlink");
    const inode = directory.entries.get(name);
    if (inode === undefined) fail("ENOENT", "unlink", path);
    if (inode.kind === "directory") fail("EISDIR", "unlink", path);
    directory.entries.delete(name);
    directory.modifiedMs = this.nowMs();
    this.usedBytes -= inode.content.length;
  }

  mkdir(path: string, isRecursive: boolean): void {
    if (!isRecursive) {
      const { directory, name } = this.parentOf(path, "mkdir");
      if (directory.entries.has(name)) fail("EEXIST", "mkdir", path);
      directory.entries.set(name, new DirectoryInode(this.nowMs()));
      directory.modifiedMs = this.nowMs();
      return;
    }
    let directory = this.root;
    for (const part of splitPath(path)) {
      let child = directory.entries.get(part);
      if (child === undefined) {
        child = new DirectoryInode(this.nowMs());
        directory.entries.set(part, child);
        directory.modifiedMs = this.nowMs();
      }
      if (child.kind !== "directory") fail("EEXIST", "mkdir", path);
      directory = child;
    }
  }

  rmdir(path: string, isRecursive: boolean): void {
    const { directory, name } = this.parentOf(path, "rmdir");
    const inode = directory.entries.get(name);
    if (inode === undefined) fail("ENOENT", "rmdir", path);
    if (inode.kind !== "directory") fail("ENOTDIR", "rmdir", path);
    if (!isRecursive && inode.entries.size > 0) fail("ENOTEMPTY", "rmdir", path);
    directory.entries.delete(name);
    directory.modifiedMs = this.nowMs();
    this.usedBytes -= treeBytes(inode);
  }

  volumeSpace(path: string): VolumeSpace | undefined {
    const inode = this.lookup(path, "volumeSpace");
    if (inode === undefined) fail("ENOENT", "volumeSpace", path);
    if (!Number.isFinite(this.capacityBytes)) return undefined;
    return {
      totalBytes: this.capacityBytes,
      usableBytes: Math.max(0, this.capacityBytes - this.usedBytes),
    };
  }

  stat(path: string): FileStat | undefined {
    const inode = this.lookup(path, "stat");
    if (inode === undefined) return undefined;
    return {
      size: inode.kind === "file" ? inode.content.length : 0,
      isFile: inode.kind === "file",
      isDirectory: inode.kind === "directory",
      modifiedMs: inode.modifiedMs,
    };
  }

  syncDirectory(path: string): void {
    const inode = this.lookup(path, "syncDirectory");
    if (inode === undefined) fail("ENOENT", "syncDirectory", path);
    if (inode.kind !== "directory") fail("ENOTDIR", "syncDirectory", path);
    inode.sync();
  }

  /** Recounts the used space from the tree (after a crash changed it wholesale). */
  recount(): void {
    this.usedBytes = treeBytes(this.root);
  }

  private checkReplaceable(inode: Inode, replaced: Inode, to: string): void {
    if (inode.kind === "file" && replaced.kind === "directory") fail("EISDIR", "rename", to);
    if (inode.kind === "directory" && replaced.kind === "file") fail("ENOTDIR", "rename", to);
    if (replaced.kind === "directory" && replaced.entries.size > 0) {
      fail("ENOTEMPTY", "rename", to);
    }
  }

  /** True when `directory` is `ancestor` or below it. */
  private isInside(ancestor: DirectoryInode, directory: DirectoryInode): boolean {
    if (ancestor === directory) return true;
    for (const child of ancestor.entries.values()) {
      if (child.kind === "directory" && this.isInside(child, directory)) return true;
    }
    return false;
  }
}
