import { test } from "node:test";
import assert from "node:assert/strict";
import { completeBatches, iterateBatches, type BatchEntry } from "./batch-iterator.js";
import { encodeBatch, type EncodeBatchOptions } from "./encode.js";

const options = { maxBatchBytes: 1024 * 1024 };

function batchAt(baseOffset: number, count: number): Uint8Array {
  const base: EncodeBatchOptions = {
    baseOffset,
    partitionLeaderEpoch: 0,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: Array.from({ length: count }, (_, index) => ({
      timestamp: index,
      key: null,
      value: new Uint8Array([index]),
    })),
  };
  return encodeBatch(base);
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((part) => [...part]));
const kinds = (entries: BatchEntry[]) => entries.map((entry) => entry.kind);

test("batches back to back are walked in order with their positions", () => {
  const first = batchAt(0, 3);
  const second = batchAt(3, 2);
  const entries = [...iterateBatches(concat(first, second), options)];
  assert.deepEqual(kinds(entries), ["batch", "batch"]);
  const [one, two] = entries;
  assert.ok(one?.kind === "batch" && two?.kind === "batch");
  assert.equal(two.position, first.length);
  assert.equal(one.header.lastOffset, 2);
  assert.equal(two.header.baseOffset, 3);
  assert.equal(two.bytes.length, second.length);
});

test("a range ending inside a batch ends with a partial entry, not corruption", () => {
  const first = batchAt(0, 3);
  const second = batchAt(3, 2);
  for (const cut of [1, 11, 12, 17, 60, second.length - 1]) {
    const entries = [...iterateBatches(concat(first, second.subarray(0, cut)), options)];
    assert.deepEqual(kinds(entries), ["batch", "partial"], `cut ${cut}`);
    const partial = entries[1];
    assert.ok(partial?.kind === "partial");
    assert.equal(partial.availableBytes, cut);
    assert.equal(partial.neededBytes, cut < 12 ? 12 : second.length);
  }
});

test("an empty range has no entries", () => {
  assert.deepEqual([...iterateBatches(new Uint8Array(0), options)], []);
});

test("a batchLength beyond the maximum is corrupt and stops the walk", () => {
  const bytes = concat(batchAt(0, 1), batchAt(1, 1));
  const small = { maxBatchBytes: bytes.length / 2 - 1 };
  const entries = [...iterateBatches(bytes, small)];
  assert.deepEqual(kinds(entries), ["corrupt"]);
  assert.equal(entries[0]?.kind === "corrupt" && entries[0].error.kind, "batchLengthInvalid");
});

test("legacy entries are recognised; an unknown magic is corrupt", () => {
  const legacy = new Uint8Array(12 + 14);
  new DataView(legacy.buffer).setInt32(8, 14);
  legacy[16] = 1;
  const strange = batchAt(0, 1);
  strange[16] = 7;
  const range = concat(batchAt(0, 1), legacy, strange, batchAt(1, 1));
  const entries = [...iterateBatches(range, options)];
  assert.deepEqual(kinds(entries), ["batch", "legacy", "corrupt"]);
});

test("completeBatches refuses a partial tail and legacy entries, as a produce must", () => {
  const whole = concat(batchAt(0, 2), batchAt(2, 2));
  const accepted = completeBatches(whole, options);
  assert.ok(accepted.ok);
  assert.equal(accepted.batches.length, 2);
  const cut = completeBatches(whole.subarray(0, whole.length - 1), options);
  assert.ok(!cut.ok && cut.error.kind === "truncated");
  const legacy = new Uint8Array(26);
  new DataView(legacy.buffer).setInt32(8, 14);
  const refused = completeBatches(legacy, options);
  assert.ok(!refused.ok);
  assert.deepEqual(refused.error, { kind: "legacyMagic", magic: 0 });
});
