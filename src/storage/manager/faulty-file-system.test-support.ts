/**
 * A FileSystem wrapper for the log manager's tests that fails every call touching a path under a
 * chosen prefix with a chosen error code, as a failed disk under one log dir would, including
 * calls through files opened before the failure.
 */
import {
  FileSystemError,
  type FileHandle,
  type FileStat,
  type FileSystem,
  type FileSystemErrorCode,
  type OpenOptions,
} from "../../ports/index.js";

/** Wraps `inner`; `failUnder` turns a dir into a failed disk. */
export class FaultyFileSystem implements FileSystem {
  private readonly failing = new Map<string, FileSystemErrorCode>();

  constructor(readonly inner: FileSystem) {}

  /** Every later call on `prefix` or below it fails with `code`. */
  failUnder(prefix: string, code: FileSystemErrorCode = "EIO"): void {
    this.failing.set(prefix, code);
  }

  /** Throws the injected error when `path` is under a failing prefix. */
  check(syscall: string, path: string): void {
    for (const [prefix, code] of this.failing) {
      if (path === prefix || path.startsWith(`${prefix}/`)) {
        throw new FileSystemError(code, syscall, path);
      }
    }
  }

  async open(path: string, options?: OpenOptions): Promise<FileHandle> {
    this.check("open", path);
    return new FaultyFileHandle(this, await this.inner.open(path, options));
  }

  async rename(from: string, to: string): Promise<void> {
    this.check("rename", from);
    this.check("rename", to);
    await this.inner.rename(from, to);
  }

  async readdir(path: string): Promise<string[]> {
    this.check("readdir", path);
    return this.inner.readdir(path);
  }

  async unlink(path: string): Promise<void> {
    this.check("unlink", path);
    await this.inner.unlink(path);
  }

  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    this.check("mkdir", path);
    await this.inner.mkdir(path, options);
  }

  async rmdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    this.check("rmdir", path);
    await this.inner.rmdir(path, options);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    this.check("stat", path);
    return this.inner.stat(path);
  }

  async syncDirectory(path: string): Promise<void> {
    this.check("syncDirectory", path);
    await this.inner.syncDirectory(path);
  }
}

class FaultyFileHandle implements FileHandle {
  constructor(
    private readonly fileSystem: FaultyFileSystem,
    private readonly inner: FileHandle,
  ) {}

  get path(): string {
    return this.inner.path;
  }

  async append(data: Uint8Array | readonly Uint8Array[]): Promise<number> {
    this.fileSystem.check("append", this.path);
    return this.inner.append(data);
  }

  async write(data: Uint8Array, position: number): Promise<void> {
    this.fileSystem.check("write", this.path);
    await this.inner.write(data, position);
  }

  async read(target: Uint8Array, targetOffset: number, length: number, position: number) {
    this.fileSystem.check("read", this.path);
    return this.inner.read(target, targetOffset, length, position);
  }

  async size(): Promise<number> {
    this.fileSystem.check("size", this.path);
    return this.inner.size();
  }

  async sync(): Promise<void> {
    this.fileSystem.check("sync", this.path);
    await this.inner.sync();
  }

  async datasync(): Promise<void> {
    this.fileSystem.check("datasync", this.path);
    await this.inner.datasync();
  }

  async truncate(length: number): Promise<void> {
    this.fileSystem.check("truncate", this.path);
    await this.inner.truncate(length);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}
