import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { brokerId, ErrorCode } from "../../src/common/index.js";
import { LOCAL, newState, registration } from "./fixtures.js";

const B2 = brokerId(2);
const B3 = brokerId(3);

test("with one replica the high watermark follows the log end offset at once", () => {
  const state = newState();
  state.becomeLeader(registration({ replicas: [1], leader: 1 }), {
    nowMs: 0,
    localLogEndOffset: 0,
  });
  assert.equal(state.recordLocalAppend(5, 1), true);
  assert.equal(state.highWatermark, 5);
});

test("the high watermark waits for every ISR member and moves as followers fetch", () => {
  const state = newState();
  state.becomeLeader(registration({ replicas: [1, 2, 3], leader: 1 }), {
    nowMs: 0,
    localLogEndOffset: 0,
  });
  state.recordLocalAppend(10, 1);
  assert.equal(state.highWatermark, 0);
  const fetch = { logStartOffset: 0, fetchTimeMs: 2, leaderEndOffset: 10, brokerEpoch: 3 };
  state.updateFollowerFetchState(B2, { ...fetch, fetchOffset: 10 });
  assert.equal(state.highWatermark, 0, "broker 3 has not fetched");
  const update = state.updateFollowerFetchState(B3, { ...fetch, fetchOffset: 4 });
  assert.deepEqual(update, {
    kind: "updated",
    highWatermarkChanged: true,
    alterPartition: undefined,
  });
  assert.equal(state.highWatermark, 4);
});

test("older epochs are fenced, newer ones unknown, and followers are not leaders", () => {
  const state = newState();
  assert.equal(
    state.checkLeaderEpoch(-1, { requireLeader: true }),
    ErrorCode.NOT_LEADER_OR_FOLLOWER,
  );
  state.becomeLeader(registration({ replicas: [1], leader: 1, leaderEpoch: 5 }), {
    nowMs: 0,
    localLogEndOffset: 0,
  });
  assert.equal(state.checkLeaderEpoch(4, { requireLeader: true }), ErrorCode.FENCED_LEADER_EPOCH);
  assert.equal(state.checkLeaderEpoch(6, { requireLeader: true }), ErrorCode.UNKNOWN_LEADER_EPOCH);
  assert.equal(state.checkLeaderEpoch(5, { requireLeader: true }), ErrorCode.NONE);
  assert.equal(state.checkLeaderEpoch(-1, { requireLeader: true }), ErrorCode.NONE);
  const follower = registration({ replicas: [1, 2], leader: 2, leaderEpoch: 6, partitionEpoch: 1 });
  state.becomeFollower(follower, { localLogEndOffset: 0 });
  assert.equal(
    state.checkLeaderEpoch(6, { requireLeader: true }),
    ErrorCode.NOT_LEADER_OR_FOLLOWER,
  );
  assert.equal(state.checkLeaderEpoch(6, { requireLeader: false }), ErrorCode.NONE);
});

test("acks=all is refused before the append when the ISR is below min.insync.replicas", () => {
  const state = newState({ minInsyncReplicas: 2 });
  state.becomeLeader(registration({ replicas: [1, 2], isr: [1], leader: 1 }), {
    nowMs: 0,
    localLogEndOffset: 0,
  });
  assert.equal(state.checkAppend(-1), ErrorCode.NOT_ENOUGH_REPLICAS);
  assert.equal(state.checkAppend(1), ErrorCode.NONE);
  // Under min ISR the high watermark does not move (KIP-966).
  assert.equal(state.recordLocalAppend(3, 1), false);
});

test("acks=all ends in NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR shrank meanwhile", () => {
  const state = newState({ minInsyncReplicas: 2 });
  const nowMs = 0;
  state.becomeLeader(registration({ replicas: [1, 2], leader: 1 }), {
    nowMs,
    localLogEndOffset: 0,
  });
  state.recordLocalAppend(1, 1);
  assert.deepEqual(state.checkEnoughReplicasReachOffset(1), { kind: "waiting" });
  const fetch = {
    fetchOffset: 1,
    logStartOffset: 0,
    fetchTimeMs: 2,
    leaderEndOffset: 1,
    brokerEpoch: 3,
  };
  state.updateFollowerFetchState(B2, fetch);
  assert.deepEqual(state.checkEnoughReplicasReachOffset(1), {
    kind: "done",
    errorCode: ErrorCode.NONE,
  });
  state.becomeLeader(registration({ replicas: [1, 2], isr: [1], leader: 1, partitionEpoch: 1 }), {
    nowMs,
    localLogEndOffset: 1,
  });
  assert.deepEqual(state.checkEnoughReplicasReachOffset(1), {
    kind: "done",
    errorCode: ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
  });
});

