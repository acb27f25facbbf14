import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ErrorCode } from "../common/index.js";
import {
  afterFetch,
  delayed,
  fetchErrorAction,
  initialFetchState,
  isReadyForFetch,
  outOfRangeDecision,
  truncationFor,
} from "./fetch-state.js";

test("a log with epochs fetches from its end; one without truncates to its high watermark", () => {
  const withEpochs = initialFetchState({ logEndOffset: 9, highWatermark: 4, latestEpoch: 2 }, 3);
  assert.deepEqual(
    [withEpochs.state, withEpochs.fetchOffset, withEpochs.lastFetchedEpoch],
    ["fetching", 9, 2],
  );
  const without = initialFetchState(
    { logEndOffset: 9, highWatermark: 4, latestEpoch: undefined },
    3,
  );
  assert.deepEqual([without.state, without.fetchOffset], ["truncating", 4]);
  assert.equal(isReadyForFetch(without, 0), false, "a truncating partition is not fetched");
});

test("a delayed partition is fetched again once its backoff has passed", () => {
  const state = delayed(
    initialFetchState({ logEndOffset: 0, highWatermark: 0, latestEpoch: 0 }, 1),
    {
      nowMs: 100,
      backoffMs: 1000,
    },
  );
  assert.equal(isReadyForFetch(state, 1099), false);
  assert.equal(isReadyForFetch(state, 1100), true);
  const fetched = afterFetch(state, { nextOffset: 5, leaderHighWatermark: 8, latestEpoch: 1 });
  assert.deepEqual([fetched.fetchOffset, fetched.lag, fetched.delayedUntilMs], [5, 3, undefined]);
});

// KIP-101 and KIP-279: where the follower's log ends for the leader's epoch decides the cut.
const local = (epochs: readonly [epoch: number, endOffset: number][], logEndOffset: number) => ({
  logEndOffset,
  fetchOffset: logEndOffset,
  endOffsetForEpoch: (epoch: number) => {
    const known = epochs.filter(([candidate]) => candidate <= epoch);
    const last = known[known.length - 1];
    return last === undefined ? undefined : { epoch: last[0], endOffset: last[1] };
  },
});

test("a follower with the leader's epoch truncates to the smaller end of it", () => {
  // Follower: epoch 1 ends at 5, epoch 2 at 8. The leader's epoch 1 ends at 3.
  const follower = local(
    [
      [1, 5],
      [2, 8],
    ],
    8,
  );
  assert.deepEqual(truncationFor({ epoch: 1, endOffset: 3 }, follower), {
    offset: 3,
    isComplete: true,
  });
  assert.deepEqual(truncationFor({ epoch: 2, endOffset: 10 }, follower), {
    offset: 8,
    isComplete: true,
  });
});

test("a follower without the leader's epoch truncates to its older epoch, asks again", () => {
  // KIP-279: the leader answers epoch 2; the follower has only epochs 1 and 3.
  const follower = local(
    [
      [1, 4],
      [3, 9],
    ],
    9,
  );
  assert.deepEqual(truncationFor({ epoch: 2, endOffset: 6 }, follower), {
    offset: 4,
    isComplete: false,
  });
});

test("an unknown epoch keeps the offset; a log without epochs takes the leader's", () => {
  const follower = local([[1, 4]], 4);
  assert.deepEqual(truncationFor({ epoch: -1, endOffset: -1 }, follower), {
    offset: 4,
    isComplete: true,
  });
  const noEpochs = local([], 7);
  assert.deepEqual(truncationFor({ epoch: 2, endOffset: 5 }, noEpochs), {
    offset: 5,
    isComplete: true,
  });
});

test("a truncation never goes past the follower's log end", () => {
  const property = fc.property(
    fc.integer({ min: 0, max: 50 }),
    fc.integer({ min: -1, max: 5 }),
    fc.integer({ min: -1, max: 80 }),
    (logEndOffset, epoch, endOffset) => {
      const follower = local(
        [
          [0, Math.min(3, logEndOffset)],
          [2, logEndOffset],
        ],
        logEndOffset,
      );
      const decision = truncationFor({ epoch, endOffset }, follower);
      assert.ok(decision.offset <= logEndOffset);
    },
  );
  fc.assert(property, { seed: 101, numRuns: 300 });
});

test("out of range: truncate to a shorter leader, restart past its log start, or go on", () => {
  assert.deepEqual(
    outOfRangeDecision({ logEndOffset: 5, logStartOffset: 0, replicaLogEndOffset: 8 }),
    {
      kind: "truncateTo",
      offset: 5,
    },
  );
  assert.deepEqual(
    outOfRangeDecision({ logEndOffset: 90, logStartOffset: 40, replicaLogEndOffset: 8 }),
    { kind: "startAt", offset: 40 },
  );
  assert.deepEqual(
    outOfRangeDecision({ logEndOffset: 90, logStartOffset: 4, replicaLogEndOffset: 8 }),
    { kind: "fetchFrom", offset: 8 },
  );
});

test("a fenced epoch waits for metadata; out of range moves; other errors back off", () => {
  assert.equal(fetchErrorAction(ErrorCode.FENCED_LEADER_EPOCH), "awaitMetadata");
  assert.equal(fetchErrorAction(ErrorCode.OFFSET_OUT_OF_RANGE), "outOfRange");
  for (const code of [
    ErrorCode.NOT_LEADER_OR_FOLLOWER,
    ErrorCode.UNKNOWN_LEADER_EPOCH,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    ErrorCode.KAFKA_STORAGE_ERROR,
  ]) {
    assert.equal(fetchErrorAction(code), "backoff");
  }
});
