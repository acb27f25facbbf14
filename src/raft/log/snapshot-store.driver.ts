/**
 * The snapshot files of the metadata log's folder (KIP-630): complete snapshots named
 * `<endOffset>-<epoch>.checkpoint`, and `.checkpoint.part` files while one is written or
 * downloaded. A snapshot becomes complete only by a rename after its bytes are synced, and the
 * rename is made durable by a sync of the folder, so a crash leaves either no snapshot or a
 * whole one; leftover partial files are deleted when the store opens.
 */
import { dirname, joinPath } from "../../common/index.js";
import type { FileHandle, FileSystem } from "../../ports/index.js";
import { compareSnapshotIds, type SnapshotId, type SnapshotInfo } from "../types.js";
import { concatBytes } from "./metadata-log.driver.js";
import {
  parseSnapshotFileName,
  partialSnapshotFileName,
  snapshotFileName,
} from "./snapshot-names.js";

/** The snapshot files of one folder. */
export class SnapshotStore {
  private readonly complete = new Map<string, SnapshotInfo>();
  /** The open partial file of the download under way, if any. */
  private download: { readonly name: string; readonly handle: FileHandle } | undefined;

  private constructor(
    private readonly fs: FileSystem,
    private readonly dir: string,
  ) {}

  /** Lists the complete snapshots of `dir` and deletes partial files a crash left. */
  static async open(fs: FileSystem, dir: string): Promise<SnapshotStore> {
    await makeFolderDurably(fs, dir);
    const store = new SnapshotStore(fs, dir);
    for (const name of await fs.readdir(dir)) {
      const parsed = parseSnapshotFileName(name);
      if (parsed.kind === "partial") await fs.unlink(joinPath(dir, name));
      if (parsed.kind !== "complete") continue;
      const stat = await fs.stat(joinPath(dir, name));
      if (stat === undefined) continue;
      store.complete.set(name, { snapshotId: parsed.snapshotId, sizeBytes: stat.size });
    }
    return store;
  }

  /** The complete snapshots, oldest first. */
  list(): SnapshotInfo[] {
    return [...this.complete.values()].sort((left, right) =>
      compareSnapshotIds(left.snapshotId, right.snapshotId),
    );
  }

  /** The latest complete snapshot, if any. */
  latest(): SnapshotInfo | undefined {
    return this.list().at(-1);
  }

  /** Writes a whole snapshot from its batches: partial file, sync, rename, folder sync. */
  async write(snapshotId: SnapshotId, batches: readonly Uint8Array[]): Promise<SnapshotInfo> {
    const bytes = concatBytes(batches);
    const partialPath = joinPath(this.dir, partialSnapshotFileName(snapshotId));
    const handle = await this.fs.open(partialPath, { create: true, truncate: true });
    try {
      await handle.write(bytes, 0);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return this.promote(snapshotId, bytes.length);
  }

  /** Writes a downloaded chunk into the partial file of `snapshotId` at `position`. */
  async writeChunk(snapshotId: SnapshotId, position: number, bytes: Uint8Array): Promise<void> {
    const name = partialSnapshotFileName(snapshotId);
    if (this.download?.name !== name) {
      await this.closeDownload();
      const path = joinPath(this.dir, name);
      // The first chunk starts the file afresh; a later one continues the same download.
      const handle = await this.fs.open(path, { create: true, truncate: position === 0 });
      this.download = { name, handle };
    }
    await this.download.handle.write(bytes, position);
  }

  /** Makes a downloaded snapshot complete and durable. */
  async install(snapshotId: SnapshotId, sizeBytes: number): Promise<SnapshotInfo> {
    const name = partialSnapshotFileName(snapshotId);
    if (this.download?.name === name) await this.download.handle.sync();
    await this.closeDownload();
    return this.promote(snapshotId, sizeBytes);
  }

  /** Drops the partial file of an abandoned download. */
  async abandon(snapshotId: SnapshotId): Promise<void> {
    const name = partialSnapshotFileName(snapshotId);
    if (this.download?.name === name) await this.closeDownload();
    await this.unlinkIfExists(joinPath(this.dir, name));
  }

  async delete(snapshotId: SnapshotId): Promise<void> {
    const name = snapshotFileName(snapshotId);
    this.complete.delete(name);
    await this.unlinkIfExists(joinPath(this.dir, name));
  }

  /** Up to `maxBytes` of a complete snapshot from `position` (FetchSnapshot). */
  async read(snapshotId: SnapshotId, position: number, maxBytes: number): Promise<Uint8Array> {
    const info = this.complete.get(snapshotFileName(snapshotId));
    if (info === undefined) return new Uint8Array(0);
    const length = Math.max(0, Math.min(maxBytes, info.sizeBytes - position));
    const handle = await this.fs.open(joinPath(this.dir, snapshotFileName(snapshotId)), {
      readOnly: true,
    });
    try {
      const target = new Uint8Array(length);
      const read = await handle.read(target, 0, length, position);
      return target.subarray(0, read);
    } finally {
      await handle.close();
    }
  }

  /** Closes the partial file of a download under way. */
  async close(): Promise<void> {
    await this.closeDownload();
  }

  private async promote(snapshotId: SnapshotId, sizeBytes: number): Promise<SnapshotInfo> {
    const from = joinPath(this.dir, partialSnapshotFileName(snapshotId));
    await this.fs.rename(from, joinPath(this.dir, snapshotFileName(snapshotId)));
    await this.fs.syncDirectory(this.dir);
    const info = { snapshotId, sizeBytes };
    this.complete.set(snapshotFileName(snapshotId), info);
    return info;
  }

  private async closeDownload(): Promise<void> {
    const download = this.download;
    this.download = undefined;
    if (download !== undefined) await download.handle.close();
  }

  private async unlinkIfExists(path: string): Promise<void> {
    if ((await this.fs.stat(path)) !== undefined) await this.fs.unlink(path);
  }
}

/**
 * Creates `dir` and its missing parents, syncing each parent so that the new entries survive
 * a crash: a folder's entry is durable only once the folder holding it is synced.
 */
export async function makeFolderDurably(fs: FileSystem, dir: string): Promise<void> {
  const missing: string[] = [];
  for (let path = dir; (await fs.stat(path)) === undefined; path = dirname(path)) {
    missing.push(path);
    if (dirname(path) === path) break;
  }
  await fs.mkdir(dir, { recursive: true });
  for (const path of missing.reverse()) await fs.syncDirectory(dirname(path));
}
