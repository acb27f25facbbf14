/**
 * The segments a log took out (retention, truncation, DeleteRecords, the cleaner's swap), as
 * Kafka deletes them: renamed `.deleted` at once, so that a restart never loads them again, and
 * their files removed only once `file.delete.delay.ms` has passed, so that reads under way (file
 * slices handed out before) finish on the old files first.
 */
import type { LogSegment } from "./log-segment.driver.js";

interface PendingDeletion {
  readonly segment: LogSegment;
  readonly deleteAtMs: number;
}

export class DeletedSegments {
  private pending: PendingDeletion[] = [];

  /** Renames the files of `segments` `.deleted`; they go at `deleteAtMs` (see deleteDue). */
  async add(segments: readonly LogSegment[], deleteAtMs: number): Promise<void> {
    for (const segment of segments) {
      await segment.changeStage("deleted");
      this.pending.push({ segment, deleteAtMs });
    }
  }

  /** Deletes the files of the segments due at `nowMs`; resolves to how many segments went. */
  async deleteDue(nowMs: number): Promise<number> {
    const due = this.pending.filter((pending) => pending.deleteAtMs <= nowMs);
    this.pending = this.pending.filter((pending) => pending.deleteAtMs > nowMs);
    for (const pending of due) await pending.segment.deleteFiles();
    return due.length;
  }

  /** Closes the files of every segment without deleting them (a restart removes them). */
  async closeAll(): Promise<void> {
    for (const pending of this.pending.splice(0)) await pending.segment.close();
  }
}
