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
 * What one write of `run` to its segment is: the bytes as pieces for one vectored write (a view
 * of each stretch of batches that lie back to back in one input, never a copy), each batch
 * placed within them, and the first batch's base offset.
 */
export function runWrite(run: SegmentRun): {
  readonly pieces: readonly Uint8Array[];
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
  return { pieces: runPieces(run), batches, baseOffset: first.baseOffset };
}

/** The run's bytes as views: one per stretch of batches back to back in the same input. */
function runPieces(run: SegmentRun): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let current: FramedBatch | undefined;
  let start = 0;
  let end = 0;
  for (const batch of run.batches) {
    if (current !== undefined && batch.input === current.input && batch.offsetInInput === end) {
      end += batch.sizeInBytes;
      continue;
    }
    if (current !== undefined) pieces.push(current.input.subarray(start, end));
    current = batch;
    start = batch.offsetInInput;
    end = start + batch.sizeInBytes;
  }
  if (current !== undefined) pieces.push(current.input.subarray(start, end));
  return pieces;
}
