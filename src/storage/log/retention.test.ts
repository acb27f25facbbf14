import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { defaultLogConfig } from "./log-config.js";
import { deletableSegmentCount, retentionReasons, type RetentionInput } from "./retention.js";

const segment = (baseOffset: number, sizeInBytes: number, largestTimestamp: number) => ({
  baseOffset,
  sizeInBytes,
  largestTimestamp,
});

function input(changes: Partial<RetentionInput>): RetentionInput {
  return {
    segments: [segment(0, 100, 1_000), segment(10, 100, 2_000), segment(20, 100, 3_000)],
    logStartOffset: 0,
    logEndOffset: 30,
    highWatermark: 30,
    nowMs: 10_000,
    config: { ...defaultLogConfig, retentionMs: 7_500, retentionBytes: -1 },
    ...changes,
  };
}

test("retention.ms deletes the oldest segments past it and stops at the first kept", () => {
  assert.equal(deletableSegmentCount("retentionMs", input({})), 2);
  assert.equal(deletableSegmentCount("retentionMs", input({ nowMs: 9_000 })), 1);
});

test("retention.bytes deletes while the rest stays at or above it", () => {
  const config = { ...defaultLogConfig, retentionBytes: 150 };
  assert.equal(deletableSegmentCount("retentionBytes", input({ config })), 1);
  assert.equal(
    deletableSegmentCount("retentionBytes", input({ config: { ...config, retentionBytes: 100 } })),
    2,
  );
});

test("the log start offset deletes segments wholly below it", () => {
  assert.equal(deletableSegmentCount("logStartOffset", input({ logStartOffset: 15 })), 1);
  assert.equal(deletableSegmentCount("logStartOffset", input({ logStartOffset: 20 })), 2);
  assert.deepEqual(
    retentionReasons({ ...defaultLogConfig, cleanupPolicy: { delete: false, compact: true } }),
    ["logStartOffset"],
  );
});

test("no rule deletes a segment that holds offsets at or above the high watermark", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 30 }),
      fc.constantFrom("logStartOffset", "retentionBytes", "retentionMs" as const),
      (highWatermark, reason) => {
        const config = { ...defaultLogConfig, retentionMs: 0, retentionBytes: 0 };
        const count = deletableSegmentCount(
          reason,
          input({ highWatermark, logStartOffset: highWatermark, config }),
        );
        const upperBounds = [10, 20, 30];
        for (let index = 0; index < count; index++)
          assert.ok((upperBounds[index] ?? 0) <= highWatermark);
      },
    ),
    { seed: 7 },
  );
});
