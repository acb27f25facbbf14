/**
 * A value the log sets with control records, by the offset of the record that set it: the
 * voter set (VotersRecord) and kraft.version (KRaftVersionRecord) of KIP-853. The latest value
 * is in force as soon as its record is appended, committed or not; truncation removes the
 * values of truncated records, and a snapshot lets the values before it be forgotten.
 */
import { assert } from "../common/index.js";

interface HistoryEntry<T> {
  /** The offset of the record; -1 for the bootstrap value that precedes the log. */
  readonly offset: number;
  readonly value: T;
}

/** The history of one log-defined value, oldest first. */
export class OffsetHistory<T> {
  private entries: HistoryEntry<T>[];

  /** A history holding only the bootstrap value, which applies before any record. */
  constructor(bootstrap: T) {
    this.entries = [{ offset: -1, value: bootstrap }];
  }

  /** The value in force: the latest appended. */
  latest(): T {
    return (this.entries[this.entries.length - 1] as HistoryEntry<T>).value;
  }

  /** The offset of the latest record, or -1 when only the bootstrap value is known. */
  latestOffset(): number {
    return (this.entries[this.entries.length - 1] as HistoryEntry<T>).offset;
  }

  /** The value in force just before `endOffset`: the latest whose record lies below it. */
  atEndOffset(endOffset: number): T {
    let found = this.entries[0] as HistoryEntry<T>;
    for (const entry of this.entries) {
      if (entry.offset >= endOffset) break;
      found = entry;
    }
    return found.value;
  }

  /** Records the value a record at `offset` sets; offsets only grow. */
  add(offset: number, value: T): void {
    // A bootstrap checkpoint (the snapshot at end offset 0) states the value before any record:
    // it replaces the configured bootstrap value.
    if (offset === -1 && this.entries.length === 1) {
      this.entries = [{ offset, value }];
      return;
    }
    assert(offset > this.latestOffset(), "history values are added in offset order");
    this.entries.push({ offset, value });
  }

  /** Forgets the values of records at or after `endOffset` (the log was truncated there). */
  truncateTo(endOffset: number): void {
    this.entries = this.entries.filter((entry, index) => index === 0 || entry.offset < endOffset);
  }

  /** Replaces the history with the value a snapshot holds at its end offset. */
  resetTo(endOffset: number, value: T): void {
    this.entries = [{ offset: endOffset - 1, value }];
  }

  /** Keeps only what is needed at or after `startOffset` (the log before it was deleted). */
  dropBefore(startOffset: number): void {
    let keepFrom = 0;
    this.entries.forEach((entry, index) => {
      if (entry.offset < startOffset) keepFrom = index;
    });
    this.entries = this.entries.slice(keepFrom);
  }
}
