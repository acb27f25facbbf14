/**
 * The leader-epoch cache of one partition, in memory: for each leader epoch that wrote to the
 * log, the first offset it wrote. Entries strictly increase in both epoch and start offset. It
 * answers OffsetsForLeaderEpoch and tells a follower where its log diverges from the leader's.
 * The rules are those of Kafka's LeaderEpochFileCache. Pure: the driver persists it.
 */
import { assert, leaderEpoch, offset, type LeaderEpoch, type Offset } from "../common/index.js";
import type { EpochEntry } from "./checkpoint-format.js";

/** OffsetsForLeaderEpoch's "no epoch" answer. */
export const UNDEFINED_EPOCH = leaderEpoch(-1);
/** OffsetsForLeaderEpoch's "no offset" answer. */
export const UNDEFINED_EPOCH_OFFSET = offset(-1);

/** An epoch and the offset where it ends: the answer to OffsetsForLeaderEpoch. */
export interface EpochEndOffset {
  readonly leaderEpoch: LeaderEpoch;
  readonly endOffset: Offset;
}

/** The (epoch, start offset) entries of one partition's log. */
export class LeaderEpochCache {
  private entries: EpochEntry[] = [];

  /** A cache holding `entries` as Kafka loads a checkpoint: each one assigned in turn. */
  constructor(entries: readonly EpochEntry[] = []) {
    for (const entry of entries) this.assign(entry.epoch, entry.startOffset);
  }

  /**
   * Records that `epoch` starts at `startOffset`, and says whether anything changed. A repeat of
   * the latest epoch at the same or a later offset changes nothing. Otherwise every latest entry
   * whose epoch or start offset is not below the new one is removed first (a leader that
   * restarted an epoch, or an epoch rewritten after truncation), keeping the entries monotonic.
   */
  assign(epoch: number, startOffset: number): boolean {
    assert(Number.isInteger(epoch) && epoch >= 0, "an assigned epoch is a non-negative integer");
    assert(Number.isSafeInteger(startOffset), "an epoch start offset is a safe integer");
    assert(startOffset >= 0, "an epoch start offset is not negative");
    const latest = this.latestEntry();
    if (latest !== undefined && latest.epoch === epoch && startOffset >= latest.startOffset) {
      return false;
    }
    while (this.entries.length > 0) {
      const last = this.entries[this.entries.length - 1] as EpochEntry;
      if (last.epoch < epoch && last.startOffset < startOffset) break;
      this.entries.pop();
    }
    this.entries.push({ epoch: leaderEpoch(epoch), startOffset: offset(startOffset) });
    return true;
  }

  /** The entries, oldest first. */
  epochEntries(): readonly EpochEntry[] {
    return [...this.entries];
  }

  isEmpty(): boolean {
    return this.entries.length === 0;
  }

  latestEntry(): EpochEntry | undefined {
    return this.entries[this.entries.length - 1];
  }

  earliestEntry(): EpochEntry | undefined {
    return this.entries[0];
  }

  latestEpoch(): LeaderEpoch | undefined {
    return this.latestEntry()?.epoch;
  }

  /** The entry of the largest epoch below `epoch`, if any. */
  previousEntry(epoch: number): EpochEntry | undefined {
    const slot = this.floorSlot(epoch - 1);
    return slot < 0 ? undefined : this.entries[slot];
  }

  /**
   * The end offset of `requestedEpoch`, as Kafka's endOffsetFor answers OffsetsForLeaderEpoch:
   * the log end offset for the latest epoch; otherwise the largest known epoch <= the requested
   * one (or the requested one itself when it is below every known epoch) with the start offset of
   * the first epoch above it; undefined epoch and offset when there is no epoch above it or the
   * request carries the undefined epoch.
   */
  endOffsetFor(requestedEpoch: number, logEndOffset: number): EpochEndOffset {
    const undefinedAnswer = { leaderEpoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET };
    if (requestedEpoch === UNDEFINED_EPOCH) return undefinedAnswer;
    if (this.latestEpoch() === requestedEpoch) {
      return { leaderEpoch: leaderEpoch(requestedEpoch), endOffset: offset(logEndOffset) };
    }
    const floor = this.floorSlot(requestedEpoch);
    const higher = this.entries[floor + 1];
    if (higher === undefined) return undefinedAnswer;
    // Below every known epoch: the log before the first entry is gone, so the answer sends the
    // follower to the first known start offset.
    const epoch = floor < 0 ? requestedEpoch : (this.entries[floor] as EpochEntry).epoch;
    return { leaderEpoch: leaderEpoch(epoch), endOffset: higher.startOffset };
  }

  /**
   * Removes every entry whose start offset is >= `endOffset` (the log was truncated to
   * `endOffset`), and says whether any was removed.
   */
  truncateFromEnd(endOffset: number): boolean {
    const latest = this.latestEntry();
    if (endOffset < 0 || latest === undefined || latest.startOffset < endOffset) return false;
    while ((this.latestEntry()?.startOffset ?? -1) >= endOffset) this.entries.pop();
    return true;
  }

  /**
   * Drops the entries that lie wholly below `startOffset` (the log start moved up) and moves the
   * start of the epoch that contains `startOffset` up to it; says whether anything changed. An
   * entry starting exactly at `startOffset` stays.
   */
  truncateFromStart(startOffset: number): boolean {
    let removed = 0;
    while (removed < this.entries.length) {
      if ((this.entries[removed] as EpochEntry).startOffset > startOffset) break;
      removed++;
    }
    if (removed === 0) return false;
    const containing = this.entries[removed - 1] as EpochEntry;
    this.entries.splice(0, removed, { epoch: containing.epoch, startOffset: offset(startOffset) });
    return removed > 1 || containing.startOffset !== startOffset;
  }

  /** The epoch that wrote `target`: the one with the largest start offset <= `target`. */
  epochForOffset(target: number): LeaderEpoch | undefined {
    let found: LeaderEpoch | undefined;
    for (const entry of this.entries) {
      if (entry.startOffset > target) break;
      found = entry.epoch;
    }
    return found;
  }

  clear(): void {
    this.entries = [];
  }

  /** The slot of the entry with the largest epoch <= `epoch`, or -1. */
  private floorSlot(epoch: number): number {
    let slot = -1;
    while (
      slot + 1 < this.entries.length &&
      (this.entries[slot + 1] as EpochEntry).epoch <= epoch
    ) {
      slot++;
    }
    return slot;
  }
}
