import assert from "node:assert/strict";
import { test } from "node:test";
import { BatchLayout } from "./batch-header.js";
import { encodeBatch, type NewRecord } from "./encode.js";
import { forEachRecord, openBatch, type OpenedBatch } from "./record-stream.js";
import { walkRecords, type RecordDeltasCheck } from "./record-walk.js";

const text = new TextEncoder();

/** A deterministic generator (xorshift32), so every run mutates the same bytes. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

function records(): NewRecord[] {
  return [
    { timestamp: 1_000, key: null, value: text.encode("a") },
    { timestamp: 1_000 + 2 ** 40, key: text.encode("key"), value: null },
    {
      timestamp: 999,
      key: text.encode("k".repeat(200)),
      value: new Uint8Array(300).fill(7),
      headers: [
        { key: "h1", value: text.encode("v") },
        { key: "", value: null },
      ],
    },
    { timestamp: 1_001, key: new Uint8Array(0), value: new Uint8Array(0) },
  ];
}

function batch(): Uint8Array {
  return encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: 0,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: records(),
  });
}

/** Accepts deltas as a leader does: offsetDelta equal to the index, timestamps safe. */
const leaderRule: RecordDeltasCheck = {
  accepts: (offsetDelta, timestampDelta, index) =>
    offsetDelta === index && Number.isSafeInteger(1_000 + timestampDelta),
};

/** The full parser's verdict with the same rule. */
function parserAccepts(opened: OpenedBatch): boolean {
  const result = forEachRecord(opened, (record, index) =>
    leaderRule.accepts(record.offsetDelta, record.timestampDelta, index)
      ? undefined
      : { kind: "timestampOutOfRange", recordIndex: index },
  );
  return result.ok;
}

function opened(bytes: Uint8Array): OpenedBatch {
  const result = openBatch(bytes);
  assert.ok(result.ok);
  return result;
}

test("the walk accepts a well-formed section as the parser does", () => {
  const batchOpened = opened(batch());
  assert.equal(walkRecords(batchOpened.payload, 4, leaderRule), true);
  assert.equal(parserAccepts(batchOpened), true);
});

test("the walk refuses a wrong record count either way", () => {
  const { payload } = opened(batch());
  assert.equal(walkRecords(payload, 3, leaderRule), false);
  assert.equal(walkRecords(payload, 5, leaderRule), false);
  assert.equal(walkRecords(payload, -1, leaderRule), false);
});

test("the walk never accepts a mutated section that the parser refuses", () => {
  const original = batch();
  const random = generator(0x5eed);
  let refusedByBoth = 0;
  for (let trial = 0; trial < 20_000; trial++) {
    const bytes = original.slice();
    const changes = 1 + Math.floor(random() * 3);
    for (let change = 0; change < changes; change++) {
      const at = BatchLayout.RECORDS + Math.floor(random() * (bytes.length - BatchLayout.RECORDS));
      bytes[at] = Math.floor(random() * 256);
    }
    const batchOpened = { ...opened(original), payload: bytes.subarray(BatchLayout.RECORDS) };
    const walked = walkRecords(batchOpened.payload, 4, leaderRule);
    const parsed = parserAccepts(batchOpened);
    // The walk may say "not sure" (false) where the parser accepts, never the other way round.
    if (walked) assert.equal(parsed, true, `trial ${trial}`);
    if (!walked && !parsed) refusedByBoth++;
  }
  assert.ok(refusedByBoth > 1_000, `mutations refused: ${refusedByBoth}`);
});
