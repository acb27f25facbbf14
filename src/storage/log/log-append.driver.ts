/**
 * Appends to the log. Callers wait in an explicit queue of pending appends; one operation of the
 * log's queue takes every pending append (up to a limit), frames each input and assigns its
 * offsets (leader) or checks them (follower) in arrival order, and writes them all with one file
 * append per segment. A refused input is answered alone; the others go on. When
 * `flush.messages` is reached, each append waits for the group commit outside the queue, so
 * later appends are written while the fsync runs.
 */
import { assert } from "../../common/index.js";
import {
  appendResultOf,
  assignOffsets,
  checkFollowerOffsets,
  frameInput,
  planRuns,
  type FramedBatch,
  type Planned,
  type SegmentRun,
} from "./append-plan.js";
import type { LogCore } from "./log-core.driver.js";
import { LogAppendError, LogClosedError, isLogAppendError } from "./log-errors.js";
import type { AppendResult } from "./log-types.js";

/** Who appends: the leader (assigns offsets, stamps its epoch) or a follower (keeps offsets). */
export type AppendMode =
  { readonly kind: "leader"; readonly leaderEpoch: number } | { readonly kind: "follower" };

/** The most bytes one group of coalesced appends writes; the rest wait for the next group. */
export const APPEND_GROUP_BYTES_MAX = 4 * 1024 * 1024;
/** The most appends in one group. */
export const APPEND_GROUP_COUNT_MAX = 1024;

/** An append waiting for its group. */
interface PendingAppend {
  readonly records: Uint8Array;
  readonly mode: AppendMode;
  readonly resolve: (written: Written) => void;
  readonly reject: (error: unknown) => void;
}

interface Written {
  readonly result: AppendResult;
  /** The offset the append must be durable up to before it resolves, if any. */
  readonly flushTo: number | undefined;
}

/** An accepted append: its batches, stamped, in the input's bytes. */
interface Accepted {
  readonly pending: PendingAppend;
  readonly batches: readonly FramedBatch[];
  readonly logAppendTime: number;
}

/** The appends waiting for a group, per log. */
const waiting = new WeakMap<LogCore, PendingAppend[]>();

/** Appends `records` (whole v2 batches) as `mode` says; throws LogAppendError on a refusal. */
export async function appendRecords(
  core: LogCore,
  records: Uint8Array,
  mode: AppendMode,
): Promise<AppendResult> {
  core.checkUsable();
  const written = await new Promise<Written>((resolve, reject) => {
    let pending = waiting.get(core);
    if (pending === undefined) {
      pending = [];
      waiting.set(core, pending);
    }
    pending.push({ records, mode, resolve, reject });
    // One queued group operation serves every append waiting when it runs.
    if (pending.length === 1) void core.queue.enqueue(() => writeGroup(core));
  });
  if (written.flushTo !== undefined) await core.groupCommit.flushTo(written.flushTo);
  return written.result;
}

/** Takes the waiting appends (within the limits) and writes them; never rejects. */
async function writeGroup(core: LogCore): Promise<void> {
  const pending = waiting.get(core) ?? [];
  const group: PendingAppend[] = [];
  let bytes = 0;
  while (pending.length > 0 && group.length < APPEND_GROUP_COUNT_MAX) {
    const next = pending[0] as PendingAppend;
    if (group.length > 0 && bytes + next.records.length > APPEND_GROUP_BYTES_MAX) break;
    group.push(next);
    pending.shift();
    bytes += next.records.length;
  }
  if (pending.length > 0) void core.queue.enqueue(() => writeGroup(core));
  try {
    const accepted = acceptInputs(core, group);
    const written = await writeAccepted(core, accepted);
    accepted.forEach((each, index) => each.pending.resolve(written[index] as Written));
  } catch (error) {
    // An I/O error fails every append of the group, none of which is known to be written, and
    // the log: the log manager takes its dir offline, as Kafka does.
    if (!isLogAppendError(error) && !(error instanceof LogClosedError)) core.fail(error);
    for (const each of group) each.reject(error);
  }
}

function unwrap<T>(planned: Planned<T>): T {
  if (!planned.ok) throw new LogAppendError(planned.refusal);
  return planned.value;
}

/** Frames each input and assigns or checks its offsets; refused inputs are answered here. */
function acceptInputs(core: LogCore, group: readonly PendingAppend[]): Accepted[] {
  core.checkUsable();
  const nowMs = core.context.clock.nowMs();
  let logEndOffset = core.logEndOffset;
  const accepted: Accepted[] = [];
  for (const pending of group) {
    try {
      const planned = planInput(core, pending, { logEndOffset, nowMs });
      const last = planned.batches[planned.batches.length - 1];
      if (last !== undefined) logEndOffset = last.lastOffset + 1;
      accepted.push({ pending, ...planned });
    } catch (error) {
      if (!isLogAppendError(error)) throw error;
      pending.reject(error);
    }
  }
  return accepted;
}

