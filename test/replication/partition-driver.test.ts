import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { clientBatch, consumerRead, newPartition, registration } from "./fixtures.js";

test(
  "a leader with followers serves consumers up to the high watermark and followers up " +
    "to the log end",
  async () => {
    const { harness, partition, sender } = await newPartition(1);
    const watermarks: number[] = [];
    partition.onHighWatermarkChanged((highWatermark) => watermarks.push(highWatermark));
    partition.becomeLeader(registration({ replicas: [1, 2], leader: 1, leaderEpoch: 3 }), 0);
    const appended = await harness.run(
      partition.appendRecordsToLeader(clientBatch([{ timestamp: 1 }, { timestamp: 2 }]), {
        requiredAcks: -1,
        nowMs: 10,
      }),
    );
    assert.deepEqual(appended, {
      kind: "appended",
      firstOffset: 0,
      lastOffset: 1,
      logAppendTime: -1,
      logStartOffset: 0,
    });
    assert.deepEqual(partition.checkEnoughReplicasReachOffset(2), { kind: "waiting" });
    const consumer = await harness.run(
      partition.readRecords({ ...consumerRead, fetchOffset: 0, nowMs: 11 }),
    );
    assert.ok(consumer.kind === "records");
    assert.equal(consumer.sizeInBytes, 0, "nothing is committed yet");
    const follower = {
      ...consumerRead,
      replicaId: 2,
      currentLeaderEpoch: 3,
      brokerEpoch: 5,
      logStartOffset: 0,
    };
    const first = await harness.run(
      partition.readRecords({ ...follower, fetchOffset: 0, nowMs: 12 }),
    );
    assert.ok(first.kind === "records" && first.sizeInBytes > 0, "a follower reads past the HW");
    await harness.run(
      partition.readRecords({ ...follower, fetchOffset: 2, lastFetchedEpoch: 3, nowMs: 13 }),
    );
    assert.equal(partition.highWatermark, 2);
    assert.deepEqual(watermarks, [2]);
    assert.deepEqual(partition.checkEnoughReplicasReachOffset(2), {
      kind: "done",
      errorCode: ErrorCode.NONE,
    });
    const committed = await harness.run(
      partition.readRecords({ ...consumerRead, fetchOffset: 0, nowMs: 14 }),
    );
    assert.ok(committed.kind === "records" && committed.sizeInBytes > 0);
    assert.equal(sender.sent.length, 0, "broker 2 was in the ISR already");
  },
);

test("a follower with an epoch unknown to the leader is told where to truncate", async () => {
  const { harness, partition } = await newPartition(2);
  partition.becomeLeader(registration({ replicas: [1, 2], leader: 1, leaderEpoch: 4 }), 0);
  await harness.run(
    partition.appendRecordsToLeader(clientBatch([{ timestamp: 1 }]), { requiredAcks: 1, nowMs: 1 }),
  );
  const read = await harness.run(
    partition.readRecords({
      ...consumerRead,
      replicaId: 2,
      currentLeaderEpoch: 4,
      fetchOffset: 5,
      lastFetchedEpoch: 3,
      logStartOffset: 0,
      nowMs: 2,
    }),
  );
  assert.ok(read.kind === "records");
  assert.ok(read.divergingEpoch !== undefined);
  assert.equal(read.sizeInBytes, 0);
});

test("a new leader tells a follower on an epoch it never had where to truncate", async () => {
  const { harness, partition } = await newPartition(5);
  partition.becomeLeader(registration({ replicas: [1, 2], leader: 1, leaderEpoch: 0 }), 0);
  for (const timestamp of [1, 2]) {
    const batch = clientBatch([{ timestamp }]);
    await harness.run(partition.appendRecordsToLeader(batch, { requiredAcks: 1, nowMs: 1 }));
  }
  // Epoch 1 led elsewhere; re-elected in epoch 2, this broker has appended nothing in it yet.
  partition.becomeLeader(registration({ replicas: [1, 2], leader: 1, leaderEpoch: 2 }), 2);
  const asked = { currentLeaderEpoch: 2, requireLeader: true };
  assert.deepEqual(partition.lastOffsetForLeaderEpoch(1, asked), {
    errorCode: ErrorCode.NONE,
    leaderEpoch: 0,
    endOffset: 2,
  });
  const read = await harness.run(
    partition.readRecords({
      ...consumerRead,
      replicaId: 2,
      currentLeaderEpoch: 2,
      fetchOffset: 3,
      lastFetchedEpoch: 1,
      logStartOffset: 0,
      brokerEpoch: 5,
      nowMs: 3,
    }),
  );
  assert.ok(read.kind === "records");
  assert.deepEqual(read.divergingEpoch, { epoch: 0, endOffset: 2 });
});

