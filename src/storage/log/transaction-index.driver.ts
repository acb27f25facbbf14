/**
 * The aborted transactions of a partition log (Kafka's TransactionIndex files and
 * collectAbortedTransactions): when an ABORT marker is written, the aborted transaction's
 * producer id, first offset, last offset (the marker's) and the last stable offset after it go
 * to the `.txnindex` file named for the active segment, one 34-byte entry (int16 version 0,
 * four int64) appended as Kafka writes it. The log keeps every entry in memory too, ordered by
 * last offset; a read_committed fetch asks which aborted transactions overlap what it returns.
 *
 * Opening the log reads every `.txnindex` file of its dir, keeping the entries inside the log;
 * truncation drops the entries of removed markers (rewriting their files); retention deletes
 * the files of removed segments. A log flush syncs the files written since the last one, so an
 * entry is durable once its marker is. An entry a crash lost while its marker survived (a
 * marker above the recovery point) is written again when the log opens, from the aborts the
 * producer state's reload met in the batches, as Kafka rebuilds the index of the segments it
 * recovers. The cleaner's swap replaces the files of the segments it rewrote with one file of
 * the aborted transactions that still have data (Kafka's cleaned txn index), written before the
 * swap: the entries it drops have no data in the old segments either, so either state of the
 * log is served right; an entry two files hold after a crash mid-way is read once.
 */
import { joinPath } from "../../common/index.js";
import type { FileSystem } from "../../ports/index.js";
import { readFileIfExists, syncFileIfExists, writeFileAtomically } from "../atomic-file.driver.js";
import type { AppendedCompletion } from "./producer-append.js";
import {
  offsetToFileName,
  parseSegmentFileName,
  TRANSACTION_INDEX_FILE_SUFFIX,
} from "../file-names.js";

/** One aborted transaction (Kafka's AbortedTxn). */
export interface AbortedTransaction {
  readonly producerId: number;
  readonly firstOffset: number;
  /** The offset of its ABORT marker. */
  readonly lastOffset: number;
  /** The last stable offset once the marker was written. */
  readonly lastStableOffset: number;
}

const ENTRY_BYTES = 34;
const ENTRY_VERSION = 0;

/** An aborted transaction with the segment whose index holds it. */
export interface IndexedAbort extends AbortedTransaction {
  /** The base offset of the segment whose index holds the entry. */
  readonly segmentBaseOffset: number;
}

function encodeEntry(entry: AbortedTransaction): Uint8Array {
  const bytes = new Uint8Array(ENTRY_BYTES);
  const view = new DataView(bytes.buffer);
  view.setInt16(0, ENTRY_VERSION);
  view.setBigInt64(2, BigInt(entry.producerId));
  view.setBigInt64(10, BigInt(entry.firstOffset));
  view.setBigInt64(18, BigInt(entry.lastOffset));
  view.setBigInt64(26, BigInt(entry.lastStableOffset));
  return bytes;
}

/**
 * The entries of a `.txnindex` file's bytes, and how many bytes after them are not an entry (a
 * torn last entry, or one of another version).
 */
export function decodeTransactionIndex(bytes: Uint8Array): {
  readonly entries: AbortedTransaction[];
  readonly unreadBytes: number;
} {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: AbortedTransaction[] = [];
  let at = 0;
  for (; at + ENTRY_BYTES <= bytes.length; at += ENTRY_BYTES) {
    if (view.getInt16(at) !== ENTRY_VERSION) break;
    entries.push({
      producerId: Number(view.getBigInt64(at + 2)),
      firstOffset: Number(view.getBigInt64(at + 10)),
      lastOffset: Number(view.getBigInt64(at + 18)),
      lastStableOffset: Number(view.getBigInt64(at + 26)),
    });
  }
  return { entries, unreadBytes: bytes.length - at };
}

