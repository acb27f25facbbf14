import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compressionTypes, type CompressionType } from "./attributes.js";
import { readBatchHeader } from "./batch-header.js";
import { crc32cTable } from "./crc32c-table.js";
import { decodeRecords } from "./decode.js";
import { encodeBatch, type EncodeBatchOptions, type NewRecord } from "./encode.js";
import { validateBatch } from "./validate.js";

const limits = { maxDecompressedBytes: 8 * 1024 * 1024 };
const headerHx = { key: "h", value: new TextEncoder().encode("x") };
const text = (value: string) => new TextEncoder().encode(value);

function hex(value: string): Uint8Array {
  const clean = value.replace(/\s+/g, "");
  return Uint8Array.from(clean.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const arbBytes = fc.option(fc.uint8Array({ maxLength: 300 }), { nil: null, freq: 4 });
// fast-check's records have a null prototype; plain objects compare equal to decoded headers.
const arbHeader = fc
  .record({ key: fc.string({ unit: "grapheme", maxLength: 12 }), value: arbBytes })
  .map((header) => ({ key: header.key, value: header.value }));
const arbRecordShape = fc.record({
  timestampOffset: fc.integer({ min: -1_000_000, max: 1_000_000 }),
  offsetGap: fc.integer({ min: 1, max: 3 }),
  key: arbBytes,
  value: arbBytes,
  headers: fc.array(arbHeader, { maxLength: 4 }),
});
const arbBatch = fc.record({
  compression: fc.constantFrom<CompressionType>(...compressionTypes),
  baseOffset: fc.nat(2 ** 40),
  baseTimestamp: fc.integer({ min: 0, max: 2 ** 45 }),
  isContiguous: fc.boolean(),
  shapes: fc.array(arbRecordShape, { minLength: 1, maxLength: 40 }),
});

type ArbBatch = typeof arbBatch extends fc.Arbitrary<infer T> ? T : never;

function optionsFor(input: ArbBatch): EncodeBatchOptions {
  let offset = input.baseOffset - 1;
  const records: NewRecord[] = input.shapes.map((shape) => {
    offset += input.isContiguous ? 1 : shape.offsetGap;
    return {
      offset,
      timestamp: input.baseTimestamp + shape.timestampOffset,
      key: shape.key,
      value: shape.value,
      headers: shape.headers,
    };
  });
  return {
    baseOffset: input.baseOffset,
    partitionLeaderEpoch: 3,
    compression: input.compression,
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: 1000,
    producerEpoch: 2,
    baseSequence: 17,
    records,
  };
}

test("any records under any codec round-trip: encode, validate ok, decode equal", () => {
  fc.assert(
    fc.property(arbBatch, (input) => {
      const options = optionsFor(input);
      const bytes = encodeBatch(options);
      const origin = input.isContiguous ? "client" : "replication";
      const validated = validateBatch(bytes, { ...limits, origin });
      assert.ok(validated.ok, JSON.stringify(!validated.ok && validated.error));
      assert.equal(validated.recordCount, options.records.length);
      assert.ok(validated.isMaxTimestampConsistent);
      const decoded = decodeRecords(bytes, limits);
      assert.ok(decoded.ok);
      const expected = options.records.map((record) => ({
        ...record,
        headers: record.headers ?? [],
      }));
      assert.deepEqual(decoded.records, expected);
      assert.equal(decoded.header.compression, input.compression);
      assert.equal(decoded.header.lastOffset, options.records.at(-1)?.offset);
    }),
    { seed: 4242, numRuns: 250 },
  );
});

// Two records by hand from the v2 layout: baseOffset 5, epoch 7, no producer, timestamps 1000
// and 1001; record 1 key "k", value "v1", header h=x; record 2 null key, empty value.
const KNOWN_BATCH = hex(`
  0000000000000005 00000046 00000007 02 6b4834a5
  0000 00000001 00000000000003e8 00000000000003e9 ffffffffffffffff ffff ffffffff 00000002
  1a 00 00 00 02 6b 04 7631 02 02 68 02 78
  0c 00 02 02 01 00 00`);

test("a hand-built batch has the exact bytes encodeBatch writes", () => {
  const bytes = encodeBatch({
    baseOffset: 5,
    partitionLeaderEpoch: 7,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: [
      { timestamp: 1000, key: text("k"), value: text("v1"), headers: [headerHx] },
      { timestamp: 1001, key: null, value: new Uint8Array(0) },
    ],
  });
  assert.equal(toHex(bytes), toHex(KNOWN_BATCH));
});

test("the hand-built batch's CRC is the table CRC-32C of attributes to the end", () => {
  const storedCrc = new DataView(KNOWN_BATCH.buffer).getUint32(17);
  assert.equal(storedCrc, crc32cTable(KNOWN_BATCH.subarray(21)));
});

test("the hand-built batch decodes to its records with absolute offsets and timestamps", () => {
  const decoded = decodeRecords(KNOWN_BATCH, limits);
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.records, [
    { offset: 5, timestamp: 1000, key: text("k"), value: text("v1"), headers: [headerHx] },
    { offset: 6, timestamp: 1001, key: null, value: new Uint8Array(0), headers: [] },
  ]);
  const header = decoded.header;
  assert.equal(header.batchLength, 70);
  assert.equal(header.partitionLeaderEpoch, 7);
  assert.equal(header.maxTimestamp, 1001);
  assert.equal(header.producerId, -1);
  assert.equal(header.recordCount, 2);
});

test("stamping baseOffset and partitionLeaderEpoch in place keeps the batch valid", () => {
  const bytes = KNOWN_BATCH.slice();
  const read = readBatchHeader(bytes);
  assert.ok(read.ok);
  read.header.stampBaseOffset(2 ** 40 + 3);
  read.header.stampPartitionLeaderEpoch(99);
  assert.equal(read.header.crc, new DataView(KNOWN_BATCH.buffer).getUint32(17));
  const validated = validateBatch(bytes, { ...limits, origin: "client" });
  assert.ok(validated.ok);
  assert.equal(validated.header.baseOffset, 2 ** 40 + 3);
  assert.equal(validated.header.lastOffset, 2 ** 40 + 4);
  assert.equal(validated.header.partitionLeaderEpoch, 99);
  const decoded = decodeRecords(bytes, limits);
  assert.ok(decoded.ok);
  assert.deepEqual(
    decoded.records.map((record) => record.offset),
    [2 ** 40 + 3, 2 ** 40 + 4],
  );
});

test("stamping LogAppendTime rewrites the CRC and every record reads the append time", () => {
  const bytes = KNOWN_BATCH.slice();
  const read = readBatchHeader(bytes);
  assert.ok(read.ok);
  read.header.stampMaxTimestamp("logAppendTime", 5000);
  const validated = validateBatch(bytes, { ...limits, origin: "client" });
  assert.ok(validated.ok);
  assert.equal(validated.maxTimestamp, 5000);
  assert.equal(validated.offsetDeltaOfMaxTimestamp, 1);
  const decoded = decodeRecords(bytes, limits);
  assert.ok(decoded.ok);
  assert.deepEqual(
    decoded.records.map((record) => record.timestamp),
    [5000, 5000],
  );
});

test("a stale maxTimestamp from a producer is reported and can be stamped right", () => {
  const options = optionsFor({
    compression: "none",
    baseOffset: 0,
    baseTimestamp: 10_000,
    isContiguous: true,
    shapes: [
      { timestampOffset: 0, offsetGap: 1, key: null, value: null, headers: [] },
      { timestampOffset: 50, offsetGap: 1, key: null, value: null, headers: [] },
      { timestampOffset: 50, offsetGap: 1, key: null, value: null, headers: [] },
    ],
  });
  const bytes = encodeBatch(options);
  const read = readBatchHeader(bytes);
  assert.ok(read.ok);
  read.header.stampMaxTimestamp("createTime", 10_001);
  const stale = validateBatch(bytes, { ...limits, origin: "client" });
  assert.ok(stale.ok);
  assert.equal(stale.isMaxTimestampConsistent, false);
  assert.equal(stale.maxTimestamp, 10_050);
  assert.equal(stale.offsetDeltaOfMaxTimestamp, 1);
  stale.header.stampMaxTimestamp("createTime", stale.maxTimestamp);
  const fixed = validateBatch(bytes, { ...limits, origin: "client" });
  assert.ok(fixed.ok && fixed.isMaxTimestampConsistent);
});
