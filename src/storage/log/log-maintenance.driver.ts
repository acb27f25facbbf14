/**
 * The operations that remove data from the log: truncation (a follower's divergence), a full
 * truncation, DeleteRecords, retention, and the cleaner's swap of cleaned segments. Each runs in
 * the log's queue with the group commit paused, because each removes or renames segments.
 */
import { assert, dirname } from "../../common/index.js";
import type { LogCore } from "./log-core.driver.js";
import { LogSegment } from "./log-segment.driver.js";
import { deletableSegmentCount, retentionReasons, type RetentionInput } from "./retention.js";

/**
 * Runs `operation` in the queue with no flush under way, once the log is still usable when its
 * turn comes (a close queued before it may have run).
 */
function exclusively<T>(core: LogCore, operation: () => Promise<T>): Promise<T> {
  core.checkUsable();
  return core.queue.enqueue(() => {
    core.checkUsable();
    return core.groupCommit.exclusive(operation);
  });
}

/**
 * Removes every batch from the one holding `offset` on (Kafka's truncateTo); resolves to
 * whether anything was removed. The cut, the epoch cache and the removed segments' renames are
 * made durable before it resolves, so a crash cannot bring the removed batches back.
 */
export function truncateTo(core: LogCore, offset: number): Promise<boolean> {
  return exclusively(core, async () => {
    if (offset >= core.logEndOffset) return false;
    if (offset < core.segments.first.baseOffset) {
      await startAt(core, offset);
      return true;
    }
    const later = core.segments.all().filter((segment) => segment.baseOffset > offset);
    await core.removeSegments(later);
    const active = core.segments.active;
    await active.truncateTo(offset);
    await active.flush({ withIndexes: false });
    await core.context.fileSystem.syncDirectory(core.context.dir);
    core.epochCache.truncateFromEnd(core.logEndOffset);
    await core.epochCache.flush();
    core.logStartOffset = Math.min(core.logStartOffset, core.logEndOffset);
    core.groupCommit.truncatedTo(core.logEndOffset);
    return true;
  });
}

/** Removes every segment and starts the log empty at `offset` (Kafka's truncateFullyAndStartAt). */
export function truncateFullyAndStartAt(core: LogCore, offset: number): Promise<void> {
  return exclusively(core, () => startAt(core, offset));
}

async function startAt(core: LogCore, offset: number): Promise<void> {
  const old = core.segments.all();
  await core.removeSegments(old, { isReplaced: true });
  const fresh = await LogSegment.create(core.segmentOptions(offset));
  core.segments.replaceAll([fresh]);
  await core.context.fileSystem.syncDirectory(core.context.dir);
  await core.epochCache.clearAndFlush();
  core.logStartOffset = offset;
  core.groupCommit.truncatedTo(offset);
  core.groupCommit.markFlushed(offset);
}

/**
 * Moves the log start offset up to `offset` (DeleteRecords) and deletes the segments wholly
 * below it; resolves to whether the start moved. The caller checks `offset` against the high
 * watermark, as Kafka's Partition does.
 */
export function maybeIncrementLogStartOffset(core: LogCore, offset: number): Promise<boolean> {
  return exclusively(core, async () => {
    assert(offset <= core.logEndOffset, "a new log start offset is at most the log end offset");
    if (!(await core.advanceLogStartOffset(offset))) return false;
    await deleteByReason(core, "logStartOffset", {
      nowMs: core.context.clock.nowMs(),
      highWatermark: offset,
    });
    return true;
  });
}

/** Retention by Kafka's rules (see retention.ts); resolves to the count of segments deleted. */
export function deleteOldSegments(
  core: LogCore,
  options: { readonly nowMs: number; readonly highWatermark: number },
): Promise<number> {
  return exclusively(core, async () => {
    let deleted = 0;
    for (const reason of retentionReasons(core.config))
      deleted += await deleteByReason(core, reason, options);
    if (deleted > 0) await core.maybeSyncDirectory();
    return deleted;
  });
}

async function deleteByReason(
  core: LogCore,
  reason: Parameters<typeof deletableSegmentCount>[0],
  options: { readonly nowMs: number; readonly highWatermark: number },
): Promise<number> {
  const input: RetentionInput = {
    segments: core.segments.all().map((segment) => segment.info()),
    logStartOffset: core.logStartOffset,
    logEndOffset: core.logEndOffset,
    highWatermark: Math.min(options.highWatermark, core.logEndOffset),
    nowMs: options.nowMs,
    config: core.config,
  };
  const count = deletableSegmentCount(reason, input);
  if (count === 0) return 0;
  const doomed = core.segments.all().slice(0, count);
  // A log keeps one segment: when all must go, roll first; an empty active one stays.
  if (count === core.segments.count) {
    const fresh = await core.roll();
    if (doomed[doomed.length - 1] === fresh) doomed.pop();
  }
  await core.removeSegments(doomed);
  core.context.logger.info("deleted old segments", {
    dir: core.context.dir,
    reason,
    count: doomed.length,
  });
  await core.advanceLogStartOffset(core.segments.first.baseOffset);
  return doomed.length;
}