function decodeEntries(bytes: Uint8Array, segmentBaseOffset: number): IndexedAbort[] {
  // A torn last entry (a crash mid-write) is left out, as Kafka's sanity check would refuse it.
  const { entries } = decodeTransactionIndex(bytes);
  return entries.map((entry) => ({ ...entry, segmentBaseOffset }));
}

export class TransactionIndex {
  private entries: IndexedAbort[] = [];
  /** The base offsets of the files written since the last flush, and whether any is new. */
  private readonly unsynced = new Set<number>();
  private hasNewFile = false;

  constructor(
    private readonly fileSystem: FileSystem,
    private readonly dir: string,
  ) {}

  /**
   * Reads the live `.txnindex` files of the dir, keeping entries between the two offsets, and
   * writes back those of `rebuilt` (the aborts the batches show) that no file holds.
   */
  async load(
    bounds: { readonly logStartOffset: number; readonly logEndOffset: number },
    rebuilt: readonly IndexedAbort[],
  ) {
    const loaded: IndexedAbort[] = [];
    for (const name of await this.fileSystem.readdir(this.dir)) {
      const parsed = parseSegmentFileName(name);
      if (parsed?.kind !== "txnindex" || parsed.stage !== "live") continue;
      const bytes = await readFileIfExists(this.fileSystem, joinPath(this.dir, name));
      if (bytes === undefined) continue;
      loaded.push(...decodeEntries(bytes, parsed.baseOffset));
    }
    const isLive = (each: IndexedAbort) =>
      each.lastOffset < bounds.logEndOffset && each.lastOffset >= bounds.logStartOffset;
    const seen = new Set<number>();
    this.entries = loaded.filter((each) => {
      if (!isLive(each) || seen.has(each.lastOffset)) return false;
      seen.add(each.lastOffset);
      return true;
    });
    const held = new Set(this.entries.map((each) => each.lastOffset));
    const lost = rebuilt.filter((each) => isLive(each) && !held.has(each.lastOffset));
    for (const base of new Set(lost.map((each) => each.segmentBaseOffset))) {
      await this.append(
        lost.filter((each) => each.segmentBaseOffset === base),
        base,
      );
    }
    this.entries.sort((a, b) => a.lastOffset - b.lastOffset);
  }

  /** Appends entries for markers now in the segment based at `segmentBaseOffset`. */
  async append(added: readonly AbortedTransaction[], segmentBaseOffset: number): Promise<void> {
    if (added.length === 0) return;
    const path = this.pathOf(segmentBaseOffset);
    if ((await this.fileSystem.stat(path)) === undefined) this.hasNewFile = true;
    this.unsynced.add(segmentBaseOffset);
    const handle = await this.fileSystem.open(path, { create: true });
    try {
      await handle.append(added.map(encodeEntry));
    } finally {
      await handle.close();
    }
    for (const { producerId, firstOffset, lastOffset, lastStableOffset } of added) {
      const entry = { producerId, firstOffset, lastOffset, lastStableOffset };
      this.entries.push({ ...entry, segmentBaseOffset });
    }
  }

  /**
   * The aborted transactions a read of `[fromOffset, upperBoundOffset)` overlaps (Kafka's
   * collectAbortedTransactions): those whose marker is at or after `fromOffset` and that began
   * before `upperBoundOffset`, in marker order.
   */
  collect(fromOffset: number, upperBoundOffset: number): AbortedTransaction[] {
    return this.entries
      .filter((each) => each.lastOffset >= fromOffset && each.firstOffset < upperBoundOffset)
      .map(({ producerId, firstOffset, lastOffset, lastStableOffset }) => ({
        producerId,
        firstOffset,
        lastOffset,
        lastStableOffset,
      }));
  }

  /** Drops the entries of markers at or after `offset`, rewriting the files that held them. */
  async truncateTo(offset: number): Promise<void> {
    const dropped = this.entries.filter((each) => each.lastOffset >= offset);
    if (dropped.length === 0) return;
    this.entries = this.entries.filter((each) => each.lastOffset < offset);
    for (const base of new Set(dropped.map((each) => each.segmentBaseOffset))) {
      await this.rewrite(base);
    }
  }

