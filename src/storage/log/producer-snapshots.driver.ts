/**
 * The producer state snapshot files of a partition log (Kafka's `<offset>.snapshot`, the state
 * of every producer after the batches below that offset; format in producer-snapshot-format.ts).
 * A file is written whole and synced with the log's next flush; one that does not read back (a
 * torn write, another version) is deleted and the next older one tried, as Kafka does.
 */
import { joinPath } from "../../common/index.js";
import type { FileSystem } from "../../ports/index.js";
import { readFileIfExists, syncFileIfExists } from "../atomic-file.driver.js";
import { offsetToFileName, parseSegmentFileName, SNAPSHOT_FILE_SUFFIX } from "../file-names.js";
import {
  decodeProducerSnapshot,
  encodeProducerSnapshot,
  type SnapshotProducer,
} from "./producer-snapshot-format.js";

/** A snapshot read back: the offset it was taken at and its producers. */
export interface LoadedSnapshot {
  readonly offset: number;
  readonly producers: readonly SnapshotProducer[];
}

export class ProducerSnapshots {
  /** The offsets of the files written since the last flush. */
  private readonly unsynced = new Set<number>();

  constructor(
    private readonly fileSystem: FileSystem,
    private readonly dir: string,
  ) {}

  /** The offsets of the snapshot files in the folder, oldest first. */
  async offsets(): Promise<number[]> {
    const offsets: number[] = [];
    for (const name of await this.fileSystem.readdir(this.dir)) {
      const parsed = parseSegmentFileName(name);
      if (parsed?.kind === "snapshot" && parsed.stage === "live") offsets.push(parsed.baseOffset);
    }
    return offsets.sort((a, b) => a - b);
  }

  /**
   * The newest snapshot taken between the two offsets (inclusive) that reads back; the files
   * newer than it in that range that do not read back are deleted, with `onDropped` told why.
   */
  async latest(
    range: { readonly atLeast: number; readonly atMost: number },
    onDropped: (offset: number, reason: string) => void,
  ): Promise<LoadedSnapshot | undefined> {
    const inRange = (await this.offsets()).filter((o) => o >= range.atLeast && o <= range.atMost);
    for (const offset of inRange.reverse()) {
      const decoded = decodeProducerSnapshot(await this.read(offset));
      if (decoded.ok) return { offset, producers: decoded.producers };
      onDropped(offset, decoded.reason);
      await this.remove([offset]);
    }
    return undefined;
  }

  /** Writes the snapshot at `offset` unless one is there; true when a file was created. */
  async write(offset: number, producers: readonly SnapshotProducer[]): Promise<boolean> {
    const path = this.pathOf(offset);
    if ((await this.fileSystem.stat(path)) !== undefined) return false;
    const handle = await this.fileSystem.open(path, { create: true, truncate: true });
    try {
      await handle.write(encodeProducerSnapshot(producers), 0);
    } finally {
      await handle.close();
    }
    this.unsynced.add(offset);
    return true;
  }

  /** Syncs the files written since the last flush. */
  async flush(): Promise<void> {
    for (const offset of [...this.unsynced]) {
      await syncFileIfExists(this.fileSystem, this.pathOf(offset));
      this.unsynced.delete(offset);
    }
  }

  /** Deletes the snapshots `isDropped` picks; true when one went (the folder needs a sync). */
  async removeWhere(isDropped: (offset: number) => boolean): Promise<boolean> {
    const dropped = (await this.offsets()).filter(isDropped);
    await this.remove(dropped);
    return dropped.length > 0;
  }

  private async remove(offsets: readonly number[]): Promise<void> {
    for (const offset of offsets) {
      this.unsynced.delete(offset);
      const path = this.pathOf(offset);
      if ((await this.fileSystem.stat(path)) !== undefined) await this.fileSystem.unlink(path);
    }
  }

  private async read(offset: number): Promise<Uint8Array> {
    return (await readFileIfExists(this.fileSystem, this.pathOf(offset))) ?? new Uint8Array();
  }

  private pathOf(offset: number): string {
    return joinPath(this.dir, offsetToFileName(offset, SNAPSHOT_FILE_SUFFIX));
  }
}
