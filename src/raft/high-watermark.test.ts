import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { computeHighWatermark } from "./high-watermark.js";

/** The rule stated plainly: the largest offset held by a majority, if it may be exposed. */
function naiveHighWatermark(
  ends: (number | undefined)[],
  epochStart: number,
  current: number | undefined,
): number | undefined {
  let best: number | undefined;
  for (let candidate = 0; candidate <= 1000; candidate++) {
    const holders = ends.filter((end) => end !== undefined && end >= candidate).length;
    if (holders * 2 > ends.length) best = candidate;
  }
  if (best === undefined || best <= epochStart) return undefined;
  if (current !== undefined && best <= current) return undefined;
  return best;
}

test("the high watermark is the largest offset a majority holds, past the epoch start", () => {
  const arbitrary = fc.record({
    ends: fc.array(fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }), {
      minLength: 1,
      maxLength: 7,
    }),
    epochStart: fc.integer({ min: 0, max: 1000 }),
    current: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
  });
  fc.assert(
    fc.property(arbitrary, ({ ends, epochStart, current }) => {
      const input = { voterEndOffsets: ends, epochStartOffset: epochStart, highWatermark: current };
      assert.equal(computeHighWatermark(input), naiveHighWatermark(ends, epochStart, current));
    }),
    { seed: 20240601, numRuns: 500 },
  );
});

test("a new leader exposes nothing until a record of its own epoch is held by a majority", () => {
  const input = { voterEndOffsets: [10, 10, 4], epochStartOffset: 10, highWatermark: undefined };
  assert.equal(computeHighWatermark(input), undefined);
  assert.equal(computeHighWatermark({ ...input, voterEndOffsets: [11, 11, 4] }), 11);
});

test("the high watermark never moves backwards", () => {
  const input = { voterEndOffsets: [5, 5, 5], epochStartOffset: 0, highWatermark: 8 };
  assert.equal(computeHighWatermark(input), undefined);
});
