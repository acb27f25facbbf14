import type { SeededRandom } from "../random.js";
import { ByteBuffer } from "./byte-buffer.js";
import { applyChange, type DirectoryInode, type FileInode } from "./inodes.js";

/** How much of what was not synced survives a crash. Each is a probability in [0, 1]. */
export interface CrashOptions {
  /** The chance that a random prefix of a file's unsynced changes survives (default 0.5). */
  readonly keepUnsyncedProbability?: number;
  /** The chance that the first lost write is torn: partly on disk (default 0.3). */
  readonly tornWriteProbability?: number;
  /** The chance that a torn write left garbage rather than a prefix of its bytes (default 0.3). */
  readonly garbageProbability?: number;
  /**
   * Only the process died (kill -9), not the machine: the operating system keeps everything
   * written, synced or not, so nothing is lost (default false: a power cut).
   */
  readonly keepsAllWritten?: boolean;
}

/** A process crash: everything written survives in the operating system's cache. */
export const keepAllWritten: CrashOptions = { keepsAllWritten: true };

/** A crash that keeps exactly what was synced. */
export const loseAllUnsynced: CrashOptions = {
  keepUnsyncedProbability: 0,
  tornWriteProbability: 0,
  garbageProbability: 0,
};

/** Rolls a file back to its durable contents plus, maybe, a prefix of its unsynced changes. */
export function crashFile(inode: FileInode, random: SeededRandom, options: CrashOptions): void {
  const survivor = new ByteBuffer(inode.durable);
  const changes = inode.unsynced;
  if (changes.length > 0) {
    const isPrefixKept = random.chance(options.keepUnsyncedProbability ?? 0.5);
    const keptCount = isPrefixKept ? random.nextInt(changes.length + 1) : 0;
    for (const change of changes.slice(0, keptCount)) applyChange(survivor, change);
    const torn = changes[keptCount];
    if (torn?.kind === "write" && torn.data.length > 0) {
      if (random.chance(options.tornWriteProbability ?? 0.3)) {
        survivor.writeAt(torn.position, tornBytes(torn.data, random, options));
      }
    }
  }
  inode.content = survivor;
  inode.durable = survivor.snapshot();
  inode.unsynced = [];
}

/** What a torn write left on disk: a strict prefix of its bytes, or garbage no longer than it. */
function tornBytes(data: Uint8Array, random: SeededRandom, options: CrashOptions): Uint8Array {
  if (random.chance(options.garbageProbability ?? 0.3)) {
    return random.fill(new Uint8Array(random.between(1, data.length)));
  }
  return data.slice(0, random.nextInt(data.length));
}

/**
 * Replaces the visible tree below `root` by what is durable: each folder keeps its synced
 * entries, each file its synced contents plus what `crashFile` lets survive.
 */
export function crashTree(root: DirectoryInode, random: SeededRandom, options: CrashOptions): void {
  const seen = new Set<FileInode | DirectoryInode>();
  const pending: DirectoryInode[] = [root];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    if (seen.has(directory)) continue;
    seen.add(directory);
    directory.entries = new Map(directory.durableEntries);
    for (const child of directory.entries.values()) {
      if (child.kind === "directory") pending.push(child);
      else if (!seen.has(child)) {
        seen.add(child);
        crashFile(child, random, options);
      }
    }
  }
}
