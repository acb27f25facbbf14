/**
 * Producer state snapshots (Kafka's `<offset>.snapshot` files): a roll and a clean close write
 * one, the next open loads it and reads only the batches after it, so a producer whose batches
 * retention removed is still known; a snapshot that does not read back is deleted and the state
 * rebuilt from the batches; a truncation deletes the snapshots above it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { isLogAppendError, type PartitionLog } from "../../src/storage/index.js";
import { clientBatch } from "../replication/fixtures.js";
import { LogHarness, partitionDir, testConfig } from "./log-harness.js";

/** The simulated clock's time: producers of batches this old are not expired. */
const NOW_MS = 1_704_067_200_000;
const PRODUCER_ID = 7;
const leader = { leaderEpoch: 1 } as const;

function idempotentBatch(baseSequence: number, count = 2): Uint8Array {
  const records = Array.from({ length: count }, (_, index) => ({
    timestamp: NOW_MS + index,
    value: `value-${baseSequence + index}-${"x".repeat(100)}`,
  }));
  return clientBatch(records, { producerId: PRODUCER_ID, producerEpoch: 0, baseSequence });
}

function snapshotPath(offset: number): string {
  return `${partitionDir}/${String(offset).padStart(20, "0")}.snapshot`;
}

/** The kind of the log's refusal of `batch`, or undefined when it was appended. */
async function refusalOf(harness: LogHarness, log: PartitionLog, batch: Uint8Array) {
  try {
    await harness.run(log.appendAsLeader(batch, leader));
    return undefined;
  } catch (error) {
    assert.ok(isLogAppendError(error), String(error));
    return error.refusal.kind === "duplicateSequence" ? "duplicate" : error.errorCode;
  }
}

test("a closed log's snapshot keeps a producer whose batches retention removed", async () => {
  const harness = new LogHarness(21);
  // Segments of one batch each: every append after the first rolls.
  const config = testConfig({ segmentBytes: 350 });
  const log = await harness.open(config);
  await harness.run(log.appendAsLeader(idempotentBatch(0), leader)); // 0-1
  await harness.run(log.appendAsLeader(clientBatch([{ timestamp: NOW_MS }]), leader)); // 2
  assert.ok(log.segmentCount > 1, "the second append rolled");
  const rolledAt = 3;
  assert.ok(await harness.run(harness.fs.stat(snapshotPath(rolledAt))), "the roll took one");
  await harness.run(log.maybeIncrementLogStartOffset(2));
  assert.equal(log.segments()[0]?.baseOffset, 2, "the producer's batch is gone");
  await harness.run(log.close());
  assert.ok(await harness.run(harness.fs.stat(snapshotPath(3))), "the close took one");

  const reopened = await harness.open(config, { logStartOffset: 2 });
  const gap = await refusalOf(harness, reopened, idempotentBatch(5));
  assert.equal(gap, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, "the producer is still known");
  const next = await harness.run(reopened.appendAsLeader(idempotentBatch(2), leader));
  assert.equal(next.firstOffset, 3, "its next sequence follows the snapshot's last batch");
  const retry = await refusalOf(harness, reopened, idempotentBatch(2));
  assert.equal(retry, "duplicate", "a retry of it is a duplicate");
  assert.equal(reopened.logEndOffset, 5);
  await harness.run(reopened.close());
});

test("a snapshot that does not read back is deleted and the batches read instead", async () => {
  const harness = new LogHarness(22);
  const log = await harness.open(testConfig());
  await harness.run(log.appendAsLeader(idempotentBatch(0), leader)); // 0-1
  await harness.run(log.close());
  const path = snapshotPath(2);
  const handle = await harness.run(harness.fs.open(path));
  await harness.run(handle.write(new Uint8Array([0xff]), 20));
  await harness.run(handle.close());

  const reopened = await harness.open(testConfig());
  assert.ok(
    harness.logger.lines.some((line) => line.includes("does not read back")),
    "the dropped snapshot is logged",
  );
  const retry = await refusalOf(harness, reopened, idempotentBatch(0));
  assert.equal(retry, "duplicate", "the state rebuilt from the batches knows the batch");
  assert.equal(reopened.logEndOffset, 2);
  await harness.run(reopened.close());
  assert.ok(await harness.run(harness.fs.stat(path)), "the close wrote a good one again");
  const again = await harness.open(testConfig());
  const gap = await refusalOf(harness, again, idempotentBatch(9));
  assert.equal(gap, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  await harness.run(again.close());
});

test("a truncation deletes the snapshots above it and reloads the state below it", async () => {
  const harness = new LogHarness(23);
  const log = await harness.open(testConfig({ segmentBytes: 350 }));
  await harness.run(log.appendAsLeader(idempotentBatch(0), leader)); // 0-1
  await harness.run(log.appendAsLeader(idempotentBatch(2), leader)); // 2-3, rolled
  await harness.run(log.appendAsLeader(idempotentBatch(4), leader)); // 4-5, rolled
  assert.ok(await harness.run(harness.fs.stat(snapshotPath(4))));
  assert.ok(await harness.run(harness.fs.stat(snapshotPath(6))));
  await harness.run(log.truncateTo(4));
  assert.equal(await harness.run(harness.fs.stat(snapshotPath(6))), undefined, "above: gone");
  assert.ok(await harness.run(harness.fs.stat(snapshotPath(4))), "at the cut: kept");
  const next = await harness.run(log.appendAsLeader(idempotentBatch(4), leader));
  assert.equal(next.firstOffset, 4, "the truncated batch is not a duplicate any more");
  await harness.run(log.close());
});
