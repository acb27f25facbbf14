import { test } from "node:test";
import assert from "node:assert/strict";
import { crc32c } from "../../protocol/index.js";
import { decodeProducerSnapshot, encodeProducerSnapshot } from "./producer-snapshot-format.js";

const entry = {
  producerEpoch: 3,
  batches: [
    { firstSequence: 10, lastSequence: 14, firstOffset: 100, lastOffset: 104, timestamp: 7 },
  ],
  lastTimestamp: 7,
  currentTxnFirstOffset: 90,
  coordinatorEpoch: 2,
};

test("a snapshot is Kafka's version 1 layout, checked by CRC-32C", () => {
  const bytes = encodeProducerSnapshot([{ producerId: 5, entry }]);
  assert.equal(bytes.length, 2 + 4 + 4 + 46, "header, count and one 46-byte entry");
  const view = new DataView(bytes.buffer);
  assert.equal(view.getInt16(0), 1, "version 1");
  assert.equal(view.getUint32(2), crc32c(bytes.subarray(6)), "the CRC covers what follows it");
  assert.equal(view.getInt32(6), 1, "one entry");
  assert.equal(view.getBigInt64(10), 5n, "producer id");
  assert.equal(view.getInt16(18), 3, "epoch");
  assert.equal(view.getInt32(20), 14, "last sequence");
  assert.equal(view.getBigInt64(24), 104n, "last offset");
  assert.equal(view.getInt32(32), 4, "offset delta");
  assert.equal(view.getBigInt64(36), 7n, "timestamp");
  assert.equal(view.getInt32(44), 2, "coordinator epoch");
  assert.equal(view.getBigInt64(48), 90n, "first offset of the ongoing transaction");
  assert.deepEqual(decodeProducerSnapshot(bytes), {
    ok: true,
    producers: [{ producerId: 5, entry }],
  });
});

test("a producer without batches or transaction, and a wrapped sequence, read back", () => {
  const idle = { producerEpoch: 0, batches: [], lastTimestamp: 9 };
  const wrapped = {
    producerEpoch: 1,
    batches: [
      { firstSequence: 0x7ffffffe, lastSequence: 1, firstOffset: 20, lastOffset: 23, timestamp: 4 },
    ],
    lastTimestamp: 4,
  };
  const producers = [
    { producerId: 1, entry: idle },
    { producerId: 2, entry: wrapped },
  ];
  assert.deepEqual(decodeProducerSnapshot(encodeProducerSnapshot(producers)), {
    ok: true,
    producers,
  });
});

test("a torn, altered or unknown snapshot is refused with the reason", () => {
  const bytes = encodeProducerSnapshot([{ producerId: 5, entry }]);
  const torn = decodeProducerSnapshot(bytes.subarray(0, bytes.length - 3));
  assert.ok(!torn.ok && /do not hold/.test(torn.reason));
  const altered = bytes.slice();
  altered[30] = (altered[30] ?? 0) ^ 1;
  const changed = decodeProducerSnapshot(altered);
  assert.ok(!changed.ok && /CRC/.test(changed.reason));
  const other = bytes.slice();
  other[1] = 2;
  const version = decodeProducerSnapshot(other);
  assert.ok(!version.ok && /version 2/.test(version.reason));
  assert.ok(!decodeProducerSnapshot(new Uint8Array(3)).ok);
});
