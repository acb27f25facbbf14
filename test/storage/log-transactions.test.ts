/**
 * Transactions in the partition log: an open transaction holds the first unstable offset, an
 * ABORT marker puts the aborted transaction in the `.txnindex` file of its segment (Kafka's
 * 34-byte entries), which a reopened log reads back, and a truncation removes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeTransactionMarkerBatch } from "../../src/protocol/index.js";
import { clientBatch } from "../replication/fixtures.js";
import { LogHarness, partitionDir, testConfig } from "./log-harness.js";

function transactionalBatch(producerId: number, count: number, baseSequence: number) {
  const records = Array.from({ length: count }, (_, index) => ({ timestamp: NOW_MS + index }));
  const producer = { producerId, producerEpoch: 0, baseSequence };
  return clientBatch(records, { isTransactional: true, ...producer });
}

function marker(producerId: number, type: "commit" | "abort") {
  return encodeTransactionMarkerBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    producerId,
    producerEpoch: 0,
    coordinatorEpoch: 4,
    type,
    timestamp: NOW_MS,
  });
}

/** The simulated clock's time: a segment older than producer.id.expiration.ms is not reread. */
const NOW_MS = 1_704_067_200_000;
const coordinator = { leaderEpoch: 1, origin: "coordinator" } as const;
const client = { leaderEpoch: 1 } as const;

test("open transactions bound the stable offset and aborts are indexed and reread", async () => {
  const harness = new LogHarness(11);
  const log = await harness.open(testConfig());
  await harness.run(log.appendAsLeader(transactionalBatch(7, 3, 0), client)); // 0-2
  await harness.run(log.appendAsLeader(transactionalBatch(8, 2, 0), client)); // 3-4
  assert.equal(log.transactions.firstUnstableOffset(0), 0);
  await harness.run(log.appendAsLeader(marker(7, "abort"), coordinator)); // 5
  const stability = log.transactions;
  assert.equal(stability.firstUnstableOffset(5), 0, "until the high watermark passes its marker");
  assert.equal(stability.firstUnstableOffset(6), 3, "the aborted transaction no longer holds it");
  await harness.run(log.appendAsLeader(marker(8, "commit"), coordinator)); // 6
  assert.equal(stability.firstUnstableOffset(6), 3, "the commit at 6 is not replicated at 6");
  assert.equal(stability.firstUnstableOffset(7), undefined);
  stability.onHighWatermarkUpdated(6);
  assert.equal(stability.firstUnstableOffset(0), 3, "a marker once below the high watermark stays");
  const aborted = { producerId: 7, firstOffset: 0, lastOffset: 5, lastStableOffset: 3 };
  assert.deepEqual(log.transactionIndex.collect(0, 7), [aborted]);
  assert.deepEqual(log.transactionIndex.collect(6, 7), [], "a read after the marker has none");
  const file = `${partitionDir}/00000000000000000000.txnindex`;
  assert.equal((await harness.run(harness.fs.stat(file)))?.size, 34, "one entry of 34 bytes");
  await harness.run(log.close());
  const reopened = await harness.open(testConfig());
  assert.deepEqual(reopened.transactionIndex.collect(0, 7), [aborted], "the index is read back");
  await harness.run(reopened.truncateTo(5));
  assert.deepEqual(reopened.transactionIndex.collect(0, 7), [], "a truncated marker leaves");
  assert.equal(reopened.transactions.firstUnstableOffset(7), 0, "its transaction is open again");
  const left = await harness.run(harness.fs.stat(file));
  assert.equal(left, undefined, "the index file of the truncated entry goes");
  await harness.run(reopened.close());
});

test("a marker from an older coordinator epoch is refused", async () => {
  const harness = new LogHarness(12);
  const log = await harness.open(testConfig());
  await harness.run(log.appendAsLeader(transactionalBatch(9, 1, 0), client));
  await harness.run(log.appendAsLeader(marker(9, "commit"), coordinator));
  const stale = encodeTransactionMarkerBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    producerId: 9,
    producerEpoch: 0,
    coordinatorEpoch: 3,
    type: "abort",
    timestamp: 2_000,
  });
  await assert.rejects(harness.run(log.appendAsLeader(stale, coordinator)), /coordinator epoch/);
  await harness.run(log.close());
});

test("an abort whose marker was flushed is still indexed after a crash", async () => {
  const harness = new LogHarness(13);
  const log = await harness.open(testConfig());
  await harness.run(log.appendAsLeader(transactionalBatch(7, 3, 0), client)); // 0-2
  await harness.run(log.appendAsLeader(marker(7, "abort"), coordinator)); // 3
  await harness.run(log.flush());
  const recoveryPoint = log.recoveryPoint;
  assert.equal(recoveryPoint, 4, "the marker is durable");
  harness.crash();
  const reopened = await harness.open(testConfig(), { recoveryPoint, hadCleanShutdown: false });
  assert.equal(reopened.logEndOffset, 4, "the flushed batches survive");
  const aborted = { producerId: 7, firstOffset: 0, lastOffset: 3, lastStableOffset: 4 };
  assert.deepEqual(reopened.transactionIndex.collect(0, 4), [aborted], "the abort survives");
  await harness.run(reopened.close());
});

test("an abort whose index entry a crash lost is indexed again when the log opens", async () => {
  const harness = new LogHarness(14);
  const log = await harness.open(testConfig());
  await harness.run(log.appendAsLeader(transactionalBatch(7, 3, 0), client)); // 0-2
  await harness.run(log.appendAsLeader(transactionalBatch(8, 2, 0), client)); // 3-4
  await harness.run(log.appendAsLeader(marker(7, "abort"), coordinator)); // 5
  // The crash keeps the unflushed batches and loses the new .txnindex file, whose folder entry
  // was not synced.
  harness.fs.crashOptions = { keepsAllWritten: true };
  harness.crash();
  const file = `${partitionDir}/00000000000000000000.txnindex`;
  await harness.run(harness.fs.unlink(file));
  const reopened = await harness.open(testConfig(), { recoveryPoint: 0, hadCleanShutdown: false });
  assert.equal(reopened.logEndOffset, 6, "the batches survive");
  const aborted = { producerId: 7, firstOffset: 0, lastOffset: 5, lastStableOffset: 3 };
  assert.deepEqual(reopened.transactionIndex.collect(0, 6), [aborted], "the abort is indexed");
  assert.equal((await harness.run(harness.fs.stat(file)))?.size, 34, "and its file written");
  await harness.run(reopened.close());
  const again = await harness.open(testConfig());
  assert.deepEqual(again.transactionIndex.collect(0, 6), [aborted], "once, after a reopen");
  await harness.run(again.close());
});
