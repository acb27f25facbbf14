import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { brokerId } from "../common/index.js";
import {
  RACK_AWARE_REPLICA_SELECTOR_CLASS,
  rackAwareReplicaSelector,
  replicaSelectorOf,
  type ReplicaView,
} from "./replica-selector.js";

const view = (id: number, rack: string | null, logEndOffset: number, sinceMs = 0): ReplicaView => ({
  brokerId: brokerId(id),
  rack,
  logEndOffset,
  timeSinceLastCaughtUpMs: sinceMs,
});

const client = (rackId: string) => ({ rackId, listenerName: "PLAINTEXT" });

const select = (rackId: string, leader: ReplicaView, followers: ReplicaView[]) =>
  rackAwareReplicaSelector.select(client(rackId), {
    replicas: [...followers, leader],
    leader,
  }).brokerId;

test("a consumer without a rack, or of a rack no replica is in, reads from the leader", () => {
  const leader = view(1, "r1", 10);
  const followers = [view(2, "r2", 10), view(3, "r3", 10)];
  assert.equal(select("", leader, followers), 1);
  assert.equal(select("r9", leader, followers), 1);
});

test("a consumer in the leader's rack reads from the leader, even when a follower is there", () => {
  const leader = view(1, "r1", 10);
  assert.equal(select("r1", leader, [view(2, "r1", 10), view(3, "r2", 10)]), 1);
});

test("a consumer in a follower's rack reads from that follower", () => {
  assert.equal(select("r2", view(1, "r1", 10), [view(2, "r2", 8), view(3, "r3", 10)]), 2);
});

test("among followers of the consumer's rack the most caught-up one is chosen", () => {
  const leader = view(1, "r1", 10);
  assert.equal(select("r2", leader, [view(2, "r2", 8), view(3, "r2", 9)]), 3, "higher LEO");
  assert.equal(
    select("r2", leader, [view(2, "r2", 9, 500), view(3, "r2", 9, 20)]),
    3,
    "same LEO: caught up more recently",
  );
  assert.equal(select("r2", leader, [view(3, "r2", 9), view(2, "r2", 9)]), 3, "then higher id");
});

test("racks are compared exactly, and a replica without a rack matches none", () => {
  const leader = view(1, null, 10);
  assert.equal(select("R2", leader, [view(2, "r2", 10)]), 1);
  assert.equal(select("r2", leader, [view(2, null, 10), view(3, "r2", 10)]), 3);
});

test("the rack-aware choice matches a sort of the consumer's rack by Kafka's order", () => {
  const arbView = fc.record({
    id: fc.integer({ min: 2, max: 6 }),
    rack: fc.constantFrom("r1", "r2", null),
    logEndOffset: fc.integer({ min: 0, max: 4 }),
    sinceMs: fc.integer({ min: 0, max: 3 }),
  });
  const arbFollowers = fc.uniqueArray(arbView, { selector: (v) => v.id, maxLength: 5 });
  fc.assert(
    fc.property(arbFollowers, fc.constantFrom("", "r1", "r2", "r3"), (raw, rackId) => {
      const leader = view(1, "r1", 4);
      const followers = raw.map((v) => view(v.id, v.rack, v.logEndOffset, v.sinceMs));
      // The oracle: most log, then most recently caught up, then the highest id.
      const ranked = followers
        .filter((f) => rackId !== "" && f.rack === rackId)
        .sort(
          (a, b) =>
            b.logEndOffset - a.logEndOffset ||
            a.timeSinceLastCaughtUpMs - b.timeSinceLastCaughtUpMs ||
            b.brokerId - a.brokerId,
        );
      const expected = rackId === "r1" ? 1 : (ranked[0]?.brokerId ?? 1);
      assert.equal(select(rackId, leader, followers), expected);
    }),
  );
});

test("replica.selector.class maps only Kafka's rack-aware class to a selector", () => {
  assert.equal(replicaSelectorOf(null), undefined);
  assert.equal(replicaSelectorOf(RACK_AWARE_REPLICA_SELECTOR_CLASS), rackAwareReplicaSelector);
  assert.throws(() => replicaSelectorOf("com.example.MySelector"), RangeError);
});
