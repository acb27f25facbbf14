/**
 * A time index backed by its `<base offset>.timeindex` file: lookups answer from memory, appends
 * and truncations go to memory and to the file, `flush` makes them durable.
 */
import type { FileSystem } from "../ports/index.js";
import type { IndexOptions, IndexSanity } from "./index-common.js";
import { IndexFile, SegmentIndexFile } from "./index-file.driver.js";
import { TIME_INDEX_ENTRY_BYTES, TimeIndex, type TimestampOffset } from "./time-index.js";

export class TimeIndexFile extends SegmentIndexFile<TimeIndex> {
  /**
   * Opens the time index file at `path` (created empty when missing) and loads its entries. A
   * verdict of "corrupt" keeps the valid leading entries; the log then rebuilds the index.
   */
  static async open(
    fileSystem: FileSystem,
    path: string,
    options: IndexOptions,
  ): Promise<{ timeIndex: TimeIndexFile; sanity: IndexSanity }> {
    const { file, content } = await IndexFile.open(fileSystem, path);
    const { index, sanity } = TimeIndex.decode(content, options);
    return { timeIndex: new TimeIndexFile(file, index), sanity };
  }

  /** The last entry, or (NO_TIMESTAMP, base offset) when empty. */
  lastEntry(): TimestampOffset {
    return this.index.lastEntry();
  }

  /** The entry with the largest timestamp <= `targetTimestamp`, or (NO_TIMESTAMP, base offset). */
  lookup(targetTimestamp: number): TimestampOffset {
    return this.index.lookup(targetTimestamp);
  }

  /**
   * Adds (timestamp, target) when the timestamp exceeds the last entry's and writes it; resolves
   * to whether it did. `skipFullCheck` is for the entry written when the segment rolls.
   */
  async maybeAppend(
    timestamp: number,
    target: number,
    options: { skipFullCheck?: boolean } = {},
  ): Promise<boolean> {
    if (!this.index.maybeAppend(timestamp, target, options)) return false;
    await this.file.writeEntries(this.index, this.index.entryCount - 1, TIME_INDEX_ENTRY_BYTES);
    return true;
  }
}