/**
 * The cleaner's swap (Kafka's replaceSegments): `newSegments`, written, flushed and in stage
 * `cleaned`, replace the live segments based at `oldBaseOffsets`. The new files become `.swap`
 * (durably), the old ones `.deleted` (their handles stay readable for slices handed out; the
 * files go after file.delete.delay.ms), then the swap files go live. A crash at any step is
 * completed or rolled back when the log is loaded again. Resolves to false, deleting the new
 * segments and changing nothing else, when the log no longer holds exactly those old segments
 * (a truncation or retention ran meanwhile) or one of them is the active segment.
 */
export function replaceSegments(
  core: LogCore,
  newSegments: readonly LogSegment[],
  oldBaseOffsets: readonly number[],
): Promise<boolean> {
  return exclusively(core, async () => {
    const sorted = [...newSegments].sort((a, b) => a.baseOffset - b.baseOffset);
    for (const segment of sorted)
      assert(segment.stage === "cleaned", "swapped-in segments are cleaned ones");
    const old = liveSegmentsAt(core, oldBaseOffsets);
    if (old === undefined || !isCoveredBy(sorted, old)) {
      for (const segment of sorted) await segment.deleteFiles();
      core.context.logger.info("dropped a cleaned group: the log changed while it was cleaned", {
        dir: core.context.dir,
        oldBaseOffsets: oldBaseOffsets.join(","),
      });
      return false;
    }
    await swapIn(core, sorted, old);
    return true;
  });
}

/**
 * The live segments based at `baseOffsets`, when they are consecutive in the log, in that
 * order, and none is the active segment; else undefined.
 */
function liveSegmentsAt(core: LogCore, baseOffsets: readonly number[]): LogSegment[] | undefined {
  const all = core.segments.all();
  const first = all.findIndex((segment) => segment.baseOffset === baseOffsets[0]);
  if (first < 0 || baseOffsets.length === 0) return undefined;
  const run = all.slice(first, first + baseOffsets.length);
  const isSame =
    run.length === baseOffsets.length &&
    run.every((segment, index) => segment.baseOffset === baseOffsets[index]);
  if (!isSame || run.includes(core.segments.active)) return undefined;
  return run;
}

/**
 * Whether the new segments start where the old ones do and end no later: a truncation inside
 * the old segments since they were read would otherwise bring removed batches back.
 */
function isCoveredBy(newSegments: readonly LogSegment[], old: readonly LogSegment[]): boolean {
  const firstNew = newSegments[0];
  const lastNew = newSegments[newSegments.length - 1];
  const firstOld = old[0];
  const lastOld = old[old.length - 1];
  if (firstNew === undefined || lastNew === undefined) return false;
  if (firstOld === undefined || lastOld === undefined) return false;
  return firstNew.baseOffset === firstOld.baseOffset && lastNew.nextOffset <= lastOld.nextOffset;
}

async function swapIn(
  core: LogCore,
  sorted: readonly LogSegment[],
  old: readonly LogSegment[],
): Promise<void> {
  const { fileSystem, dir } = core.context;
  // Kafka keeps the last old segment's modification time, so cleaning never resets the clock
  // of time-based retention for segments without timestamps.
  const lastModifiedMs = (old[old.length - 1] as LogSegment).info().lastModifiedMs;
  for (const segment of sorted) {
    await segment.flush({ withIndexes: true });
    await segment.changeStage("swap");
    segment.setLastModifiedMs(lastModifiedMs);
  }
  await fileSystem.syncDirectory(dir);
  const kept = core.segments.all().filter((segment) => !old.includes(segment));
  core.segments.replaceAll([...kept, ...sorted].sort((a, b) => a.baseOffset - b.baseOffset));
  await core.removeSegments(old, { isReplaced: true });
  for (const segment of sorted) await segment.changeStage("live");
  await fileSystem.syncDirectory(dir);
}

/** Flushes everything with the indexes, then closes every file (see PartitionLog.close). */
export function closeLog(core: LogCore): Promise<void> {
  return exclusively(core, async () => {
    core.isClosed = true;
    await core.segments.active.onBecomeInactive();
    for (const segment of core.segments.all()) await segment.flush({ withIndexes: true });
    await core.context.fileSystem.syncDirectory(core.context.dir);
    core.groupCommit.markFlushed(core.logEndOffset);
    for (const segment of core.segments.all()) await segment.close();
    await core.closePendingDeletions();
  });
}

/** Closes every file and removes the partition folder with everything in it. */
export function deleteLog(core: LogCore): Promise<void> {
  return exclusively(core, async () => {
    core.isClosed = true;
    for (const segment of core.segments.all()) await segment.close();
    await core.closePendingDeletions();
    const { fileSystem, dir } = core.context;
    await fileSystem.rmdir(dir, { recursive: true });
    await fileSystem.syncDirectory(dirname(dir));
  });
}
