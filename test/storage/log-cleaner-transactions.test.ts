/**
 * The cleaner and transactions, on the real partition log and the simulated disk: an aborted
 * transaction's records go, so read_committed and read_uncommitted reads agree; committed
 * transactional records compact with plain ones; an ABORT marker stays while its transaction
 * has data and goes delete.retention.ms after it is empty; the last batch of each producer
 * stays; a restart after cleaning rebuilds the same producer state and aborted transactions.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  decodeRecords,
  encodeTransactionMarkerBatch,
  iterateBatches,
} from "../../src/protocol/index.js";
import type { PartitionLog } from "../../src/storage/index.js";
import { clientBatch } from "../replication/fixtures.js";
import { appendWrites, cleanerOf, compactConfig, type Write } from "./cleaner-harness.js";
import { LogHarness, readAll } from "./log-harness.js";

const client = { leaderEpoch: 0 } as const;
const coordinator = { leaderEpoch: 0, origin: "coordinator" } as const;

/** A transactional batch of `producerId` with keyed records. */
function txnBatch(
  producerId: number,
  baseSequence: number,
  writes: [string, string][],
  at: number,
) {
  const records = writes.map(([key, value]) => ({ key, value, timestamp: at }));
  const producer = { producerId, producerEpoch: 0, baseSequence, isTransactional: true };
  return clientBatch(records, producer);
}

function marker(producerId: number, type: "commit" | "abort", timestamp: number) {
  return encodeTransactionMarkerBatch({
    ...{ baseOffset: 0, partitionLeaderEpoch: 0, producerId, producerEpoch: 0 },
    ...{ coordinatorEpoch: 1, type, timestamp },
  });
}

interface SeenBatch {
  readonly baseOffset: number;
  readonly producerId: number;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
  readonly records: readonly { offset: number; key: string | null; value: string | null }[];
}

const decoder = new TextDecoder();
const text = (bytes: Uint8Array | null) => (bytes === null ? null : decoder.decode(bytes));

async function batchesOf(harness: LogHarness, log: PartitionLog): Promise<SeenBatch[]> {
  const runs = await readAll(harness, log);
  return runs.flatMap(({ bytes }) =>
    [...iterateBatches(bytes, { maxBatchBytes: 1 << 30 })].flatMap((entry) => {
      if (entry.kind !== "batch") return [];
      const decoded = decodeRecords(entry.bytes, { maxDecompressedBytes: 1 << 22 });
      assert.ok(decoded.ok);
      const { header } = decoded;
      const records = decoded.records.map((record) => ({
        offset: record.offset,
        key: text(record.key),
        value: text(record.value),
      }));
      const { baseOffset, producerId, isTransactional, isControl } = header;
      return [{ baseOffset, producerId, isTransactional, isControl, records }];
    }),
  );
}

/** The data records a consumer reads, read_committed skipping the indexed aborts. */
function consumed(batches: readonly SeenBatch[], log: PartitionLog, isCommitted: boolean) {
  const aborted = log.transactionIndex.collect(0, log.logEndOffset);
  return batches
    .filter((batch) => !batch.isControl)
    .filter(
      (batch) =>
        !isCommitted ||
        !batch.isTransactional ||
        !aborted.some(
          (each) =>
            each.producerId === batch.producerId &&
            each.firstOffset <= batch.baseOffset &&
            batch.baseOffset <= each.lastOffset,
        ),
    )
    .flatMap((batch) => batch.records.map((record) => `${record.key}=${record.value}`));
}

const filler = (count: number, from: number): Write[] =>
  Array.from({ length: count }, (_, index) => ["z", `${from + index}`]);

/** Writes two transactions of producer 7 (aborted, then committed) and one of producer 8. */
async function transactionalLog(harness: LogHarness): Promise<PartitionLog> {
  const log = await harness.open(compactConfig);
  const at = harness.node.clock.nowMs();
  const append = (bytes: Uint8Array, origin: typeof client | typeof coordinator) =>
    harness.run(log.appendAsLeader(bytes, origin));
  await harness.run(
    appendWrites(
      log,
      [
        ["d", "plain-d"],
        ["e", "plain-e"],
      ],
      at,
    ),
  );
  const aborted: [string, string][] = [
    ["a", "aborted-a"],
    ["b", "aborted-b"],
    // An aborted record must not hide the plain one before it.
    ["e", "aborted-e"],
  ];
  await append(txnBatch(7, 0, aborted, at), client);
  await harness.run(appendWrites(log, [["a", "plain-a"]], at));
  await append(txnBatch(8, 0, [["c", "committed-c"]], at), client);
  await append(marker(7, "abort", at), coordinator);
  await append(marker(8, "commit", at), coordinator);
  await append(txnBatch(7, 3, [["d", "committed-d"]], at), client);
  await append(marker(7, "commit", at), coordinator);
  await harness.run(appendWrites(log, [["c", "plain-c"], ...filler(12, 0)], at));
  await harness.run(log.flush());
  return log;
}

