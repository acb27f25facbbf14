/**
 * An offset index backed by its `<base offset>.index` file: lookups answer from memory, appends
 * and truncations go to memory and to the file, `flush` makes them durable.
 */
import type { FileSystem } from "../ports/index.js";
import type { IndexOptions, IndexSanity } from "./index-common.js";
import { IndexFile, SegmentIndexFile } from "./index-file.driver.js";
import { OFFSET_INDEX_ENTRY_BYTES, OffsetIndex, type OffsetPosition } from "./offset-index.js";

export class OffsetIndexFile extends SegmentIndexFile<OffsetIndex> {
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

  /** The entry with the largest offset <= `target`, or (base offset, position 0). */
  lookup(target: number): OffsetPosition {
    return this.index.lookup(target);
  }

  /** Adds an entry (the last offset of a batch and where the batch starts) and writes it. */
  async append(target: number, position: number): Promise<void> {
    this.index.append(target, position);
    await this.file.writeEntries(this.index, this.index.entryCount - 1, OFFSET_INDEX_ENTRY_BYTES);
  }
}
