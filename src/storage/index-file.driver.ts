/**
 * The file under an offset or time index. Entries are written at `slot * entry size` as they are
 * appended; there is no preallocation, so a file closed cleanly is exactly its entries. Shared by
 * offset-index.driver.ts and time-index.driver.ts.
 */
import { assert } from "../common/index.js";
import type { FileHandle, FileSystem } from "../ports/index.js";
import { readFileIfExists } from "./atomic-file.driver.js";

/** The parts of an in-memory index the file needs. */
export interface EncodableIndex {
  readonly entryCount: number;
  readonly sizeInBytes: number;
  encode(fromSlot?: number, toSlot?: number): Uint8Array;
}

/** An open index file. States: open, then closed (after close or delete); closed is final. */
export class IndexFile {
  private handle: FileHandle | undefined;

  private constructor(
    private readonly fileSystem: FileSystem,
    private currentPath: string,
    handle: FileHandle,
  ) {
    this.handle = handle;
  }

  /** Opens (creating when missing) the index file at `path` and reads its whole content. */
  static async open(
    fileSystem: FileSystem,
    path: string,
  ): Promise<{ file: IndexFile; content: Uint8Array }> {
    const content = (await readFileIfExists(fileSystem, path)) ?? new Uint8Array(0);
    const handle = await fileSystem.open(path, { create: true });
    return { file: new IndexFile(fileSystem, path, handle), content };
  }

  get path(): string {
    return this.currentPath;
  }

  /** Writes the entries in slots [fromSlot, entryCount) at their place in the file. */
  async writeEntries(
    index: EncodableIndex,
    fromSlot: number,
    entrySizeBytes: number,
  ): Promise<void> {
    const bytes = index.encode(fromSlot, index.entryCount);
    if (bytes.length > 0) await this.open().write(bytes, fromSlot * entrySizeBytes);
  }

  /** Cuts the file to the size of the index's entries. */
  async truncateToEntries(index: EncodableIndex): Promise<void> {
    await this.open().truncate(index.sizeInBytes);
  }

  /** Cuts the file to its entries when anything (padding, corrupt entries) lies beyond them. */
  async trimToValidSize(index: EncodableIndex): Promise<void> {
    const handle = this.open();
    if ((await handle.size()) !== index.sizeInBytes) await handle.truncate(index.sizeInBytes);
  }

  /** Makes the written entries durable. */
  async flush(): Promise<void> {
    await this.open().sync();
  }

  /**
   * Renames the file (as the log does with `.deleted`, `.cleaned` and `.swap` suffixes). The
   * handle is reopened under the new name so that it never refers to a stale path.
   */
  async renameTo(newPath: string): Promise<void> {
    const handle = this.open();
    this.handle = undefined;
    await handle.close();
    await this.fileSystem.rename(this.currentPath, newPath);
    this.currentPath = newPath;
    this.handle = await this.fileSystem.open(newPath, { create: false });
  }

  /** Closes the file; the index can no longer be written. */
  async close(): Promise<void> {
    const handle = this.handle;
    if (handle === undefined) return;
    this.handle = undefined;
    await handle.close();
  }

  async delete(): Promise<void> {
    await this.close();
    await this.fileSystem.unlink(this.currentPath);
  }

  private open(): FileHandle {
    assert(this.handle !== undefined, `index file ${this.currentPath} is open`);
    return this.handle;
  }
}

/** The parts of an in-memory index that SegmentIndexFile forwards to. */
export interface SegmentIndex extends EncodableIndex {
  readonly baseOffset: number;
  isFull(): boolean;
  truncateTo(target: number): number;
}

/**
 * What the offset index and time index files share: an in-memory index and its IndexFile, with
 * every operation that is the same for both. Subclasses add the lookups and appends of their kind.
 */
export abstract class SegmentIndexFile<I extends SegmentIndex> {
  protected constructor(
    protected readonly file: IndexFile,
    /** The in-memory entries; read it freely, change it only through this class. */
    readonly index: I,
  ) {}

  get path(): string {
    return this.file.path;
  }

  get baseOffset(): number {
    return this.index.baseOffset;
  }

  get entryCount(): number {
    return this.index.entryCount;
  }

  /** True when the log must roll to a new segment (see each index's `isFull`). */
  isFull(): boolean {
    return this.index.isFull();
  }

  /** Removes every entry whose offset is >= `target`, in memory and in the file. */
  async truncateTo(target: number): Promise<void> {
    this.index.truncateTo(target);
    await this.file.truncateToEntries(this.index);
  }

  /** Makes the written entries durable (fsync). */
  async flush(): Promise<void> {
    await this.file.flush();
  }

  /** Cuts the file to its valid entries; done when a segment stops being active and on close. */
  async trimToValidSize(): Promise<void> {
    await this.file.trimToValidSize(this.index);
  }

  /** Renames the file, e.g. to add the `.deleted` suffix. */
  async renameTo(newPath: string): Promise<void> {
    await this.file.renameTo(newPath);
  }

  /** Trims the file to its entries and closes it. */
  async close(): Promise<void> {
    await this.trimToValidSize();
    await this.file.close();
  }

  async delete(): Promise<void> {
    await this.file.delete();
  }
}
