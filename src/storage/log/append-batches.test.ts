import { test } from "node:test";
import assert from "node:assert/strict";
import { batch, join } from "./append-fixtures.test-support.js";
import { assignOffsets, checkFollowerOffsets, frameInput } from "./append-batches.js";

const limits = { maxMessageBytes: 10_000, segmentBytes: 100_000, isCrcChecked: true };

test("the leader assigns offsets from the log end and stamps its epoch in place", () => {
  const input = join([batch(2), batch(3)]);
  const framed = frameInput(input, limits);
  assert.ok(framed.ok);
  if (!framed.ok) return;
  const stamped = assignOffsets(framed.value, {
    logEndOffset: 40,
    leaderEpoch: 7,
    logAppendTimeMs: undefined,
  });
  assert.ok(stamped.ok);
  if (!stamped.ok) return;
  assert.deepEqual(
    stamped.value.map((each) => [
      each.baseOffset,
      each.lastOffset,
      each.header.partitionLeaderEpoch,
    ]),
    [
      [40, 41, 7],
      [42, 44, 7],
    ],
  );
  assert.ok(
    stamped.value.every((each) => each.header.isCrcValid()),
    "stamping keeps the CRC valid",
  );
});

test("framing refuses partial, oversized and corrupted inputs", () => {
  const good = batch(1);
  assert.equal(frameInput(good.subarray(0, 40), limits).ok, false);
  const refusal = frameInput(good, { ...limits, maxMessageBytes: 10 });
  assert.equal(!refusal.ok && refusal.refusal.kind, "batchTooLarge");
  const flipped = good.slice();
  flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
  const corrupt = frameInput(flipped, limits);
  assert.equal(!corrupt.ok && corrupt.refusal.kind, "corruptInput");
});

test("a follower's offsets must start at the log end or later and increase", () => {
  const framed = frameInput(join([batch(2, 10), batch(1, 12)]), limits);
  assert.ok(framed.ok);
  if (!framed.ok) return;
  assert.equal(checkFollowerOffsets(framed.value, 10).ok, true);
  const behind = checkFollowerOffsets(framed.value, 11);
  assert.equal(!behind.ok && behind.refusal.kind, "unexpectedAppendOffset");
  const reordered = frameInput(join([batch(2, 10), batch(1, 11)]), limits);
  assert.ok(reordered.ok);
  if (!reordered.ok) return;
  const outOfOrder = checkFollowerOffsets(reordered.value, 0);
  assert.equal(!outOfOrder.ok && outOfOrder.refusal.kind, "offsetsOutOfOrder");
});
