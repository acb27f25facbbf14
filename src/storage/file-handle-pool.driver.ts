/**
 * File descriptors as a budget (`sluice.log.max.open.files`): a FileSystem over another one
 * whose open files hold a descriptor only while they are used. At most `maxOpenFiles`
 * descriptors are held at once; past that the least recently used idle one is closed, and an
 * operation that finds its file closed opens it again by its path. Renames and removals through
 * the pool carry the paths of the handles along, so a handle follows its file as a descriptor
 * would.
 *
 * When every held descriptor is busy, a new one waits for the first to go idle: operations hold
 * a descriptor for one call only, so the wait ends. Running out of descriptors in the process
 * (EMFILE, ENFILE) closes idle ones and tries once more before the error reaches the caller.
 */
import { assert } from "../common/index.js";
import {
  isDescriptorExhaustion,
  type FileHandle,
  type FileStat,
  type FileSystem,
  type Logger,
  type OpenOptions,
  type VolumeSpace,
} from "../ports/index.js";
import { HandlePaths } from "./handle-paths.js";
import { PooledFileHandle, type HandleSlots } from "./pooled-file-handle.driver.js";

/** What the pool reports of itself, for metrics and tests. */
export interface FileHandlePoolStats {
  /** Descriptors held now, or being opened. */
  readonly openFiles: number;
  /** The most held at any one time. */
  readonly openFilesPeak: number;
  /** Descriptors closed while idle to make room. */
  readonly idleCloses: number;
}

export class FileHandlePool implements FileSystem, HandleSlots {
  /** The handles that hold a descriptor, least recently used first. */
  private readonly holding = new Map<PooledFileHandle, true>();
  /** Every handle not yet closed, so that renames and removals can carry their paths. */
  private readonly handles = new HandlePaths<PooledFileHandle>();
  private pendingOpens = 0;
  private readonly waiters: (() => void)[] = [];
  /** Renames under way, by the path they move. */
  private readonly renames = new Map<string, Promise<void>>();
  private peak = 0;
  private idleCloses = 0;

  /** True from a descriptor exhaustion that reached a caller until the next open succeeds. */
  private isExhausted = false;

  constructor(
    private readonly inner: FileSystem,
    readonly maxOpenFiles: number,
    private readonly logger?: Logger,
  ) {
    assert(Number.isSafeInteger(maxOpenFiles) && maxOpenFiles >= 1, "maxOpenFiles >= 1");
  }

  stats(): FileHandlePoolStats {
    const { peak: openFilesPeak, idleCloses } = this;
    return { openFiles: this.holding.size + this.pendingOpens, openFilesPeak, idleCloses };
  }

  async open(path: string, options: OpenOptions = {}): Promise<FileHandle> {
    const isReadOnly = options.readOnly === true;
    let opened: PooledFileHandle | undefined;
    await this.openDescriptor(path, options, (descriptor) => {
      opened = new PooledFileHandle(path, isReadOnly, this, descriptor);
      this.handles.add(opened);
      this.holding.set(opened, true);
    });
    assert(opened !== undefined, "an open that resolves made its handle");
    return opened;
  }

  async reopen(handle: PooledFileHandle): Promise<FileHandle> {
    // A rename under way would make the path wrong by the time the open runs.
    for (let rename = this.renameCovering(handle.path); rename;) {
      await rename;
      rename = this.renameCovering(handle.path);
    }
    let reopened: FileHandle | undefined;
    await this.openDescriptor(handle.path, { readOnly: handle.isReadOnly }, (descriptor) => {
      reopened = descriptor;
      if (handle.isOpen) this.holding.set(handle, true);
    });
    assert(reopened !== undefined, "a reopen that resolves has its descriptor");
    return reopened;
  }

  touched(handle: PooledFileHandle): void {
    if (!this.holding.has(handle)) return;
    this.holding.delete(handle);
    this.holding.set(handle, true);
  }

  released(): void {
    this.wakeOne();
  }

  dropped(handle: PooledFileHandle): void {
    this.holding.delete(handle);
    if (!handle.isOpen) this.handles.delete(handle);
    this.wakeOne();
  }

