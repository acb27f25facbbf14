/**
 * An offset or time index whose new entries reach the file in groups rather than one write per
 * entry: entries are written when enough are pending, and always before the file is synced,
 * trimmed or closed. An entry that a crash loses leaves the index sparser, never wrong, and a
 * recovery rebuilds the indexes of every segment it rescans; this keeps the append path at one
 * write per segment.
 */
import { assert } from "../../common/index.js";
import type { FileHandle, FileSystem } from "../../ports/index.js";
import { readFileIfExists } from "../atomic-file.driver.js";
import { ensureDescriptor, lacksDescriptor } from "../pooled-file-handle.driver.js";
import type { IndexOptions, IndexSanity } from "../index-common.js";
import { OFFSET_INDEX_ENTRY_BYTES, OffsetIndex } from "../offset-index.js";
import { TIME_INDEX_ENTRY_BYTES, TimeIndex } from "../time-index.js";

/** Pending entries that trigger their write (64: 256 KiB of log at the default interval). */
export const PENDING_INDEX_ENTRIES_MAX = 64;

/** The parts of OffsetIndex and TimeIndex the file needs. */
interface EncodableIndex {
  readonly entryCount: number;
  readonly sizeInBytes: number;
  encode(fromSlot?: number, toSlot?: number): Uint8Array;
  truncateTo(target: number): number;
}

/** An index in memory and its file; change the index only through this class. */
export class BufferedIndexFile<I extends EncodableIndex> {
  private writtenCount: number;
  private isClosed = false;

  private constructor(
    private handle: FileHandle,
    private currentPath: string,
    /** The entries in memory: read them freely. */
    readonly index: I,
    private readonly entryBytes: number,
  ) {
    this.writtenCount = index.entryCount;
  }

  /** Opens the offset index at `path` (created empty when missing) and decodes it. */
  static async openOffsetIndex(
    fileSystem: FileSystem,
    path: string,
    options: IndexOptions,
  ): Promise<{ file: BufferedIndexFile<OffsetIndex>; sanity: IndexSanity }> {
    const content = (await readFileIfExists(fileSystem, path)) ?? new Uint8Array(0);
    const { index, sanity } = OffsetIndex.decode(content, options);
    const handle = await fileSystem.open(path, { create: true });
    return { file: new BufferedIndexFile(handle, path, index, OFFSET_INDEX_ENTRY_BYTES), sanity };
  }

  /** Opens the time index at `path` (created empty when missing) and decodes it. */
  static async openTimeIndex(
    fileSystem: FileSystem,
    path: string,
    options: IndexOptions,
  ): Promise<{ file: BufferedIndexFile<TimeIndex>; sanity: IndexSanity }> {
    const content = (await readFileIfExists(fileSystem, path)) ?? new Uint8Array(0);
    const { index, sanity } = TimeIndex.decode(content, options);
    const handle = await fileSystem.open(path, { create: true });
    return { file: new BufferedIndexFile(handle, path, index, TIME_INDEX_ENTRY_BYTES), sanity };
  }

  get path(): string {
    return this.currentPath;
  }

  /**
   * Called after entries were added to `index`; writes the pending ones when enough are
   * pending. Resolves once that write (if any) is done.
   */
  async entriesAdded(): Promise<void> {
    if (this.index.entryCount - this.writtenCount >= PENDING_INDEX_ENTRIES_MAX)
      await this.writePending();
  }

  /** True when a descriptor budget closed the file (see LogSegment.openFiles). */
  get lacksDescriptor(): boolean {
    return lacksDescriptor(this.handle);
  }

  /** Opens the file again if a descriptor budget closed it (see LogSegment.openFiles). */
  async openFile(): Promise<void> {
    this.checkOpen();
    await ensureDescriptor(this.handle);
  }

  /** Writes every entry not yet in the file. */
  async writePending(): Promise<void> {
    this.checkOpen();
    const from = this.writtenCount;
    const to = this.index.entryCount;
    if (to <= from) return;
    // Claimed before the write so that a concurrent call writes only later entries.
    this.writtenCount = to;
    await this.handle.write(this.index.encode(from, to), from * this.entryBytes);
  }

  /** Removes the entries of offsets >= `target`, in memory and in the file. */
  async truncateTo(target: number): Promise<void> {
    this.checkOpen();
    this.index.truncateTo(target);
    if (this.writtenCount > this.index.entryCount) this.writtenCount = this.index.entryCount;
    await this.handle.truncate(this.index.sizeInBytes);
  }

  /** Writes the pending entries and makes the file durable. */
  async flush(): Promise<void> {
    await this.writePending();
    await this.handle.sync();
  }

  /** Writes the pending entries and cuts the file to them. */
  async trimToValidSize(): Promise<void> {
    await this.writePending();
    if ((await this.handle.size()) !== this.index.sizeInBytes)
      await this.handle.truncate(this.index.sizeInBytes);
  }

  /** Renames the file; the handle follows it. */
  async renameTo(fileSystem: FileSystem, newPath: string): Promise<void> {
    this.checkOpen();
    await fileSystem.rename(this.currentPath, newPath);
    this.currentPath = newPath;
  }

  /** Trims the file and closes it. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    await this.trimToValidSize();
    this.isClosed = true;
    await this.handle.close();
  }

  /** Closes the handle without writing anything (the file is about to be replaced or removed). */
  async abandon(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await this.handle.close();
  }

  private checkOpen(): void {
    assert(!this.isClosed, `index file ${this.currentPath} is open`);
  }
}
