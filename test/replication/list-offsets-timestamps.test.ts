import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { clientBatch, newPartition, registration } from "./fixtures.js";

test("ListOffsets' KIP-405 and KIP-1005 timestamps without tiered storage", async () => {
  const { harness, partition } = await newPartition(5);
  partition.becomeLeader(registration({ replicas: [1], leader: 1, leaderEpoch: 2 }), 0);
  for (let index = 0; index < 3; index++) {
    const batch = clientBatch([{ timestamp: 100 * (index + 1) }]);
    await harness.run(partition.appendRecordsToLeader(batch, { requiredAcks: 1, nowMs: 5 }));
  }
  const lookup = (timestamp: number, currentLeaderEpoch = -1) =>
    harness.run(
      partition.fetchOffsetForTimestamp(timestamp, {
        isolation: "read_uncommitted",
        currentLeaderEpoch,
        fetchOnlyFromLeader: true,
      }),
    );
  // -4 (earliest local) is the log start, since every segment is local.
  assert.deepEqual(await lookup(-4), await lookup(-2));
  assert.equal(((await lookup(-4)) as { offset: number }).offset, 0);
  // -5 (latest tiered) finds nothing: Kafka answers offset -1, timestamp -1, epoch -1.
  assert.deepEqual(await lookup(-5), { kind: "notFound" });
  // The leader and epoch checks still come first.
  assert.deepEqual(await lookup(-5, 1), {
    kind: "error",
    errorCode: ErrorCode.FENCED_LEADER_EPOCH,
  });
});
