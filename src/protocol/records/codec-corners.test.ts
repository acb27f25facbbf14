import { test } from "node:test";
import assert from "node:assert/strict";
import { BatchLayout, readBatchHeader } from "./batch-header.js";
import { encodeBatch } from "./encode.js";
import { decompressRecords } from "./compression.js";

const MiB = 1024 * 1024;

function hex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  return Uint8Array.from(clean.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function smallBatch(): Uint8Array {
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
    records: [{ timestamp: 1, key: null, value: null }],
  });
}

test("a batch header whose int64 field is -2^53 is refused, and -(2^53 - 1) is read", () => {
  const bytes = smallBatch();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setBigInt64(BatchLayout.MAX_TIMESTAMP, -(1n << 53n));
  const refused = readBatchHeader(bytes);
  assert.ok(!refused.ok);
  assert.deepEqual(refused.error, { kind: "int64OutOfRange", field: "maxTimestamp" });
  view.setBigInt64(BatchLayout.MAX_TIMESTAMP, BigInt(Number.MIN_SAFE_INTEGER));
  const read = readBatchHeader(bytes);
  assert.ok(read.ok);
  assert.equal(read.header.maxTimestamp, Number.MIN_SAFE_INTEGER);
});

test("two concatenated xerial streams decompress as one, as snappy-java reads them", () => {
  const header = "82534e4150505900 00000001 00000001";
  const stream = hex(`${header} 00000007 0510 68656c6c6f ${header} 00000003 01 00 21`);
  const result = decompressRecords("snappy", stream, MiB);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
  assert.deepEqual(result.bytes, new TextEncoder().encode("hello!"));
});

test("a xerial stream holding only its header decompresses to nothing", () => {
  const result = decompressRecords("snappy", hex("82534e4150505900 00000001 00000001"), MiB);
  assert.ok(result.ok);
  assert.equal(result.bytes.length, 0);
});

test("a truncated xerial header in the middle of a stream is refused", () => {
  const stream = hex("82534e4150505900 00000001 00000001 00000003 01 00 21 82534e4150505900");
  const result = decompressRecords("snappy", stream, MiB);
  assert.ok(!result.ok);
  assert.equal(result.error.kind, "decompressionFailed");
});
