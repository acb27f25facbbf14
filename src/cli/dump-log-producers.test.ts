import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeProducerSnapshot } from "../storage/index.js";
import { runDumpLog } from "./dump-log.test-support.js";

const run = runDumpLog;

/** One 34-byte `.txnindex` entry laid out field by field: int16 version 0, four int64. */
function txnEntry(producerId: number, first: number, last: number, lastStable: number) {
  const bytes = new Uint8Array(34);
  const view = new DataView(bytes.buffer);
  [producerId, first, last, lastStable].forEach((value, index) => {
    view.setBigInt64(2 + index * 8, BigInt(value));
  });
  return Array.from(bytes);
}

test("dump-log prints a .txnindex file's aborted transactions as Kafka's tool", async () => {
  const path = "/d/t-0/00000000000000000000.txnindex";
  const bytes = Uint8Array.from([...txnEntry(7, 0, 5, 3), ...txnEntry(9, 6, 8, 9)]);
  const { exitCode, lines } = await run(new Map([[path, bytes]]), [path]);
  assert.equal(exitCode, 0);
  assert.deepEqual(lines, [
    `Dumping ${path}`,
    "version: 0 producerId: 7 firstOffset: 0 lastOffset: 5 lastStableOffset: 3",
    "version: 0 producerId: 9 firstOffset: 6 lastOffset: 8 lastStableOffset: 9",
  ]);
  const torn = await run(new Map([[path, bytes.subarray(0, 50)]]), ["--json", path]);
  assert.equal(torn.exitCode, 1, "a torn last entry is damage");
  assert.equal(torn.lines.length, 3);
  assert.match(torn.lines[2] ?? "", /"position":34.*16 bytes that are not a version 0 entry/);
});

test("dump-log prints a producer snapshot's producers and refuses a damaged one", async () => {
  const path = "/d/t-0/00000000000000000042.snapshot";
  const batch = {
    firstSequence: 3,
    lastSequence: 4,
    firstOffset: 40,
    lastOffset: 41,
    timestamp: 8,
  };
  const snapshot = encodeProducerSnapshot([
    { producerId: 7, entry: { producerEpoch: 1, batches: [batch], lastTimestamp: 8 } },
    {
      producerId: 9,
      entry: { producerEpoch: 0, batches: [], lastTimestamp: 5, currentTxnFirstOffset: 30 },
    },
  ]);
  const { exitCode, lines } = await run(new Map([[path, snapshot]]), [path]);
  assert.equal(exitCode, 0);
  assert.deepEqual(lines, [
    `Dumping ${path}`,
    "producerId: 7 producerEpoch: 1 coordinatorEpoch: -1 currentTxnFirstOffset: " +
      "OptionalLong.empty lastTimestamp: 8 firstSequence: 3 lastSequence: 4 lastOffset: 41 " +
      "offsetDelta: 1 timestamp: 8",
    "producerId: 9 producerEpoch: 0 coordinatorEpoch: -1 currentTxnFirstOffset: " +
      "OptionalLong[30] lastTimestamp: 5",
  ]);
  const damaged = snapshot.slice();
  damaged[20] = (damaged[20] ?? 0) ^ 0xff;
  const refused = await run(new Map([[path, damaged]]), [path]);
  assert.equal(refused.exitCode, 1);
  assert.match(refused.lines[1] ?? "", /not a producer snapshot: the CRC is no longer valid/);
});