/** Appends more writes, rolled into inactive segments, so that the log is dirty again. */
async function dirtyAgain(harness: LogHarness, log: PartitionLog, from: number): Promise<void> {
  await harness.run(appendWrites(log, filler(10, from), harness.node.clock.nowMs()));
  await harness.run(log.flush());
}

const abortMarkers = (batches: readonly SeenBatch[]) =>
  batches.filter((batch) => batch.isControl && batch.producerId === 7 && batch.records.length > 0);

test("aborted data goes, committed data compacts, the ABORT marker goes later", async () => {
  const harness = new LogHarness(31);
  const log = await transactionalLog(harness);
  const before = await batchesOf(harness, log);
  assert.ok(consumed(before, log, false).includes("a=aborted-a"));
  assert.ok(!consumed(before, log, true).includes("a=aborted-a"));
  const producers = log.activeProducers();
  const cleaner = cleanerOf(harness, () => log);
  const now = harness.node.clock.nowMs();

  const first = await harness.run(cleaner.cleanOnce(now));
  assert.ok(first.cleaned !== undefined);
  const cleaned = await batchesOf(harness, log);
  const uncommitted = consumed(cleaned, log, false);
  assert.deepEqual(uncommitted, consumed(cleaned, log, true), "both isolation levels agree");
  assert.deepEqual(
    uncommitted.filter((record) => !record.startsWith("z=")),
    ["e=plain-e", "a=plain-a", "d=committed-d", "c=plain-c"],
    "aborted records are gone; committed c and plain d are compacted by later writes",
  );
  const txn8 = cleaned.filter((batch) => batch.producerId === 8 && !batch.isControl);
  assert.equal(txn8.length, 1, "producer 8's last batch stays");
  assert.deepEqual(txn8[0]?.records, [], "emptied");
  assert.equal(abortMarkers(cleaned).length, 2, "the ABORT marker stays while its data was there");
  assert.equal(log.transactionIndex.collect(0, log.logEndOffset).length, 1);
  assert.deepEqual(log.activeProducers(), producers, "the producer state is untouched");

  await dirtyAgain(harness, log, 100);
  await harness.run(cleaner.cleanOnce(now + 10));
  assert.equal(abortMarkers(await batchesOf(harness, log)).length, 2, "inside its horizon");
  assert.deepEqual(log.transactionIndex.collect(0, log.logEndOffset), [], "nothing left to skip");

  await dirtyAgain(harness, log, 200);
  await harness.run(cleaner.cleanOnce(now + 10 + compactConfig.deleteRetentionMs));
  const last = await batchesOf(harness, log);
  assert.deepEqual(
    abortMarkers(last).map((batch) => batch.records.length),
    [1],
    "the ABORT marker went; producer 7's COMMIT marker stays",
  );
  assert.ok(
    last.some((batch) => batch.producerId === 7 && batch.records[0]?.key === "d"),
    "producer 7's last data batch stays",
  );
  await harness.run(log.close());
});

test("a restart after cleaning rebuilds the same producers and aborts", async () => {
  const harness = new LogHarness(32);
  const log = await transactionalLog(harness);
  const cleaner = cleanerOf(harness, () => log);
  const result = await harness.run(cleaner.cleanOnce(harness.node.clock.nowMs()));
  assert.ok(result.cleaned !== undefined);
  const producers = log.activeProducers();
  const aborted = log.transactionIndex.collect(0, log.logEndOffset);
  assert.equal(aborted.length, 1);
  const records = consumed(await batchesOf(harness, log), log, true);
  harness.crash();
  const reopened = await harness.open(compactConfig, { recoveryPoint: 0, hadCleanShutdown: false });
  assert.deepEqual(reopened.activeProducers(), producers);
  assert.deepEqual(reopened.transactionIndex.collect(0, reopened.logEndOffset), aborted);
  assert.deepEqual(consumed(await batchesOf(harness, reopened), reopened, true), records);
  await harness.run(reopened.close());
});
