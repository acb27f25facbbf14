import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LeaderEpochCache } from "../storage/index.js";
import { endOffsetOnLeader } from "./leader-epoch-end.js";

function cacheOf(entries: readonly { epoch: number; startOffset: number }[]): LeaderEpochCache {
  const cache = new LeaderEpochCache();
  for (const { epoch, startOffset } of entries) cache.assign(epoch, startOffset);
  return cache;
}

/** A leader whose log holds `entries` (epoch, start offset) and ends at `logEndOffset`. */
function leaderOf(
  entries: readonly { epoch: number; startOffset: number }[],
  leader: { leaderEpoch: number; logEndOffset: number },
) {
  const cache = cacheOf(entries);
  return {
    ...leader,
    latestEpoch: cache.latestEpoch() ?? -1,
    endOffsetForEpoch: (epoch: number) => {
      const end = cache.endOffsetFor(epoch, leader.logEndOffset);
      return { epoch: end.leaderEpoch, endOffset: end.endOffset };
    },
  };
}

test("a leader yet to append in its epoch tells where an epoch it never had ends", () => {
  // The log wrote epochs 0 and 3; the broker leads epoch 6 from offset 9 on.
  const leader = leaderOf(
    [
      { epoch: 0, startOffset: 0 },
      { epoch: 3, startOffset: 4 },
    ],
    { leaderEpoch: 6, logEndOffset: 9 },
  );
  // An epoch between the last written and the current: epoch 3 ends where epoch 6 starts.
  assert.deepEqual(endOffsetOnLeader(5, leader), { epoch: 3, endOffset: 9 });
  assert.deepEqual(endOffsetOnLeader(6, leader), { epoch: 6, endOffset: 9 });
  assert.deepEqual(endOffsetOnLeader(3, leader), { epoch: 3, endOffset: 9 });
  assert.deepEqual(endOffsetOnLeader(2, leader), { epoch: 0, endOffset: 4 });
  assert.deepEqual(endOffsetOnLeader(-1, leader), { epoch: -1, endOffset: -1 });
  // A log without epochs: the requested epoch ends where the leader's starts.
  const empty = leaderOf([], { leaderEpoch: 2, logEndOffset: 0 });
  assert.deepEqual(endOffsetOnLeader(1, empty), { epoch: 1, endOffset: 0 });
});

test("a leader answers as Kafka's cache does once the leader's epoch start is recorded", () => {
  const history = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 5 })), {
      maxLength: 5,
    })
    .map((steps) => {
      let epoch = -1;
      let startOffset = 0;
      return steps.map(([epochStep, length]) => {
        epoch += epochStep;
        const entry = { epoch, startOffset };
        startOffset += length;
        return { entry, endOffset: startOffset };
      });
    });
  fc.assert(
    fc.property(history, fc.integer({ min: 0, max: 3 }), (written, ahead) => {
      const entries = written.map(({ entry }) => entry);
      const logEndOffset = written.at(-1)?.endOffset ?? 0;
      const latestEpoch = entries.at(-1)?.epoch ?? -1;
      const leaderEpoch = Math.max(0, latestEpoch + ahead);
      const leader = leaderOf(entries, { leaderEpoch, logEndOffset });
      // Kafka's makeLeader records (leaderEpoch, log end offset) in the cache.
      const kafka = cacheOf(entries);
      kafka.assign(leaderEpoch, logEndOffset);
      for (let requested = -1; requested <= leaderEpoch; requested++) {
        const expected = kafka.endOffsetFor(requested, logEndOffset);
        assert.deepEqual(endOffsetOnLeader(requested, leader), {
          epoch: expected.leaderEpoch,
          endOffset: expected.endOffset,
        });
      }
    }),
  );
});