test("a follower at the high watermark and the epoch start is proposed for the ISR", () => {
  const state = newState();
  state.becomeLeader(registration({ replicas: [1, 2], isr: [1], leader: 1, leaderEpoch: 2 }), {
    nowMs: 0,
    localLogEndOffset: 4,
  });
  const fetch = { logStartOffset: 0, fetchTimeMs: 1, leaderEndOffset: 4, brokerEpoch: 9 };
  const behind = state.updateFollowerFetchState(B2, { ...fetch, fetchOffset: 3 });
  assert.equal(behind.kind === "updated" && behind.alterPartition, undefined);
  const caughtUp = state.updateFollowerFetchState(B2, { ...fetch, fetchOffset: 4 });
  assert.ok(caughtUp.kind === "updated" && caughtUp.alterPartition !== undefined);
  assert.deepEqual(caughtUp.alterPartition.newIsrWithEpochs, [
    { brokerId: LOCAL, brokerEpoch: 7 },
    { brokerId: B2, brokerEpoch: 9 },
  ]);
  assert.deepEqual(state.maximalIsr, [LOCAL, B2], "the new member counts while in flight");
  assert.deepEqual(state.isr, [LOCAL]);
  const outcome = {
    kind: "updated",
    leaderEpoch: 2,
    partitionEpoch: 1,
    isr: [LOCAL, B2],
    leaderRecoveryState: "recovered",
  } as const;
  const stale = { ...outcome, leaderEpoch: 1 };
  const refused = state.handleAlterPartitionOutcome(caughtUp.alterPartition, stale, 2);
  assert.equal(refused.isrChange, "failed", "an answer for another leader epoch failed");
  const committed = state.handleAlterPartitionOutcome(caughtUp.alterPartition, outcome, 2);
  assert.equal(committed.isrChange, "expanded");
  assert.deepEqual(state.isr, [LOCAL, B2]);
  assert.equal(state.partitionEpoch, 1);
});

test("a member lagging beyond replica.lag.time.max.ms is proposed for removal", () => {
  const state = newState();
  state.becomeLeader(registration({ replicas: [1, 2], leader: 1 }), {
    nowMs: 0,
    localLogEndOffset: 0,
  });
  state.recordLocalAppend(5, 10);
  assert.equal(state.maybeShrinkIsr(30_000), undefined, "within the lag");
  const proposal = state.maybeShrinkIsr(30_001);
  assert.deepEqual(proposal?.newIsrWithEpochs, [{ brokerId: LOCAL, brokerEpoch: 7 }]);
  assert.equal(state.maybeShrinkIsr(40_000), undefined, "one change at a time");
  assert.deepEqual(state.maximalIsr, [LOCAL, B2], "the removed member counts until committed");
  assert.ok(proposal !== undefined);
  const retry = state.handleAlterPartitionOutcome(
    proposal,
    { kind: "error", errorCode: ErrorCode.REQUEST_TIMED_OUT },
    1,
  );
  assert.deepEqual([retry.shouldRetry, retry.isrChange], [true, "failed"]);
  const reset = state.handleAlterPartitionOutcome(
    proposal,
    { kind: "error", errorCode: ErrorCode.OPERATION_NOT_ATTEMPTED },
    1,
  );
  assert.deepEqual([reset.shouldRetry, reset.isrChange], [false, "failed"]);
  assert.equal(state.role.kind === "leader" && state.role.isrState.kind, "committed");
  // An answer to a proposal no longer in flight changes nothing and is no ISR update at all.
  const late = { kind: "updated", isr: [LOCAL], leaderRecoveryState: "recovered" } as const;
  const answer = { ...late, leaderEpoch: 0, partitionEpoch: 1 };
  assert.equal(state.handleAlterPartitionOutcome(proposal, answer, 2).isrChange, undefined);
});

