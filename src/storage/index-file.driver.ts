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

  /** Closes and removes the file. */
  async delete(): Promise<void> {
    await this.close();
    await this.fileSystem.unlink(this.currentPath);
  }

  private open(): FileHandle {
    assert(this.handle !== undefined, `index file ${this.currentPath} is open`);
    return this.handle;
  }
}
