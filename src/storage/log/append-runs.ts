/**
 * How an append group reaches the segments: its batches split into runs by the roll rule
 * (`segment-roll.ts`), one file append per run, each run starting a new segment where the rule
 * says the active one must roll; and the bytes of each write. Pure.
 */
import { assert } from "../../common/index.js";
import type { LogConfig } from "./log-config.js";
import type { FramedBatch } from "./append-batches.js";
import type { AppendedBatch } from "./segment-indexing.js";
import { rollReason, type ActiveSegmentState } from "./segment-roll.js";

/** Batches that go to one segment with one write; `rollFirst` says a new segment starts them. */
export interface SegmentRun {
  readonly rollFirst: boolean;
  readonly batches: readonly FramedBatch[];
}

/**
 * Splits `batches` into runs by the roll rule, simulating the active segment as runs fill it:
 * a run ends where the next batch would make the segment roll.
 */
export function planRuns(
  batches: readonly FramedBatch[],
  active: ActiveSegmentState,
  options: {
    readonly config: Pick<LogConfig, "segmentBytes" | "segmentMs">;
    readonly nowMs: number;
  },
): SegmentRun[] {
  const runs: SegmentRun[] = [];
  // A working copy of the active segment's state, updated as batches are placed in it.
  let segment = { ...active };
  let current: FramedBatch[] = [];
  let rollFirst = false;
  for (const batch of batches) {
    const { sizeInBytes, maxTimestamp, lastOffset } = batch;
    const incoming = { sizeInBytes, maxTimestamp, lastOffset, nowMs: options.nowMs };
    if (rollReason(segment, incoming, options.config) !== "none") {
      if (current.length > 0) runs.push({ rollFirst, batches: current });
      current = [];
      rollFirst = true;
      segment = emptySegmentAt(batch.baseOffset, segment, options.nowMs);
    }
    current.push(batch);
    if (segment.sizeInBytes === 0) segment.firstBatchTimestamp = batch.maxTimestamp;
    segment.sizeInBytes += batch.sizeInBytes;
  }
  if (current.length > 0) runs.push({ rollFirst, batches: current });
  return runs;
}

function emptySegmentAt(
  baseOffset: number,
  previous: ActiveSegmentState,
  nowMs: number,
): { -readonly [Key in keyof ActiveSegmentState]: ActiveSegmentState[Key] } {
  return {
    ...previous,
    baseOffset,
    sizeInBytes: 0,
    firstBatchTimestamp: -1,
    createdMs: nowMs,
    isOffsetIndexFull: false,
    isTimeIndexFull: false,
  };
}

/**
 * What one write of `run` to its segment is: the bytes (a view when the batches lie back to back
 * in one input, else a copy), each batch placed within them, and the first batch's base offset.
 */
export function runWrite(run: SegmentRun): {
  readonly bytes: Uint8Array;
  readonly batches: readonly AppendedBatch[];
  readonly baseOffset: number;
} {
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
  const first = batches[0];
  assert(first !== undefined, "a run holds at least one batch");
  return { bytes: runBytes(run), batches, baseOffset: first.baseOffset };
}

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
