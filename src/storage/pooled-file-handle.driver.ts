/**
 * A file handle of the FileHandlePool: the file stays known by its path while its descriptor
 * comes and goes. Every operation takes the descriptor for its own call only (opening the file
 * again when the pool closed it while idle), so a handle costs a descriptor only while used.
 *
 * States: open (descriptor held or not), then closed (final). A handle whose file was unlinked
 * or whose folder was removed while it was open keeps its descriptor until it is closed, as a
 * plain descriptor keeps reading an unlinked file.
 */
import { FileSystemError, type FileHandle } from "../ports/index.js";

/** What a handle asks of its pool. */
export interface HandleSlots {
  /**
   * Opens the file at the handle's path again (never creating it), once there is room for one
   * more descriptor; the handle then holds it.
   */
  reopen(handle: PooledFileHandle): Promise<FileHandle>;
  /** The handle used its descriptor (it becomes the most recently used). */
  touched(handle: PooledFileHandle): void;
  /** The handle is idle again (a waiter may take its place). */
  released(handle: PooledFileHandle): void;
  /** The handle gave its descriptor back (closed, or opened too late to be kept). */
  dropped(handle: PooledFileHandle): void;
}

export class PooledFileHandle implements FileHandle {
  private descriptor: FileHandle | undefined;
  private opening: Promise<FileHandle> | undefined;
  private inUse = 0;
  private isClosed = false;
  /** A failure of closing the idle descriptor, reported by the next operation. */
  private closeError: unknown;
  /** True once the file lost its name while open: the descriptor is then never closed idle. */
  isUnlinked = false;

  constructor(
    private currentPath: string,
    readonly isReadOnly: boolean,
    private readonly slots: HandleSlots,
    descriptor: FileHandle,
  ) {
    this.descriptor = descriptor;
  }

  get path(): string {
    return this.currentPath;
  }

  /** True while the handle holds a descriptor or is opening one. */
  get hasDescriptor(): boolean {
    return this.descriptor !== undefined || this.opening !== undefined;
  }

  /** True when the pool may close the descriptor now. */
  get isIdle(): boolean {
    return this.descriptor !== undefined && this.inUse === 0 && !this.isUnlinked;
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  /** The file was renamed (or its folder was) through the pool. */
  movedTo(path: string): void {
    this.currentPath = path;
  }

  /** Closes the idle descriptor; the next operation opens the file again. */
  async closeIdle(): Promise<void> {
    const descriptor = this.descriptor;
    if (descriptor === undefined) return;
    this.descriptor = undefined;
    try {
      await descriptor.close();
    } catch (error) {
      this.closeError = error;
    }
  }

  /** Runs `operation` with the descriptor, opening the file first when needed. */
  async use<T>(syscall: string, operation: (descriptor: FileHandle) => Promise<T>): Promise<T> {
    // Counted as in use from the start, so that the pool never closes a descriptor between its
    // opening and its use.
    this.inUse += 1;
    try {
      const held = this.descriptor;
      // The fast path stays synchronous up to the call, so that operations issued back to back
      // (appends) reach the descriptor in issue order.
      const descriptor =
        held !== undefined && !this.isClosed && this.closeError === undefined
          ? held
          : await this.acquire(syscall);
      this.slots.touched(this);
      return await operation(descriptor);
    } finally {
      this.inUse -= 1;
      if (this.inUse === 0) this.slots.released(this);
    }
  }

  append(data: Uint8Array | readonly Uint8Array[]): Promise<number> {
    return this.use("append", (descriptor) => descriptor.append(data));
  }

  write(data: Uint8Array, position: number): Promise<void> {
    return this.use("write", (descriptor) => descriptor.write(data, position));
  }

  read(target: Uint8Array, targetOffset: number, length: number, position: number) {
    return this.use("read", (descriptor) =>
      descriptor.read(target, targetOffset, length, position),
    );
  }

  size(): Promise<number> {
    return this.use("fstat", (descriptor) => descriptor.size());
  }

  sync(): Promise<void> {
    return this.use("fsync", (descriptor) => descriptor.sync());
  }

  datasync(): Promise<void> {
    return this.use("fdatasync", (descriptor) => descriptor.datasync());
  }

  truncate(length: number): Promise<void> {
    return this.use("ftruncate", (descriptor) => descriptor.truncate(length));
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    // A reopen under way sees the handle closed and gives its descriptor back itself.
    await this.opening?.then(
      () => undefined,
      () => undefined,
    );
    const descriptor = this.descriptor;
    this.descriptor = undefined;
    this.slots.dropped(this);
    if (descriptor !== undefined) await descriptor.close();
    const closeError = this.closeError;
    this.closeError = undefined;
    if (closeError !== undefined) throw closeError;
  }

  private async acquire(syscall: string): Promise<FileHandle> {
    if (this.isClosed) throw new FileSystemError("EBADF", syscall, this.currentPath);
    const closeError = this.closeError;
    if (closeError !== undefined) {
      this.closeError = undefined;
      throw closeError;
    }
    if (this.descriptor !== undefined) return this.descriptor;
    if (this.opening === undefined) this.opening = this.openAgain();
    try {
      return await this.opening;
    } finally {
      this.opening = undefined;
    }
  }

  private async openAgain(): Promise<FileHandle> {
    const descriptor = await this.slots.reopen(this);
    if (this.isClosed) {
      this.slots.dropped(this);
      await descriptor.close();
      throw new FileSystemError("EBADF", "open", this.currentPath);
    }
    this.descriptor = descriptor;
    return descriptor;
  }
}

/**
 * Makes `handle` hold its descriptor now when it is a pool's handle without one, so that the
 * operations right after it need no new descriptor; nothing for other handles.
 */
export async function ensureDescriptor(handle: FileHandle): Promise<void> {
  if (lacksDescriptor(handle)) await handle.size();
}

/** True when `handle` is a pool's handle whose descriptor the pool closed. */
export function lacksDescriptor(handle: FileHandle): boolean {
  return handle instanceof PooledFileHandle && !handle.hasDescriptor;
}
