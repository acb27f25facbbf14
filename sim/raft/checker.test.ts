import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeBatch, NO_PRODUCER_ID, NO_SEQUENCE } from "../../src/protocol/index.js";
import { InvariantViolation } from "../workloads/registry.js";
import { RaftChecker, type CheckedReplica } from "./checker.js";
import { DiskState, storedBatchOf } from "./disk-state.js";

/** A data batch of `count` records at `baseOffset` in `epoch`, its values marked by `tag`. */
function batch(baseOffset: number, count: number, epoch: number, tag = "a"): Uint8Array {
  const records = Array.from({ length: count }, (_, index) => ({
    timestamp: 0,
    key: null,
    value: new TextEncoder().encode(`${tag}${baseOffset + index}`),
  }));
  return encodeBatch({
    baseOffset,
    partitionLeaderEpoch: epoch,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: NO_PRODUCER_ID,
    producerEpoch: -1,
    baseSequence: NO_SEQUENCE,
    records,
  });
}

/** A replica whose node is shaped as the checker reads it. */
function replica(id: number, kind: string, epoch: number, batches: Uint8Array[]): CheckedReplica {
  const disk = new DiskState();
  disk.apply({ kind: "append", batches: batches.map(storedBatchOf), generation: 0 });
  const node = { state: { kind }, epoch, highWatermark: null } as unknown as CheckedReplica["node"];
  return { id, incarnation: 0, node, visibleDisk: disk, durableDisk: disk };
}

const violation = (pattern: RegExp) => (error: unknown) =>
  error instanceof InvariantViolation && pattern.test(error.message);

test("two leaders of one epoch break the one-leader invariant", () => {
  const checker = new RaftChecker();
  checker.afterInput(replica(1, "leader", 3, []));
  checker.afterInput(replica(1, "leader", 3, []));
  assert.throws(() => checker.afterInput(replica(2, "leader", 3, [])), violation(/one leader/));
});

test("a leader's high watermark commits its batches and a follower must agree with them", () => {
  const checker = new RaftChecker();
  const leader = replica(1, "leader", 1, [batch(0, 2, 1), batch(2, 1, 1)]);
  checker.highWatermarkMoved(leader, 3);
  assert.equal(checker.committedEndOffset, 3);
  assert.ok(checker.isCommitted(1, 1));
  assert.ok(!checker.isCommitted(1, 2));
  checker.highWatermarkMoved(replica(2, "follower", 1, [batch(0, 2, 1), batch(2, 1, 1)]), 3);
  const changed = replica(3, "follower", 1, [batch(0, 2, 1), batch(2, 1, 1, "other")]);
  assert.throws(() => checker.highWatermarkMoved(changed, 3), violation(/never lost or changed/));
  const ahead = replica(4, "follower", 1, [batch(0, 2, 1), batch(2, 1, 1), batch(3, 1, 1)]);
  assert.throws(() => checker.highWatermarkMoved(ahead, 4), violation(/no leader committed/));
});

test("a high watermark that moves backwards in one incarnation is caught", () => {
  const checker = new RaftChecker();
  const leader = replica(1, "leader", 1, [batch(0, 2, 1)]);
  checker.highWatermarkMoved(leader, 2);
  assert.throws(() => checker.highWatermarkMoved(leader, 1), violation(/never moves backwards/));
});

test("a new leader missing a committed batch, or a node missing it at the end, is caught", () => {
  const checker = new RaftChecker();
  checker.highWatermarkMoved(replica(1, "leader", 1, [batch(0, 2, 1), batch(2, 2, 1)]), 4);
  const shortLeader = replica(2, "leader", 2, [batch(0, 2, 1)]);
  assert.throws(() => checker.afterInput(shortLeader), violation(/never lost/));
  const lagging = replica(3, "follower", 2, [batch(0, 2, 1)]);
  assert.throws(() => checker.checkConverged([lagging]), violation(/reaches every live node/));
});

test("a durable log that lost or changed entries below its announced watermark is caught", () => {
  const checker = new RaftChecker();
  checker.highWatermarkMoved(replica(1, "leader", 1, [batch(0, 2, 1), batch(2, 2, 1)]), 4);
  const stale = replica(2, "follower", 1, [batch(0, 2, 1), batch(2, 2, 1, "stale")]);
  // Beyond the watermark it announced, a log may hold entries a leader will truncate.
  checker.afterCrash(stale, 2);
  assert.throws(() => checker.afterCrash(stale, 4), violation(/never lost or changed/));
});

test("a leader of an earlier epoch must hold what was committed before its epoch only", () => {
  const history = (): RaftChecker => {
    const checker = new RaftChecker();
    checker.highWatermarkMoved(replica(1, "leader", 1, [batch(0, 2, 1)]), 2);
    checker.highWatermarkMoved(replica(3, "leader", 3, [batch(0, 2, 1), batch(2, 2, 3)]), 4);
    return checker;
  };
  // Epoch 2 was won late, by vote grants held while epoch 3 committed [2..3]; its leader has
  // its own uncommitted batch there and will truncate it once it hears of epoch 3.
  history().afterInput(replica(2, "leader", 2, [batch(0, 2, 1), batch(2, 1, 2, "stale")]));
  const missingEarlier = replica(2, "leader", 2, []);
  assert.throws(() => history().afterInput(missingEarlier), violation(/never lost/));
  const changedEarlier = replica(2, "leader", 2, [batch(0, 2, 1, "other")]);
  assert.throws(() => history().afterInput(changedEarlier), violation(/never lost or changed/));
  const missingLater = replica(4, "leader", 4, [batch(0, 2, 1)]);
  assert.throws(() => history().afterInput(missingLater), violation(/never lost/));
});
