/**
 * The operations that remove data from the log: truncation (a follower's divergence), a full
 * truncation, DeleteRecords, retention, and the cleaner's swap of cleaned segments. Each runs in
 * the log's queue with the group commit paused, because each removes or renames segments.
 */
import { assert, dirname } from "../../common/index.js";
import type { LogCore } from "./log-core.driver.js";
import { LogSegment } from "./log-segment.driver.js";
import { deletableSegmentCount, retentionReasons, type RetentionInput } from "./retention.js";

/** Runs `operation` in the queue with no flush under way. */
function exclusively<T>(core: LogCore, operation: () => Promise<T>): Promise<T> {
  core.checkUsable();
  return core.queue.enqueue(() => core.groupCommit.exclusive(operation));
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
 * The cleaner's swap (Kafka's replaceSegments): `cleaned` segments, written and in the
 * `cleaned` stage, replace `replaced` (live segments of this log, never the active one). The
 * cleaned files become `.swap`, the replaced ones `.deleted`, then the swap files go live; a
 * crash at any step is completed or rolled back when the log is loaded again.
 */
export function replaceSegments(
  core: LogCore,
  cleaned: readonly LogSegment[],
  replaced: readonly LogSegment[],
): Promise<void> {
  return exclusively(core, async () => {
    const { fileSystem, dir } = core.context;
    const sorted = [...cleaned].sort((a, b) => b.baseOffset - a.baseOffset);
    for (const segment of sorted)
      assert(segment.stage === "cleaned", "swapped-in segments are cleaned ones");
    for (const segment of replaced)
      assert(segment !== core.segments.active, "the active segment is never replaced");
    for (const segment of sorted) {
      await segment.flush({ withIndexes: true });
      await segment.changeStage("swap");
    }
    await fileSystem.syncDirectory(dir);
    const present = new Set(core.segments.all());
    const old = replaced.filter((segment) => present.has(segment));
    const kept = core.segments.all().filter((segment) => !old.includes(segment));
    core.segments.replaceAll([...kept, ...sorted]);
    await core.removeSegments(old, { isReplaced: true });
    for (const segment of sorted) await segment.changeStage("live");
    await fileSystem.syncDirectory(dir);
  });
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
