/**
 * An offset index backed by its `<base offset>.index` file: lookups answer from memory, appends
 * and truncations go to memory and to the file, `flush` makes them durable.
 */
import type { FileSystem } from "../ports/index.js";
import type { IndexOptions, IndexSanity } from "./index-common.js";
import { IndexFile } from "./index-file.driver.js";
import { OFFSET_INDEX_ENTRY_BYTES, OffsetIndex, type OffsetPosition } from "./offset-index.js";

/** An offset index and its file. */
export class OffsetIndexFile {
  private constructor(
    private readonly file: IndexFile,
    /** The in-memory entries; read it freely, change it only through this class. */
    readonly index: OffsetIndex,
  ) {}

  /**
   * Opens the index file at `path` (created empty when missing) and loads its entries. A verdict
   * of "corrupt" keeps the valid leading entries; the log then rebuilds the index from its
   * segment (`truncateTo(baseOffset)` and appends) or deletes it.
   */
  static async open(
    fileSystem: FileSystem,
    path: string,
    options: IndexOptions,
  ): Promise<{ offsetIndex: OffsetIndexFile; sanity: IndexSanity }> {
    const { file, content } = await IndexFile.open(fileSystem, path);
    const { index, sanity } = OffsetIndex.decode(content, options);
    return { offsetIndex: new OffsetIndexFile(file, index), sanity };
  }

  get path(): string {
    return this.file.path;
  }

  get baseOffset(): number {
    return this.index.baseOffset;
  }

  get entryCount(): number {
    return this.index.entryCount;
  }

  /** True when no entry can be added; the log then rolls to a new segment. */
  isFull(): boolean {
    return this.index.isFull();
  }

  /** The entry with the largest offset <= `target`, or (base offset, position 0). */
  lookup(target: number): OffsetPosition {
    return this.index.lookup(target);
  }

  /** Adds an entry (the last offset of a batch and where the batch starts) and writes it. */
  async append(target: number, position: number): Promise<void> {
    this.index.append(target, position);
    await this.file.writeEntries(this.index, this.index.entryCount - 1, OFFSET_INDEX_ENTRY_BYTES);
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

  /** Closes and removes the file. */
  async delete(): Promise<void> {
    await this.file.delete();
  }
}
