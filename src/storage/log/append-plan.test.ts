import { test } from "node:test";
import assert from "node:assert/strict";
import { batch } from "./append-fixtures.test-support.js";
import {
  APPEND_GROUP_BYTES_MAX,
  APPEND_GROUP_COUNT_MAX,
  appendGroupSize,
  planGroup,
} from "./append-plan.js";
import { ProducerStateManager } from "../producer-state/index.js";

test("a group takes the oldest append always, then what fits its count and byte limits", () => {
  const sized = (length: number) => ({ records: new Uint8Array(length) });
  assert.equal(appendGroupSize([]), 0);
  assert.equal(appendGroupSize([sized(APPEND_GROUP_BYTES_MAX + 1), sized(1)]), 1);
  const half = APPEND_GROUP_BYTES_MAX / 2;
  assert.equal(appendGroupSize([sized(half), sized(half), sized(1)]), 2);
  const many = Array.from({ length: APPEND_GROUP_COUNT_MAX + 5 }, () => sized(1));
  assert.equal(appendGroupSize(many), APPEND_GROUP_COUNT_MAX);
});

test("a group's inputs follow each other's offsets and a refused one takes none", () => {
  const config = {
    maxMessageBytes: 10_000,
    segmentBytes: 100_000,
    messageTimestampType: "LogAppendTime" as const,
    producerIdExpirationMs: 86_400_000,
  };
  const leader = { kind: "leader", leaderEpoch: 3, origin: "client" } as const;
  const planned = planGroup(
    [
      { records: batch(2), mode: leader },
      { records: batch(1).subarray(0, 30), mode: leader },
      { records: batch(3), mode: leader },
      { records: batch(1, 15), mode: { kind: "follower" } },
    ],
    { config, logEndOffset: 10, nowMs: 777 },
    new ProducerStateManager(),
  );
  const accepted = planned.accepted.map((each) => [
    each.input.records.length,
    each.batches.map((one) => [one.baseOffset, one.lastOffset]),
    each.logAppendTime,
  ]);
  const sizes = [batch(2).length, batch(3).length, batch(1).length];
  assert.deepEqual(accepted, [
    [sizes[0], [[10, 11]], 777],
    [sizes[1], [[12, 14]], 777],
    [sizes[2], [[15, 15]], -1],
  ]);
  assert.deepEqual(
    planned.refused.map((each) => each.refusal.kind),
    ["corruptInput"],
  );
});
