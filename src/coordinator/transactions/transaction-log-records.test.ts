import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeRecords } from "../../protocol/index.js";
import { encodeTransactionRecord, replayTransactionRecord } from "./transaction-log-records.js";
import type { TransactionMetadata } from "./transaction-metadata.js";

const ongoing: TransactionMetadata = {
  transactionalId: "tx-1",
  producerId: 4000,
  previousProducerId: -1,
  producerEpoch: 3,
  lastProducerEpoch: -1,
  timeoutMs: 60_000,
  state: "Ongoing",
  partitions: [
    { topic: "a", partition: 0 },
    { topic: "a", partition: 2 },
    { topic: "b", partition: 1 },
  ],
  startTimestampMs: 10,
  lastUpdateTimestampMs: 20,
};

function roundTrip(metadata: TransactionMetadata): TransactionMetadata | undefined {
  const decoded = decodeRecords(encodeTransactionRecord(metadata, 30), {
    maxDecompressedBytes: 1 << 20,
  });
  assert.equal(decoded.ok, true);
  if (!decoded.ok) return undefined;
  const [record] = decoded.records;
  assert.ok(record !== undefined);
  const replayed = replayTransactionRecord(record);
  return replayed?.kind === "state" ? replayed.metadata : undefined;
}

test("a transaction's state reads back from its TransactionLog record", () => {
  assert.deepEqual(roundTrip(ongoing), ongoing);
});

test("an Empty state is written without partitions and reads back with none", () => {
  const empty = { ...ongoing, state: "Empty" as const, partitions: [], startTimestampMs: -1 };
  assert.deepEqual(roundTrip(empty), empty);
});

test("the record key is TransactionLogKey v0 and the value TransactionLogValue v0", () => {
  const decoded = decodeRecords(encodeTransactionRecord(ongoing, 30), {
    maxDecompressedBytes: 1 << 20,
  });
  assert.ok(decoded.ok);
  const [record] = decoded.records;
  assert.ok(record?.key !== null && record?.key !== undefined && record.value !== null);
  // int16 version 0, then the string "tx-1" (int16 length 4).
  assert.deepEqual([...record.key], [0, 0, 0, 4, 0x74, 0x78, 0x2d, 0x31]);
  assert.deepEqual([...record.value.subarray(0, 2)], [0, 0]);
});

test("a Dead (expired) transactional id is written as a tombstone that removes it", () => {
  const dead = { ...ongoing, state: "Dead" as const, partitions: [] };
  const decoded = decodeRecords(encodeTransactionRecord(dead, 30), {
    maxDecompressedBytes: 1 << 20,
  });
  assert.ok(decoded.ok);
  const [record] = decoded.records;
  assert.ok(record !== undefined);
  assert.equal(record.value, null, "a null value");
  assert.deepEqual(replayTransactionRecord(record), { kind: "removed", transactionalId: "tx-1" });
});
