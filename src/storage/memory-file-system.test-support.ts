/**
 * A small in-memory FileSystem for the unit tests of storage files that need a plain disk and
 * nothing more. It keeps no durable state and cannot crash: tests of crashes, durability and
 * injected faults run on the simulator's SimFileSystem in test/storage/.
 */
import { basename, dirname } from "../common/index.js";
import {
  FileSystemError,
  type FileHandle,
  type FileStat,
  type FileSystem,
  type FileSystemErrorCode,
  type OpenOptions,
} from "../ports/index.js";

interface FileNode {
  readonly kind: "file";
  data: Uint8Array;
}

interface DirectoryNode {
  readonly kind: "directory";
  entries: Map<string, Node>;
}

type Node = FileNode | DirectoryNode;

function fail(code: FileSystemErrorCode, syscall: string, path: string): never {
  throw new FileSystemError(code, syscall, path);
}

/** The in-memory disk. Paths are absolute, "/"-separated. */
export class MemoryFileSystem implements FileSystem {
  private readonly root: DirectoryNode = { kind: "directory", entries: new Map() };
  private lookup(path: string): Node | undefined {
    let node: Node = this.root;
    for (const part of path.split("/").filter((name) => name.length > 0)) {
      if (node.kind !== "directory") return undefined;
      const next: Node | undefined = node.entries.get(part);
      if (next === undefined) return undefined;
      node = next;
    }
    return node;
  }

  private parentOf(path: string, syscall: string): DirectoryNode {
    const parent = this.lookup(dirname(path));
    if (parent === undefined) fail("ENOENT", syscall, path);
    if (parent.kind !== "directory") fail("ENOTDIR", syscall, path);
    return parent;
  }

  async open(path: string, options: OpenOptions = {}): Promise<FileHandle> {
    let node = this.lookup(path);
    if (node !== undefined && options.create === true && options.exclusive === true) {
      fail("EEXIST", "open", path);
    }
    if (node === undefined) {
      if (options.create !== true) fail("ENOENT", "open", path);
      node = { kind: "file", data: new Uint8Array(0) };
      this.parentOf(path, "open").entries.set(basename(path), node);
    }
    if (node.kind !== "file") fail("EISDIR", "open", path);
    if (options.truncate === true) node.data = new Uint8Array(0);
    return new MemoryFileHandle(path, node, options.readOnly === true);
  }

  async rename(from: string, to: string): Promise<void> {
    const node = this.lookup(from);
    if (node === undefined) fail("ENOENT", "rename", from);
    const target = this.parentOf(to, "rename");
    this.parentOf(from, "rename").entries.delete(basename(from));
    target.entries.set(basename(to), node);
  }

  async readdir(path: string): Promise<string[]> {
    const node = this.lookup(path);
    if (node === undefined) fail("ENOENT", "readdir", path);
    if (node.kind !== "directory") fail("ENOTDIR", "readdir", path);
    return [...node.entries.keys()].sort();
  }

  async unlink(path: string): Promise<void> {
    const node = this.lookup(path);
    if (node === undefined) fail("ENOENT", "unlink", path);
    if (node.kind !== "file") fail("EISDIR", "unlink", path);
    this.parentOf(path, "unlink").entries.delete(basename(path));
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const parts = path.split("/").filter((name) => name.length > 0);
    let directory = this.root;
    for (const [index, part] of parts.entries()) {
      const existing = directory.entries.get(part);
      const isLast = index === parts.length - 1;
      if (existing === undefined && !isLast && options.recursive !== true)
        fail("ENOENT", "mkdir", path);
      if (existing !== undefined && existing.kind !== "directory") fail("ENOTDIR", "mkdir", path);
      if (existing !== undefined && isLast && options.recursive !== true)
        fail("EEXIST", "mkdir", path);
      if (existing !== undefined && existing.kind === "directory") {
        directory = existing;
        continue;
      }
      const created: DirectoryNode = { kind: "directory", entries: new Map() };
      directory.entries.set(part, created);
      directory = created;
    }
  }

  async rmdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const node = this.lookup(path);
    if (node === undefined) fail("ENOENT", "rmdir", path);
    if (node.kind !== "directory") fail("ENOTDIR", "rmdir", path);
    if (node.entries.size > 0 && options.recursive !== true) fail("ENOTEMPTY", "rmdir", path);
    this.parentOf(path, "rmdir").entries.delete(basename(path));
  }

  /** A memory file system has no volume to measure. */
  async volumeSpace(path: string): Promise<undefined> {
    if (this.lookup(path) === undefined) fail("ENOENT", "statfs", path);
    return undefined;
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const node = this.lookup(path);
    if (node === undefined) return undefined;
    const size = node.kind === "file" ? node.data.length : 0;
    return {
      size,
      isFile: node.kind === "file",
      isDirectory: node.kind === "directory",
      modifiedMs: 0,
    };
  }

  async syncDirectory(path: string): Promise<void> {
    const node = this.lookup(path);
    if (node === undefined) fail("ENOENT", "syncDirectory", path);
    if (node.kind !== "directory") fail("ENOTDIR", "syncDirectory", path);
  }

  /** The current bytes of the file at `path` (for assertions), or undefined. */
  contentOf(path: string): Uint8Array | undefined {
    const node = this.lookup(path);
    return node?.kind === "file" ? node.data.slice() : undefined;
  }
}

/** An open file of a MemoryFileSystem; as a POSIX descriptor, it follows the file, not the name. */
class MemoryFileHandle implements FileHandle {
  private isClosed = false;

  constructor(
    readonly path: string,
    private readonly node: FileNode,
    private readonly isReadOnly: boolean,
  ) {}

  private check(syscall: string, isWrite: boolean): void {
    if (this.isClosed || (isWrite && this.isReadOnly)) fail("EBADF", syscall, this.path);
  }

  async append(data: Uint8Array | readonly Uint8Array[]): Promise<number> {
    const chunks = data instanceof Uint8Array ? [data] : data;
    const position = this.node.data.length;
    this.check("append", true);
    let at = position;
    for (const chunk of chunks) {
      this.place(chunk, at);
      at += chunk.length;
    }
    return position;
  }

  async write(data: Uint8Array, position: number): Promise<void> {
    this.check("write", true);
    this.place(data, position);
  }

  private place(data: Uint8Array, position: number): void {
    const end = Math.max(this.node.data.length, position + data.length);
    if (end > this.node.data.length) {
      const grown = new Uint8Array(end);
      grown.set(this.node.data);
      this.node.data = grown;
    }
    this.node.data.set(data, position);
  }

  async read(
    target: Uint8Array,
    targetOffset: number,
    length: number,
    position: number,
  ): Promise<number> {
    this.check("read", false);
    const bytes = this.node.data.subarray(position, position + length);
    target.set(bytes, targetOffset);
    return bytes.length;
  }

  async size(): Promise<number> {
    this.check("size", false);
    return this.node.data.length;
  }

  async sync(): Promise<void> {
    this.check("sync", false);
  }

  async datasync(): Promise<void> {
    await this.sync();
  }

  async truncate(length: number): Promise<void> {
    this.check("truncate", true);
    const resized = new Uint8Array(length);
    resized.set(this.node.data.subarray(0, length));
    this.node.data = resized;
  }

  async close(): Promise<void> {
    this.check("close", false);
    this.isClosed = true;
  }
}