  async rename(from: string, to: string): Promise<void> {
    // A file the rename replaces loses its name, as by an unlink: its handles keep it open.
    await this.keepOpenWhileRemoving(this.handles.under(to));
    const renamed = this.inner.rename(from, to).then(() => {
      for (const handle of this.handles.under(from)) {
        this.handles.delete(handle);
        handle.movedTo(to + handle.path.slice(from.length));
        this.handles.add(handle);
      }
    });
    const settled = renamed.then(
      () => undefined,
      () => undefined,
    );
    this.renames.set(from, settled);
    try {
      await renamed;
    } finally {
      if (this.renames.get(from) === settled) this.renames.delete(from);
    }
  }

  async unlink(path: string): Promise<void> {
    await this.keepOpenWhileRemoving(this.handles.under(path));
    await this.inner.unlink(path);
  }

  async rmdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    await this.keepOpenWhileRemoving(this.handles.under(path));
    await this.inner.rmdir(path, options);
  }

  readdir(path: string): Promise<string[]> {
    return this.inner.readdir(path);
  }

  mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    return this.inner.mkdir(path, options);
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.inner.stat(path);
  }

  syncDirectory(path: string): Promise<void> {
    return this.inner.syncDirectory(path);
  }

  volumeSpace(path: string): Promise<VolumeSpace | undefined> {
    return this.inner.volumeSpace(path);
  }

  /**
   * A file removed while a handle is open stays readable through it, as with a plain
   * descriptor: such handles take their descriptor first and keep it until closed.
   */
  private async keepOpenWhileRemoving(handles: readonly PooledFileHandle[]): Promise<void> {
    for (const handle of handles) {
      // Marked while the descriptor is held, so that it is never closed as idle after.
      await handle.use("open", async () => {
        handle.isUnlinked = true;
      });
      // Its path names another file from now on, if any: renames must not carry it.
      this.handles.delete(handle);
    }
  }

  /** The settling of a rename under way of `path` or of a folder above it. */
  private renameCovering(path: string): Promise<void> | undefined {
    for (const [from, settled] of this.renames) {
      if (path === from || path.startsWith(`${from}/`)) return settled;
    }
    return undefined;
  }

  /** Opens a descriptor once there is room, closing idle ones if the process has none left. */
  private async openDescriptor(
    path: string,
    options: OpenOptions,
    onOpened: (descriptor: FileHandle) => void,
  ): Promise<void> {
    await this.reserve();
    try {
      for (;;) {
        try {
          // Taken into `holding` before the reservation ends, so the count never dips.
          onOpened(await this.inner.open(path, options));
          this.isExhausted = false;
          return;
        } catch (error) {
          if (!isDescriptorExhaustion(error)) throw error;
          if (await this.closeOneIdle()) continue;
          this.reportExhaustion(path, error);
          throw error;
        }
      }
    } finally {
      this.pendingOpens -= 1;
      this.wakeOne();
    }
  }

  /** Waits until one more descriptor fits the budget, closing idle ones to make room. */
  private async reserve(): Promise<void> {
    while (this.holding.size + this.pendingOpens >= this.maxOpenFiles) {
      if (await this.closeOneIdle()) continue;
      // Handles that keep a removed file open do not go idle; the budget gives way to them.
      const isAnyBusy = [...this.holding.keys()].some((handle) => !handle.isUnlinked);
      if (!isAnyBusy && this.pendingOpens === 0) break;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    this.pendingOpens += 1;
    this.peak = Math.max(this.peak, this.holding.size + this.pendingOpens);
  }

  /** Closes the least recently used idle descriptor; false when none is idle. */
  private async closeOneIdle(): Promise<boolean> {
    for (const handle of this.holding.keys()) {
      if (!handle.isIdle) continue;
      this.holding.delete(handle);
      this.idleCloses += 1;
      await handle.closeIdle();
      return true;
    }
    return false;
  }

  /** Says once per episode that the process is out of descriptors, and what to do about it. */
  private reportExhaustion(path: string, error: unknown): void {
    if (this.isExhausted) return;
    this.isExhausted = true;
    this.logger?.error(
      "out of file descriptors: requests that need a file are refused until some close; " +
        "raise the process's open-file limit (ulimit -n, LimitNOFILE= in a systemd unit) or " +
        "lower sluice.log.max.open.files",
      {
        path,
        error: String(error),
        logOpenFiles: this.holding.size,
        maxOpenFiles: this.maxOpenFiles,
      },
    );
  }

  private wakeOne(): void {
    this.waiters.shift()?.();
  }
}
