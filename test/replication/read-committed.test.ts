/**
 * Read committed on a partition leader: a read_committed consumer reads up to the last stable
 * offset (the first offset of the oldest open transaction), is told which aborted transactions
 * the records overlap, and ListOffsets read_committed answers the last stable offset.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeTransactionMarkerBatch } from "../../src/protocol/index.js";
import { clientBatch, consumerRead, newPartition, registration } from "./fixtures.js";

const read = { ...consumerRead, fetchOffset: 0, nowMs: 20 } as const;

function transactional(producerId: number): Uint8Array {
  const producer = { producerId, producerEpoch: 0, baseSequence: 0 };
  return clientBatch([{ timestamp: 5 }], { isTransactional: true, ...producer });
}

/** The coordinator's end marker of producer `producerId`'s transaction. */
function marker(producerId: number, type: "commit" | "abort"): Uint8Array {
  const producer = { producerId, producerEpoch: 0, coordinatorEpoch: 0 };
  return encodeTransactionMarkerBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    ...producer,
    type,
    timestamp: 11,
  });
}

test("read_committed stops at the last stable offset and names aborted transactions", async () => {
  const { harness, partition } = await newPartition(41);
  partition.becomeLeader(registration({ replicas: [1], leader: 1, leaderEpoch: 2 }), 0);
  const append = (records: Uint8Array, origin: "client" | "coordinator" = "client") =>
    harness.run(partition.appendRecordsToLeader(records, { requiredAcks: 1, nowMs: 10, origin }));
  await append(clientBatch([{ timestamp: 1 }])); // 0
  await append(transactional(5)); // 1, stays open
  await append(transactional(6)); // 2
  await append(marker(6, "abort"), "coordinator"); // 3
  assert.equal(partition.highWatermark, 4);
  const committed = await harness.run(
    partition.readRecords({ ...read, isolation: "read_committed" }),
  );
  assert.ok(committed.kind === "records");
  assert.equal(committed.lastStableOffset, 1, "the open transaction of producer 5 holds it");
  assert.equal(committed.highWatermark, 4);
  const uncommitted = await harness.run(
    partition.readRecords({ ...read, isolation: "read_uncommitted" }),
  );
  assert.ok(uncommitted.kind === "records");
  assert.ok(committed.sizeInBytes < uncommitted.sizeInBytes, "read_committed reads less");
  assert.equal(uncommitted.abortedTransactions, undefined);
  const lookup = (isolation: "read_committed" | "read_uncommitted") =>
    harness.run(
      partition.fetchOffsetForTimestamp(-1, {
        isolation,
        currentLeaderEpoch: -1,
        fetchOnlyFromLeader: true,
      }),
    );
  assert.deepEqual(
    [(await lookup("read_committed")).kind, (await lookup("read_uncommitted")).kind],
    ["found", "found"],
  );
  const latestCommitted = await lookup("read_committed");
  const latest = await lookup("read_uncommitted");
  assert.ok(latestCommitted.kind === "found" && latest.kind === "found");
  assert.deepEqual([latestCommitted.offset, latest.offset], [1, 4]);
  await append(marker(5, "commit"), "coordinator"); // 4
  const after = await harness.run(partition.readRecords({ ...read, isolation: "read_committed" }));
  assert.ok(after.kind === "records");
  assert.equal(after.lastStableOffset, 5, "no transaction is open: the LSO is the HW");
  assert.deepEqual(after.abortedTransactions, [
    { producerId: 6, firstOffset: 2, lastOffset: 3, lastStableOffset: 1 },
  ]);
});

test("the last stable offset stays below a transaction until its marker replicates", async () => {
  const { harness, partition } = await newPartition(43);
  const leaderEpoch = 3;
  partition.becomeLeader(registration({ replicas: [1, 2], leader: 1, leaderEpoch }), 0);
  const append = (records: Uint8Array, origin: "client" | "coordinator") =>
    harness.run(partition.appendRecordsToLeader(records, { requiredAcks: 1, nowMs: 10, origin }));
  const follower = {
    ...consumerRead,
    replicaId: 2,
    currentLeaderEpoch: leaderEpoch,
    brokerEpoch: 5,
    logStartOffset: 0,
  };
  const followerFetch = (fetchOffset: number) =>
    harness.run(partition.readRecords({ ...follower, fetchOffset, nowMs: 12 }));
  const lastStable = async () => {
    const fetched = await harness.run(
      partition.readRecords({ ...read, isolation: "read_committed" }),
    );
    assert.ok(fetched.kind === "records");
    return fetched.lastStableOffset;
  };
  await append(transactional(5), "client"); // 0
  await append(transactional(6), "client"); // 1
  await followerFetch(2);
  await append(marker(5, "commit"), "coordinator"); // 2
  assert.equal(partition.highWatermark, 2, "the follower has not fetched the marker");
  assert.equal(await lastStable(), 0, "a new leader without the marker holds it open");
  await followerFetch(3);
  assert.equal(partition.highWatermark, 3);
  assert.equal(await lastStable(), 1, "replicated, it is stable; producer 6's is still open");
});
