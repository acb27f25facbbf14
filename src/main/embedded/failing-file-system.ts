/**
 * The embedded cluster's disk: the real file system, where a folder can be made to fail as a
 * broken disk does. Once `fail(dir)` is called, every call on a path inside `dir`, and every
 * read, write, sync or truncate of a file already open there, fails with EIO; closing a file still
 * releases it. `repair(dir)` ends the failure (a new disk in its place, holding the old files).
 *
 * Unless made `durable`, its syncs (fsync, fdatasync, a folder's fsync) stop at the failure check
 * and never reach the disk: the cluster's files need not survive a power cut of the machine (a
 * stopped node's writes stay in the page cache of the process's own machine), and a sync on a
 * shared disk costs tens of milliseconds, which the Raft quorum pays at each vote and append.
 */
import {
  FileSystemError,
  type FileHandle,
  type FileStat,
  type FileSystem,
  type OpenOptions,
  type VolumeSpace,
} from "../../ports/index.js";

export class FailingFileSystem implements FileSystem {
  private readonly failed = new Set<string>();

  constructor(
    private readonly inner: FileSystem,
    /** Whether syncs reach the disk. */
    readonly isDurable: boolean,
  ) {}

  fail(dir: string): void {
    this.failed.add(trimmed(dir));
  }

  repair(dir: string): void {
    this.failed.delete(trimmed(dir));
  }

  /** Throws EIO for `syscall` when `path` is inside a failed folder. */
  check(syscall: string, path: string): void {
    for (const dir of this.failed) {
      if (path === dir || path.startsWith(`${dir}/`)) {
        throw new FileSystemError("EIO", syscall, path);
      }
    }
  }

  async open(path: string, options?: OpenOptions): Promise<FileHandle> {
    this.check("open", path);
    return new FailingFileHandle(await this.inner.open(path, options), this);
  }

  async rename(from: string, to: string): Promise<void> {
    this.check("rename", from);
    this.check("rename", to);
    return this.inner.rename(from, to);
  }

  async readdir(path: string): Promise<string[]> {
    this.check("readdir", path);
    return this.inner.readdir(path);
  }

  async unlink(path: string): Promise<void> {
    this.check("unlink", path);
    return this.inner.unlink(path);
  }

  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    this.check("mkdir", path);
    return this.inner.mkdir(path, options);
  }

  async rmdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    this.check("rmdir", path);
    return this.inner.rmdir(path, options);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    this.check("stat", path);
    return this.inner.stat(path);
  }

  async syncDirectory(path: string): Promise<void> {
    this.check("fsync", path);
    if (this.isDurable) return this.inner.syncDirectory(path);
  }

  async volumeSpace(path: string): Promise<VolumeSpace | undefined> {
    this.check("statfs", path);
    return this.inner.volumeSpace(path);
  }
}

class FailingFileHandle implements FileHandle {
  constructor(
    private readonly inner: FileHandle,
    private readonly disk: FailingFileSystem,
  ) {}

  get path(): string {
    return this.inner.path;
  }

  async append(data: Uint8Array | readonly Uint8Array[]): Promise<number> {
    this.disk.check("write", this.path);
    return this.inner.append(data);
  }

  async write(data: Uint8Array, position: number): Promise<void> {
    this.disk.check("write", this.path);
    return this.inner.write(data, position);
  }

  async read(
    target: Uint8Array,
    targetOffset: number,
    length: number,
    position: number,
  ): Promise<number> {
    this.disk.check("read", this.path);
    return this.inner.read(target, targetOffset, length, position);
  }

  async size(): Promise<number> {
    this.disk.check("fstat", this.path);
    return this.inner.size();
  }

  async sync(): Promise<void> {
    this.disk.check("fsync", this.path);
    if (this.disk.isDurable) return this.inner.sync();
  }

  async datasync(): Promise<void> {
    this.disk.check("fdatasync", this.path);
    if (this.disk.isDurable) return this.inner.datasync();
  }

  async truncate(length: number): Promise<void> {
    this.disk.check("ftruncate", this.path);
    return this.inner.truncate(length);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function trimmed(dir: string): string {
  return dir.endsWith("/") ? dir.slice(0, -1) : dir;
}
