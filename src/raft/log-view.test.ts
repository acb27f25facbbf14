import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LogView } from "./log-view.js";

/** A log as the list of each offset's epoch. */
function viewOf(epochs: number[]): LogView {
  const entries: { epoch: number; startOffset: number }[] = [];
  epochs.forEach((epoch, offset) => {
    if (entries.at(-1)?.epoch !== epoch) entries.push({ epoch, startOffset: offset });
  });
  return new LogView({
    logStartOffset: 0,
    endOffset: epochs.length,
    epochs: entries,
    snapshots: [],
  });
}

/** Non-decreasing epochs, one per offset, each step adding 0, 2 or 4 (even epochs only). */
const arbitraryLeaderLog = fc
  .array(fc.constantFrom(0, 2, 4), { maxLength: 12 })
  .map((steps) => steps.reduce<number[]>((log, step) => [...log, (log.at(-1) ?? 2) + step], []));

/**
 * A follower's log as Raft allows it: a prefix of the leader's, then records of epochs the
 * leader never saw (odd epochs here) from leaders that lost their records.
 */
const arbitraryLogs = arbitraryLeaderLog.chain((leaderLog) =>
  fc
    .record({
      keep: fc.integer({ min: 0, max: leaderLog.length }),
      ghost: fc.array(fc.constantFrom(0, 2), { maxLength: 6 }),
    })
    .map(({ keep, ghost }) => {
      const prefix = leaderLog.slice(0, keep);
      const suffix = ghost.reduce<number[]>(
        (log, step) => [...log, (log.at(-1) ?? (prefix.at(-1) ?? 0) + 1) + step],
        [],
      );
      return { leaderLog, followerLog: [...prefix, ...suffix] };
    }),
);

test("a follower truncated at the diverging epoch holds a prefix of the leader's log", () => {
  fc.assert(
    fc.property(arbitraryLogs, ({ leaderLog, followerLog }) => {
      const leader = viewOf(leaderLog);
      const follower = viewOf(followerLog);
      // Repeat the fetch exchange until the follower's position is valid at the leader.
      for (let round = 0; round < 20; round++) {
        const validation = leader.validateFetch(follower.endOffset, follower.lastFetchedEpoch());
        if (validation.kind === "valid") break;
        assert.equal(validation.kind, "diverging");
        if (validation.kind !== "diverging") return;
        follower.truncateTo(follower.truncationOffsetFor(validation.divergingEpoch));
      }
      const kept = followerLog.slice(0, follower.endOffset);
      assert.deepEqual(
        kept,
        leaderLog.slice(0, kept.length),
        "the kept log agrees with the leader's",
      );
    }),
    { seed: 99, numRuns: 500 },
  );
});

test("a fetch below the log start is sent to the snapshot", () => {
  const view = new LogView({
    logStartOffset: 10,
    endOffset: 12,
    epochs: [{ epoch: 3, startOffset: 10 }],
    snapshots: [{ snapshotId: { endOffset: 10, epoch: 2 }, sizeBytes: 100 }],
  });
  assert.deepEqual(view.validateFetch(4, 1), {
    kind: "snapshot",
    snapshotId: { endOffset: 10, epoch: 2 },
  });
  assert.deepEqual(view.validateFetch(10, 2), { kind: "valid" });
  assert.deepEqual(view.validateFetch(12, 3), { kind: "valid" });
});

test("a fetch whose last epoch is older than the snapshot's gets the snapshot", () => {
  // Found by the Raft simulation: an observer holding offsets 0..135 of epoch 1 fetched from a
  // leader whose log was empty after its snapshot 129-3, and was told to truncate to 129 of
  // epoch 3, which it could not place in its log; it fetched the same answer forever.
  const view = new LogView({
    logStartOffset: 129,
    endOffset: 129,
    epochs: [],
    snapshots: [{ snapshotId: { endOffset: 129, epoch: 3 }, sizeBytes: 100 }],
  });
  assert.deepEqual(view.validateFetch(136, 1), {
    kind: "snapshot",
    snapshotId: { endOffset: 129, epoch: 3 },
  });
  assert.deepEqual(view.validateFetch(129, 3), { kind: "valid" });
});