function planInput(
  core: LogCore,
  pending: PendingAppend,
  at: { readonly logEndOffset: number; readonly nowMs: number },
): Omit<Accepted, "pending"> {
  const { config } = core;
  const { mode } = pending;
  const isLeader = mode.kind === "leader";
  const limits = {
    maxMessageBytes: isLeader ? config.maxMessageBytes : undefined,
    segmentBytes: config.segmentBytes,
    isCrcChecked: !isLeader,
  };
  const framed = unwrap(frameInput(pending.records, limits));
  const logAppendTime = isLeader && config.messageTimestampType === "LogAppendTime" ? at.nowMs : -1;
  if (framed.length === 0) return { batches: [], logAppendTime };
  if (mode.kind === "follower")
    return { batches: unwrap(checkFollowerOffsets(framed, at.logEndOffset)), logAppendTime };
  const logAppendTimeMs = logAppendTime < 0 ? undefined : logAppendTime;
  const options = { logEndOffset: at.logEndOffset, leaderEpoch: mode.leaderEpoch, logAppendTimeMs };
  return { batches: unwrap(assignOffsets(framed, options)), logAppendTime };
}

/** Writes the accepted appends; resolves to what each one gets. */
async function writeAccepted(core: LogCore, accepted: readonly Accepted[]): Promise<Written[]> {
  const batches = accepted.flatMap((each) => each.batches);
  if (batches.length > 0) {
    await assignEpochs(core, batches);
    const nowMs = core.context.clock.nowMs();
    const runs = planRuns(batches, core.segments.active.rollState(), {
      config: core.config,
      nowMs,
    });
    for (const run of runs) await writeRun(core, run, nowMs);
  }
  const unflushedMessages = core.logEndOffset - core.groupCommit.flushedOffset;
  const flushTo = unflushedMessages >= core.config.flushMessages ? core.logEndOffset : undefined;
  return accepted.map((each) => ({
    result: appendResultOf(each.batches, each.logAppendTime),
    flushTo: each.batches.length === 0 ? undefined : flushTo,
  }));
}

/**
 * Records each new epoch the batches carry with its first offset, durably, before the batches
 * are written, as Kafka does: the checkpoint then never misses an epoch that is in the log.
 */
async function assignEpochs(core: LogCore, batches: readonly FramedBatch[]): Promise<void> {
  let latest = core.epochCache.latestEpoch();
  for (const batch of batches) {
    const epoch = batch.header.partitionLeaderEpoch;
    // The common case, the latest epoch again, needs no write and no await.
    if (epoch < 0 || epoch === latest) continue;
    await core.epochCache.assign(epoch, batch.baseOffset);
    latest = epoch;
  }
}

/** The bytes of a run: a view when its batches lie back to back in one input, else a copy. */
function runBytes(run: SegmentRun): Uint8Array {
  const first = run.batches[0] as FramedBatch;
  if (run.batches.length === 1) {
    return first.input.subarray(first.offsetInInput, first.offsetInInput + first.sizeInBytes);
  }
  const isOneView = run.batches.every((batch, index) => {
    const previous = run.batches[index - 1];
    return (
      previous === undefined ||
      (batch.input === previous.input &&
        batch.offsetInInput === previous.offsetInInput + previous.sizeInBytes)
    );
  });
  const total = run.batches.reduce((sum, batch) => sum + batch.sizeInBytes, 0);
  if (isOneView) return first.input.subarray(first.offsetInInput, first.offsetInInput + total);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const batch of run.batches) {
    bytes.set(
      batch.input.subarray(batch.offsetInInput, batch.offsetInInput + batch.sizeInBytes),
      at,
    );
    at += batch.sizeInBytes;
  }
  assert(at === total, "a run's copy holds all its batches");
  return bytes;
}

/** Writes one run of batches to the active segment (rolling first when the run says so). */
async function writeRun(core: LogCore, run: SegmentRun, nowMs: number): Promise<void> {
  const first = run.batches[0] as FramedBatch;
  if (run.rollFirst) await core.roll(first.baseOffset);
  let position = 0;
  const batches = run.batches.map((batch) => {
    const placed = {
      offsetInInput: position,
      sizeInBytes: batch.sizeInBytes,
      baseOffset: batch.baseOffset,
      lastOffset: batch.lastOffset,
      maxTimestamp: batch.maxTimestamp,
    };
    position += batch.sizeInBytes;
    return placed;
  });
  await core.segments.active.append(runBytes(run), batches, nowMs);
}