  /**
   * Syncs the files written since the last flush; true when one of them was created since, so
   * the folder needs a sync too.
   */
  async flush(): Promise<boolean> {
    for (const base of [...this.unsynced]) {
      await syncFileIfExists(this.fileSystem, this.pathOf(base));
      this.unsynced.delete(base);
    }
    const hadNewFile = this.hasNewFile;
    this.hasNewFile = false;
    return hadNewFile;
  }

  /**
   * The cleaner's replacement of the segments at `oldBaseOffsets`: their entries become `kept`
   * (each naming its new segment), one file per new segment written atomically, the other old
   * files deleted.
   */
  async replaceSegments(
    oldBaseOffsets: readonly number[],
    kept: readonly IndexedAbort[],
  ): Promise<void> {
    const old = new Set(oldBaseOffsets);
    this.entries = this.entries.filter((each) => !old.has(each.segmentBaseOffset));
    this.entries.push(...kept);
    this.entries.sort((a, b) => a.lastOffset - b.lastOffset);
    const written = new Set(kept.map((each) => each.segmentBaseOffset));
    for (const base of written) {
      const entries = kept.filter((each) => each.segmentBaseOffset === base);
      await writeFileAtomically(this.fileSystem, this.pathOf(base), concat(entries));
    }
    for (const base of old) if (!written.has(base)) await this.unlink(base);
  }

  /** Deletes the index files of segments retention removed, and their entries. */
  async removeSegments(baseOffsets: readonly number[]): Promise<void> {
    const removed = new Set(baseOffsets);
    this.entries = this.entries.filter((each) => !removed.has(each.segmentBaseOffset));
    for (const base of removed) await this.unlink(base);
  }

  /** Deletes every index file: the log restarts empty. */
  async clear(): Promise<void> {
    const bases = new Set(this.entries.map((each) => each.segmentBaseOffset));
    this.entries = [];
    for (const base of bases) await this.unlink(base);
  }

  private pathOf(segmentBaseOffset: number): string {
    return joinPath(this.dir, offsetToFileName(segmentBaseOffset, TRANSACTION_INDEX_FILE_SUFFIX));
  }

  private async rewrite(segmentBaseOffset: number): Promise<void> {
    const kept = this.entries.filter((each) => each.segmentBaseOffset === segmentBaseOffset);
    if (kept.length === 0) return this.unlink(segmentBaseOffset);
    this.unsynced.add(segmentBaseOffset);
    const handle = await this.fileSystem.open(this.pathOf(segmentBaseOffset), {
      create: true,
      truncate: true,
    });
    try {
      await handle.append(kept.map(encodeEntry));
    } finally {
      await handle.close();
    }
  }

  private async unlink(segmentBaseOffset: number): Promise<void> {
    const path = this.pathOf(segmentBaseOffset);
    if ((await this.fileSystem.stat(path)) !== undefined) await this.fileSystem.unlink(path);
  }
}

function concat(entries: readonly AbortedTransaction[]): Uint8Array {
  const bytes = new Uint8Array(entries.length * ENTRY_BYTES);
  entries.forEach((entry, index) => bytes.set(encodeEntry(entry), index * ENTRY_BYTES));
  return bytes;
}

/**
 * The aborted transactions the end markers of `accepted` completed, with the last stable offset
 * after each: the first offset of an older open transaction, else the offset after the marker.
 */
export function abortedOf(
  accepted: readonly { readonly completed: readonly AppendedCompletion[] }[],
  firstUnstableOffset: number | undefined,
): AbortedTransaction[] {
  return accepted.flatMap((each) =>
    each.completed
      .filter((completion) => completion.isAborted)
      .map(({ producerId, firstOffset, lastOffset }) => ({
        producerId,
        firstOffset,
        lastOffset,
        lastStableOffset: Math.min(firstUnstableOffset ?? lastOffset + 1, lastOffset + 1),
      })),
  );
}
