import assert from "node:assert/strict";
import { test } from "node:test";
import type { ControllerProposeResult, ControllerRaftListener } from "./controller-raft.js";
import { RaftDriverAdapter, type RaftDriverSurface } from "./raft-driver-adapter.js";

/** A started driver whose single voter leads epoch 1 and accepts every proposal. */
function leadingDriver(): RaftDriverSurface & { proposals: number } {
  const driver = {
    leaderId: 1,
    epoch: 1,
    proposals: 0,
    propose(records: readonly Uint8Array[]): Promise<ControllerProposeResult> {
      driver.proposals += 1;
      return Promise.resolve({
        kind: "accepted",
        baseOffset: 1,
        lastOffset: records.length,
        epoch: 1,
      });
    },
    voterIds: () => [1],
    createSnapshot: () => Promise.resolve({ ok: true } as const),
  };
  return driver;
}

/** A listener that proposes on becoming leader, as the controller's activation does. */
function proposingListener(adapter: RaftDriverAdapter): {
  listener: ControllerRaftListener;
  answers: Promise<ControllerProposeResult>[];
} {
  const answers: Promise<ControllerProposeResult>[] = [];
  const listener: ControllerRaftListener = {
    handleCommit: () => undefined,
    handleLoadSnapshot: () => undefined,
    handleLeaderChange: (change) => {
      if (change.leaderId === adapter.nodeId) answers.push(adapter.propose([new Uint8Array(1)]));
    },
  };
  return { listener, answers };
}

test("a leader change before attach is told only once the driver is attached", async () => {
  const adapter = new RaftDriverAdapter(1);
  const { listener, answers } = proposingListener(adapter);
  adapter.registerListener(listener);
  // A single voter elects itself while its driver starts, before attach.
  adapter.handleLeaderChange({ leaderId: 1, epoch: 1 });
  assert.equal(answers.length, 0);
  assert.deepEqual(adapter.leaderAndEpoch(), { leaderId: null, epoch: 0 });
  const driver = leadingDriver();
  adapter.attach(driver);
  assert.equal(answers.length, 1);
  assert.equal((await answers[0])?.kind, "accepted");
  assert.equal(driver.proposals, 1);
});

test("only the latest of the leader changes held before attach is told", () => {
  const adapter = new RaftDriverAdapter(1);
  const told: (number | null)[] = [];
  adapter.registerListener({
    handleCommit: () => undefined,
    handleLoadSnapshot: () => undefined,
    handleLeaderChange: (change) => told.push(change.epoch),
  });
  adapter.handleLeaderChange({ leaderId: null, epoch: 1 });
  adapter.handleLeaderChange({ leaderId: 1, epoch: 1 });
  adapter.attach(leadingDriver());
  assert.deepEqual(told, [1]);
  assert.deepEqual(adapter.leaderAndEpoch(), { leaderId: 1, epoch: 1 });
});

test("after attach leader changes are told at once, and nothing is held", () => {
  const adapter = new RaftDriverAdapter(1);
  const told: (number | null)[] = [];
  adapter.registerListener({
    handleCommit: () => undefined,
    handleLoadSnapshot: () => undefined,
    handleLeaderChange: (change) => told.push(change.leaderId),
  });
  adapter.attach(leadingDriver());
  assert.deepEqual(told, []);
  adapter.handleLeaderChange({ leaderId: 2, epoch: 2 });
  assert.deepEqual(told, [2]);
});
