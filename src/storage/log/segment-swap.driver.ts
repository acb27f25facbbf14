/**
 * The last steps of the cleaner's swap (Kafka's replaceSegments), once the log has checked that
 * the cleaned segments cover exactly the old ones: the cleaned files become `.swap` durably, the
 * log's list takes them in place of the old segments, the old ones go to `.deleted`, then the
 * swap files go live. A crash between the steps is completed or rolled back at the next load.
 */
import type { FileSystem } from "../../ports/index.js";
import type { LogSegment } from "./log-segment.driver.js";
import type { SegmentList } from "./segment-list.js";

export async function swapInCleaned(
  sorted: readonly LogSegment[],
  old: readonly LogSegment[],
  log: {
    readonly fileSystem: FileSystem;
    readonly dir: string;
    readonly segmentList: SegmentList<LogSegment>;
    /** Removes replaced segments from use: renamed `.deleted`, deleted after the delay. */
    readonly removeReplaced: (segments: readonly LogSegment[]) => Promise<void>;
  },
): Promise<void> {
  // Kafka keeps the last old segment's modification time, so cleaning never resets the clock
  // of time-based retention for segments without timestamps.
  const lastModifiedMs = (old[old.length - 1] as LogSegment).info().lastModifiedMs;
  for (const segment of sorted) {
    await segment.flush({ withIndexes: true });
    await segment.changeStage("swap");
    segment.setLastModifiedMs(lastModifiedMs);
  }
  await log.fileSystem.syncDirectory(log.dir);
  const kept = log.segmentList.all().filter((segment) => !old.includes(segment));
  log.segmentList.replaceAll([...kept, ...sorted]);
  await log.removeReplaced(old);
  for (const segment of sorted) await segment.changeStage("live");
  await log.fileSystem.syncDirectory(log.dir);
}