test("a new leader does not advance its high watermark until ISR followers fetch from it", () => {
  const state = newState({ logEndOffset: 8 });
  state.becomeLeader(registration({ replicas: [1, 2], leader: 1, leaderEpoch: 3 }), {
    nowMs: 0,
    localLogEndOffset: 8,
  });
  assert.equal(state.highWatermark, 0);
  assert.equal(state.recordLocalAppend(9, 1), false);
  const fetch = {
    fetchOffset: 9,
    logStartOffset: 0,
    fetchTimeMs: 2,
    leaderEndOffset: 9,
    brokerEpoch: 1,
  };
  state.updateFollowerFetchState(B2, fetch);
  assert.equal(state.highWatermark, 9);
});

test("an older partition epoch is skipped", () => {
  const state = newState();
  state.becomeLeader(registration({ replicas: [1], leader: 1, partitionEpoch: 4 }), {
    nowMs: 0,
    localLogEndOffset: 0,
  });
  const change = state.becomeLeader(registration({ replicas: [1], leader: 1, partitionEpoch: 3 }), {
    nowMs: 0,
    localLogEndOffset: 0,
  });
  assert.deepEqual(change, { kind: "skipped" });
});

type Step =
  | { kind: "append"; count: number }
  | { kind: "fetch"; replica: 2 | 3; back: number }
  | { kind: "tick"; ms: number }
  | { kind: "shrink" };

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 1, max: 5 }) }),
  fc.record({
    kind: fc.constant("fetch" as const),
    replica: fc.constantFrom(2 as const, 3 as const),
    back: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({ kind: fc.constant("tick" as const), ms: fc.integer({ min: 0, max: 20_000 }) }),
  fc.record({ kind: fc.constant("shrink" as const) }),
);

test(
  "property: the high watermark never decreases, never passes the leader's log end, and " +
    "moves only to what the ISR has",
  () => {
    fc.assert(
      fc.property(
        fc.array(arbStep, { maxLength: 60 }),
        fc.integer({ min: 1, max: 3 }),
        (steps, minIsr) => {
          const state = newState({ minInsyncReplicas: minIsr });
          let nowMs = 0;
          state.becomeLeader(registration({ replicas: [1, 2, 3], leader: 1 }), {
            nowMs,
            localLogEndOffset: 0,
          });
          const fetched = new Map<number, number>();
          for (const step of steps) {
            const before = state.highWatermark;
            if (step.kind === "append")
              state.recordLocalAppend(state.logEndOffset + step.count, nowMs);
            if (step.kind === "tick") nowMs += step.ms;
            if (step.kind === "shrink") state.maybeShrinkIsr(nowMs);
            if (step.kind === "fetch") {
              const previous = fetched.get(step.replica) ?? 0;
              const fetchOffset = Math.max(previous, state.logEndOffset - step.back);
              fetched.set(step.replica, fetchOffset);
              const leaderEndOffset = state.logEndOffset;
              const fetch = {
                fetchOffset,
                logStartOffset: 0,
                fetchTimeMs: nowMs,
                leaderEndOffset,
                brokerEpoch: 1,
              };
              state.updateFollowerFetchState(brokerId(step.replica), fetch);
            }
            assert.ok(state.highWatermark >= before, "never decreases");
            assert.ok(state.highWatermark <= state.logEndOffset, "never passes the log end");
            if (state.highWatermark > before) {
              for (const member of state.maximalIsr) {
                const logEndOffset =
                  member === LOCAL ? state.logEndOffset : (fetched.get(member) ?? -1);
                assert.ok(state.highWatermark <= logEndOffset, "every ISR member has it");
              }
            }
          }
        },
      ),
      { seed: 20_240_601, numRuns: 300 },
    );
  },
);

test("property: a lone replica's high watermark is the log end offset after each append", () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 40 }), (counts) => {
      const state = newState();
      state.becomeLeader(registration({ replicas: [1], leader: 1 }), {
        nowMs: 0,
        localLogEndOffset: 0,
      });
      for (const count of counts) {
        state.recordLocalAppend(state.logEndOffset + count, 0);
        assert.equal(state.highWatermark, state.logEndOffset);
      }
    }),
    { seed: 7, numRuns: 200 },
  );
});
