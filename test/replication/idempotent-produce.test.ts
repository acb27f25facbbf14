/**
 * Idempotent produce on the production path (Partition over a real PartitionLog on the
 * simulated disk): a retried batch is stored once and answered with the first append's offsets,
 * sequence and epoch errors are Kafka's, and the producer state survives a reopen of the log and
 * a follower's promotion to leader.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { defaultPartitionConfig } from "../../src/replication/index.js";
import { defaultLogConfig, isLogAppendError } from "../../src/storage/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { clientBatch, newPartition, registration } from "./fixtures.js";

const PRODUCER_ID = 4000;

/** A fresh copy of an idempotent batch of `count` records from `baseSequence`. */
function idempotentBatch(
  baseSequence: number,
  options: {
    readonly count?: number;
    readonly epoch?: number;
    readonly baseOffset?: number;
    readonly timestamp?: number;
  } = {},
): Uint8Array {
  const records = Array.from({ length: options.count ?? 2 }, (_unused, index) => ({
    timestamp: (options.timestamp ?? 1000) + index,
    value: `seq-${baseSequence + index}`,
  }));
  return clientBatch(records, {
    producerId: PRODUCER_ID,
    producerEpoch: options.epoch ?? 0,
    baseSequence,
    baseOffset: options.baseOffset ?? 0,
  });
}

async function leaderPartition(seed: number) {
  const parts = await newPartition(seed);
  parts.partition.becomeLeader(registration({ replicas: [1], leader: 1, leaderEpoch: 1 }), 0);
  const produce = (records: Uint8Array) =>
    parts.harness.run(
      parts.partition.appendRecordsToLeader(records, { requiredAcks: 1, nowMs: 5 }),
    );
  return { ...parts, produce };
}

test("an idempotent batch sent twice is stored once; the retry gets the first offset", async () => {
  const { partition, produce } = await leaderPartition(1);
  await produce(clientBatch([{ timestamp: 1 }, { timestamp: 2 }, { timestamp: 3 }]));
  const first = await produce(idempotentBatch(0));
  assert.ok(first.kind === "appended");
  assert.equal(first.firstOffset, 3);
  const retry = await produce(idempotentBatch(0));
  assert.ok(retry.kind === "appended", "a duplicate is answered without an error");
  assert.equal(retry.firstOffset, 3);
  assert.equal(retry.lastOffset, 4);
  assert.equal(partition.logEndOffset, 5, "nothing was written for the retry");
  const next = await produce(idempotentBatch(2));
  assert.ok(next.kind === "appended");
  assert.equal(next.firstOffset, 5);
});

test("a retry sent before its original is written is found in the same group", async () => {
  const { harness, partition } = await leaderPartition(2);
  const options = { requiredAcks: 1, nowMs: 5 };
  const both = Promise.all([
    partition.appendRecordsToLeader(idempotentBatch(0), options),
    partition.appendRecordsToLeader(idempotentBatch(0), options),
  ]);
  const [original, retry] = await harness.run(both);
  assert.ok(original.kind === "appended" && retry.kind === "appended");
  assert.equal(retry.firstOffset, original.firstOffset);
  assert.equal(partition.logEndOffset, 2);
});

test("a gap in the sequence and an older epoch are refused as Kafka refuses them", async () => {
  const { partition, produce } = await leaderPartition(3);
  await produce(idempotentBatch(0, { epoch: 2 }));
  const gap = await produce(idempotentBatch(5, { epoch: 2 }));
  assert.equal(gap.kind === "error" && gap.errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  const fenced = await produce(idempotentBatch(2, { epoch: 1 }));
  assert.equal(fenced.kind === "error" && fenced.errorCode, ErrorCode.INVALID_PRODUCER_EPOCH);
  assert.equal(partition.logEndOffset, 2);
});

test("a reopened log rebuilds its producers from its batches and still finds a retry", async () => {
  const harness = new LogHarness(4);
  // Timestamps of now: a producer whose last batch is a day old is expired at the first append.
  const timestamp = harness.node.clock.nowMs();
  const log = await harness.open(defaultLogConfig);
  await harness.run(log.appendAsLeader(idempotentBatch(0, { timestamp }), { leaderEpoch: 1 }));
  await harness.run(log.appendAsLeader(idempotentBatch(2, { timestamp }), { leaderEpoch: 1 }));
  await harness.run(log.close());
  const reopened = await harness.open(defaultLogConfig);
  const retry = await harness
    .run(reopened.appendAsLeader(idempotentBatch(2, { timestamp }), { leaderEpoch: 1 }))
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  assert.ok(isLogAppendError(retry), String(retry));
  assert.ok(retry.refusal.kind === "duplicateSequence", retry.message);
  assert.equal(retry.refusal.firstOffset, 2);
  assert.equal(reopened.logEndOffset, 4);
});

test("a reopened log skips segments older than producer.id.expiration.ms", async () => {
  const harness = new LogHarness(7);
  const log = await harness.open(defaultLogConfig);
  const now = harness.node.clock.nowMs();
  const old = now - defaultLogConfig.producerIdExpirationMs - 1;
  const epoch = { leaderEpoch: 1 };
  await harness.run(log.appendAsLeader(idempotentBatch(0, { timestamp: old }), epoch));
  await harness.run(log.roll());
  await harness.run(log.appendAsLeader(idempotentBatch(2, { timestamp: now }), epoch));
  await harness.run(log.close());
  const reopened = await harness.open(defaultLogConfig);
  // The old segment was not read: the first batch is no known duplicate, and out of order.
  const retry = await harness
    .run(reopened.appendAsLeader(idempotentBatch(0, { timestamp: old }), epoch))
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  assert.ok(isLogAppendError(retry), String(retry));
  assert.equal(retry.errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  assert.equal(reopened.logEndOffset, 4);
});

test("a follower keeps its batches' producers, so as leader it finds a retry", async () => {
  const { harness, partition } = await newPartition(5, defaultPartitionConfig(defaultLogConfig));
  partition.becomeFollower(registration({ replicas: [1, 2], leader: 2, leaderEpoch: 0 }));
  const fetched = idempotentBatch(0, { baseOffset: 0 });
  const followed = await harness.run(
    partition.appendRecordsAsFollower(fetched, { fetchLeaderEpoch: 0, nowMs: 1 }),
  );
  assert.equal(followed.kind, "appended");
  partition.becomeLeader(registration({ replicas: [1, 2], leader: 1, leaderEpoch: 1 }), 2);
  const retry = await harness.run(
    partition.appendRecordsToLeader(idempotentBatch(0), { requiredAcks: 1, nowMs: 3 }),
  );
  assert.ok(retry.kind === "appended");
  assert.equal(retry.firstOffset, 0);
  assert.equal(partition.logEndOffset, 2);
});

test("a truncated log forgets the batches it lost, so their retry is written again", async () => {
  const { harness, partition, produce } = await leaderPartition(6);
  await produce(idempotentBatch(0));
  await produce(idempotentBatch(2));
  partition.becomeFollower(registration({ replicas: [1, 2], leader: 2, leaderEpoch: 2 }));
  assert.equal(await harness.run(partition.truncateTo(2)), undefined);
  partition.becomeLeader(registration({ replicas: [1, 2], leader: 1, leaderEpoch: 3 }), 4);
  const again = await harness.run(
    partition.appendRecordsToLeader(idempotentBatch(2), { requiredAcks: 1, nowMs: 5 }),
  );
  assert.ok(again.kind === "appended");
  assert.equal(again.firstOffset, 2, "the lost batch is appended again, not a duplicate");
});
