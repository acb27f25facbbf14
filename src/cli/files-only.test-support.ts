/**
 * A read-only in-memory disk of whole files for the tests of `sluice dump-log`, a tool that only
 * reads: every call that would change the disk fails with EACCES or EBADF.
 */
import {
  FileSystemError,
  type FileHandle,
  type FileStat,
  type FileSystem,
} from "../ports/index.js";

/** A read-only disk of whole files, enough for a tool that only reads. */
export class FilesOnly implements FileSystem {
  constructor(private readonly files: Map<string, Uint8Array>) {}
  private bytesOf(path: string, syscall: string): Uint8Array {
    const bytes = this.files.get(path);
    if (bytes === undefined) throw new FileSystemError("ENOENT", syscall, path);
    return bytes;
  }
  async open(path: string): Promise<FileHandle> {
    const bytes = this.bytesOf(path, "open");
    const refuse = async (): Promise<never> => {
      throw new FileSystemError("EBADF", "write", path);
    };
    return {
      path,
      append: refuse,
      write: refuse,
      truncate: refuse,
      sync: async () => undefined,
      datasync: async () => undefined,
      close: async () => undefined,
      size: async () => bytes.length,
      read: async (target, targetOffset, length, position) => {
        const slice = bytes.subarray(position, position + length);
        target.set(slice, targetOffset);
        return slice.length;
      },
    };
  }
  /** Files only: no volume to measure. */
  async volumeSpace(): Promise<undefined> {
    return undefined;
  }
  async stat(path: string): Promise<FileStat | undefined> {
    const bytes = this.files.get(path);
    if (bytes === undefined) return undefined;
    return { size: bytes.length, isFile: true, isDirectory: false, modifiedMs: 0 };
  }
  async readdir(): Promise<string[]> {
    return [...this.files.keys()];
  }
  rename = (): Promise<void> => Promise.reject(new FileSystemError("EACCES", "rename", ""));
  unlink = (): Promise<void> => Promise.reject(new FileSystemError("EACCES", "unlink", ""));
  mkdir = (): Promise<void> => Promise.reject(new FileSystemError("EACCES", "mkdir", ""));
  rmdir = (): Promise<void> => Promise.reject(new FileSystemError("EACCES", "rmdir", ""));
  syncDirectory = async (): Promise<void> => undefined;
}
