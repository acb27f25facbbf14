import { test } from "node:test";
import assert from "node:assert/strict";
import { frameInput } from "./append-batches.js";
import { batch, join } from "./append-fixtures.test-support.js";
import { planRuns, runWrite } from "./append-runs.js";

const limits = { maxMessageBytes: 10_000, segmentBytes: 100_000, isCrcChecked: true };

test("runs split where the segment would pass segment.bytes", () => {
  const one = batch(1);
  const framed = frameInput(join([one, one, one]), limits);
  assert.ok(framed.ok);
  if (!framed.ok) return;
  const active = {
    baseOffset: 0,
    sizeInBytes: 0,
    firstBatchTimestamp: -1,
    createdMs: 0,
    rollJitterMs: 0,
    isOffsetIndexFull: false,
    isTimeIndexFull: false,
  };
  const runs = planRuns(framed.value, active, {
    config: { segmentBytes: one.length * 2, segmentMs: 1_000_000 },
    nowMs: 0,
  });
  assert.deepEqual(
    runs.map((run) => [run.rollFirst, run.batches.length]),
    [
      [false, 2],
      [true, 1],
    ],
  );
});

test("a run is written as views of its inputs, one per stretch of batches back to back", () => {
  const one = batch(1);
  const input = join([one, one]);
  const framed = frameInput(input, limits);
  assert.ok(framed.ok);
  if (!framed.ok) return;
  const [first, second] = framed.value;
  assert.ok(first !== undefined && second !== undefined);
  const view = runWrite({ rollFirst: false, batches: [first, second] });
  assert.equal(view.pieces.length, 1);
  assert.equal(view.pieces[0]?.buffer, input.buffer);
  assert.deepEqual(view.pieces[0], input);
  assert.deepEqual(
    view.batches.map((placed) => [placed.offsetInInput, placed.sizeInBytes]),
    [
      [0, one.length],
      [one.length, one.length],
    ],
  );
  const apart = runWrite({ rollFirst: false, batches: [second, first] });
  assert.equal(apart.pieces.length, 2);
  for (const piece of apart.pieces) assert.equal(piece.buffer, input.buffer);
  assert.deepEqual(join([...apart.pieces]), input);
});