test("a follower's truncation below its high watermark reaches the checkpoint", async () => {
  const { harness, partition, checkpoints } = await newPartition(6);
  partition.becomeFollower(registration({ replicas: [1, 2], leader: 2, leaderEpoch: 0 }));
  for (const baseOffset of [0, 1, 2]) {
    const fetched = clientBatch([{ timestamp: 1 }], { baseOffset, partitionLeaderEpoch: 0 });
    const appended = await harness.run(
      partition.appendRecordsAsFollower(fetched, { fetchLeaderEpoch: 0, nowMs: 1 }),
    );
    assert.equal(appended.kind, "appended");
  }
  await harness.run(partition.updateFollowerOffsets({ highWatermark: 3, logStartOffset: 0 }));
  assert.deepEqual(checkpoints, [3]);
  // A new leader's log ends at 1 (an unclean election): the follower truncates there.
  await harness.run(partition.truncateTo(1));
  assert.equal(partition.highWatermark, 1);
  assert.equal(checkpoints.at(-1), 1, "a restart does not find the lost high watermark");
});

test("a consumer that sends its last fetched epoch is told of divergence too", async () => {
  const { harness, partition } = await newPartition(2);
  partition.becomeLeader(registration({ replicas: [1], leader: 1, leaderEpoch: 4 }), 0);
  await harness.run(
    partition.appendRecordsToLeader(clientBatch([{ timestamp: 1 }]), { requiredAcks: 1, nowMs: 1 }),
  );
  const read = async (lastFetchedEpoch: number, fetchOffset: number) =>
    harness.run(
      partition.readRecords({ ...consumerRead, fetchOffset, lastFetchedEpoch, nowMs: 2 }),
    );
  const diverged = await read(3, 1);
  assert.ok(diverged.kind === "records");
  // Epoch 3 is older than any in the log: it ended where epoch 4 began.
  assert.deepEqual(diverged.divergingEpoch, { epoch: 3, endOffset: 0 });
  assert.equal(diverged.sizeInBytes, 0);
  const agreed = await read(4, 0);
  assert.ok(agreed.kind === "records");
  assert.equal(agreed.divergingEpoch, undefined);
  assert.ok(agreed.sizeInBytes > 0, "a consumer in agreement reads on");
});

test("ListOffsets, OffsetForLeaderEpoch and DeleteRecords on a single-replica leader", async () => {
  const { harness, partition, checkpoints } = await newPartition(3);
  partition.becomeLeader(registration({ replicas: [1], leader: 1, leaderEpoch: 2 }), 0);
  assert.deepEqual(
    partition.lastOffsetForLeaderEpoch(2, { currentLeaderEpoch: 2, requireLeader: true }),
    {
      errorCode: ErrorCode.NONE,
      leaderEpoch: 2,
      endOffset: 0,
    },
  );
  for (let index = 0; index < 3; index++) {
    const batch = clientBatch([{ timestamp: 100 * (index + 1) }]);
    await harness.run(partition.appendRecordsToLeader(batch, { requiredAcks: 1, nowMs: 5 }));
  }
  assert.deepEqual(checkpoints, [1, 2, 3]);
  const lookup = (timestamp: number) =>
    harness.run(
      partition.fetchOffsetForTimestamp(timestamp, {
        isolation: "read_uncommitted",
        currentLeaderEpoch: -1,
        fetchOnlyFromLeader: true,
      }),
    );
  assert.deepEqual(await lookup(-1), { kind: "found", offset: 3, timestamp: -1, leaderEpoch: 2 });
  assert.equal(((await lookup(-2)) as { offset: number }).offset, 0);
  assert.equal(((await lookup(150)) as { offset: number }).offset, 1);
  assert.deepEqual(await lookup(1000), { kind: "notFound" });
  assert.deepEqual(await harness.run(partition.deleteRecordsOnLeader(4)), {
    kind: "error",
    errorCode: ErrorCode.OFFSET_OUT_OF_RANGE,
  });
  assert.deepEqual(await harness.run(partition.deleteRecordsOnLeader(-1)), {
    kind: "deleted",
    lowWatermark: 3,
  });
  assert.equal(partition.logStartOffset, 3);
  const fenced = await lookup(-1);
  assert.equal(fenced.kind, "found");
  const stale = await harness.run(
    partition.fetchOffsetForTimestamp(-1, {
      isolation: "read_uncommitted",
      currentLeaderEpoch: 1,
      fetchOnlyFromLeader: true,
    }),
  );
  assert.deepEqual(stale, { kind: "error", errorCode: ErrorCode.FENCED_LEADER_EPOCH });
});

test("a caught-up follower joins the ISR through the AlterPartition sender", async () => {
  const { harness, partition, sender } = await newPartition(4);
  partition.becomeLeader(
    registration({ replicas: [1, 2], isr: [1], leader: 1, leaderEpoch: 1 }),
    0,
  );
  await harness.run(
    partition.appendRecordsToLeader(clientBatch([{ timestamp: 1 }]), { requiredAcks: 1, nowMs: 1 }),
  );
  assert.equal(partition.highWatermark, 1);
  const follower = {
    ...consumerRead,
    replicaId: 2,
    currentLeaderEpoch: 1,
    brokerEpoch: 5,
    logStartOffset: 0,
  };
  await harness.run(partition.readRecords({ ...follower, fetchOffset: 1, nowMs: 2 }));
  await partition.whenIdle();
  assert.equal(sender.sent.length, 1);
  assert.deepEqual(partition.isr, [1, 2]);
});
