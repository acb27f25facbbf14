/**
 * The file-system port: every byte Sluice keeps goes through it, so the same storage code runs on
 * the real disk and on the simulator's disk with injected faults.
 */

export type FileSystemErrorCode =
  | "ENOENT"
  | "EEXIST"
  | "ENOTDIR"
  | "EISDIR"
  | "ENOTEMPTY"
  | "EIO"
  | "ENOSPC"
  | "EBADF"
  | "EACCES"
  /** The process has as many open files as its limit allows (RLIMIT_NOFILE). */
  | "EMFILE"
  /** The system as a whole has as many open files as it allows. */
  | "ENFILE"
  | "EOTHER";

/** A failed FileSystem call. Adapters translate every platform error into this one class. */
export class FileSystemError extends Error {
  override readonly name = "FileSystemError";
  constructor(
    readonly code: FileSystemErrorCode,
    readonly syscall: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${syscall} ${path}`, options);
  }
}

/** True when `error` is a FileSystemError, and of `code` when one is given. */
export function isFileSystemError(
  error: unknown,
  code?: FileSystemErrorCode,
): error is FileSystemError {
  return error instanceof FileSystemError && (code === undefined || error.code === code);
}

/**
 * True when `error` says the process or the system ran out of file descriptors (EMFILE, ENFILE):
 * a resource limit, not a failure of the disk.
 */
export function isDescriptorExhaustion(error: unknown): boolean {
  return isFileSystemError(error, "EMFILE") || isFileSystemError(error, "ENFILE");
}

export interface FileStat {
  readonly size: number;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly modifiedMs: number;
}

export interface OpenOptions {
  /** Create the file when it does not exist (default false: fail with ENOENT). */
  readonly create?: boolean;
  /** With `create`: fail with EEXIST when the file exists. */
  readonly exclusive?: boolean;
  readonly truncate?: boolean;
  /** Open for reading only; writes fail with EBADF. */
  readonly readOnly?: boolean;
}

/** An open file. Positions and lengths are in bytes. */
export interface FileHandle {
  readonly path: string;
  /** Writes `data` at the end of the file; resolves to the position it was written at. */
  append(data: Uint8Array | readonly Uint8Array[]): Promise<number>;
  /** Writes `data` at `position`, extending the file when needed. */
  write(data: Uint8Array, position: number): Promise<void>;
  /**
   * Reads up to `length` bytes at `position` into `target` at `targetOffset`; resolves to the
   * number of bytes read, fewer only at the end of the file.
   */
  read(target: Uint8Array, targetOffset: number, length: number, position: number): Promise<number>;
  /** The current length of the file, including writes not yet synced. */
  size(): Promise<number>;
  /** Makes data and metadata durable (fsync). */
  sync(): Promise<void>;
  /** Makes data durable (fdatasync). */
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export interface FileSystem {
  open(path: string, options?: OpenOptions): Promise<FileHandle>;
  /** Atomically replaces `to` with `from`. Durable only after syncDirectory of the parent. */
  rename(from: string, to: string): Promise<void>;
  /** Names (not paths) of the entries in a folder, sorted. */
  readdir(path: string): Promise<string[]>;
  unlink(path: string): Promise<void>;
  /** Creates a folder; with `recursive`, also its parents, and an existing folder is fine. */
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** Removes an empty folder, or with `recursive` a folder and everything below it. */
  rmdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** Resolves to undefined when nothing exists at `path`. */
  stat(path: string): Promise<FileStat | undefined>;
  /** Makes the entries of a folder (creations, renames, deletions) durable. */
  syncDirectory(path: string): Promise<void>;
  /**
   * The size of the volume holding `path` and the bytes an unprivileged writer may still use
   * there (statfs), or undefined when this file system cannot tell.
   */
  volumeSpace(path: string): Promise<VolumeSpace | undefined>;
}

/** The space of a volume, in bytes. */
export interface VolumeSpace {
  readonly totalBytes: number;
  readonly usableBytes: number;
}
