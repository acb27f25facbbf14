import { test } from "node:test";
import assert from "node:assert/strict";
import { crc32c, encodeBatch } from "../protocol/index.js";
import { runDumpLog } from "./dump-log.test-support.js";

const run = runDumpLog;

const text = (value: string): number[] => Array.from(new TextEncoder().encode(value));

/** Big-endian bytes of an integer, `size` bytes long. */
function be(value: number, size: number): number[] {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, BigInt(value));
  return Array.from(bytes.subarray(8 - size));
}

/**
 * A record batch v2 laid out field by field from the format, independent of our encoder: only
 * the CRC-32C is computed (over attributes to the end).
 */
function handBuiltBatch(fields: {
  baseOffset: number;
  epoch: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  count: number;
  records: number[];
}): Uint8Array {
  const afterCrc = [
    ...be(fields.attributes, 2),
    ...be(fields.lastOffsetDelta, 4),
    ...be(fields.baseTimestamp, 8),
    ...be(fields.maxTimestamp, 8),
    ...be(fields.producerId, 8),
    ...be(fields.producerEpoch, 2),
    ...be(fields.baseSequence, 4),
    ...be(fields.count, 4),
    ...fields.records,
  ];
  const crc = crc32c(Uint8Array.from(afterCrc));
  const batchLength = 4 + 1 + 4 + afterCrc.length;
  const head = [...be(fields.baseOffset, 8), ...be(batchLength, 4), ...be(fields.epoch, 4), 2];
  return Uint8Array.from([...head, ...be(crc, 4), ...afterCrc]);
}

// Record 0: attributes 0, timestampDelta 0, offsetDelta 0, key "k1", value "v1", no headers;
// its body is 10 bytes, so its length varint is zigzag(10) = 20 = 0x14.
const record0 = [0x14, 0, 0, 0, 0x04, ...text("k1"), 0x04, ...text("v1"), 0];
// Record 1: timestampDelta 5 (0x0a), offsetDelta 1 (0x02), key "k2", null value (0x01), one
// header "h" = "x"; a 12-byte body (0x18).
const record1 = [0x18, 0, 0x0a, 0x02, 0x04, ...text("k2"), 0x01, 0x02, 0x02, ...text("h"), 0x02];
record1.push(...text("x"));

const dataBatch = handBuiltBatch({
  baseOffset: 0,
  epoch: 3,
  attributes: 0,
  lastOffsetDelta: 1,
  baseTimestamp: 1_700_000_000_000,
  maxTimestamp: 1_700_000_000_005,
  producerId: 42,
  producerEpoch: 1,
  baseSequence: 7,
  count: 2,
  records: [...record0, ...record1],
});
// A COMMIT marker: control key (version 0, type 1) and value (version 0, coordinatorEpoch 5),
// a 16-byte body (0x20).
const markerRecord = [0x20, 0, 0, 0, 0x08, 0, 0, 0, 1, 0x0c, 0, 0, 0, 0, 0, 5, 0];
const markerBatch = handBuiltBatch({
  baseOffset: 2,
  epoch: 3,
  attributes: 0x30,
  lastOffsetDelta: 0,
  baseTimestamp: 1_700_000_000_009,
  maxTimestamp: 1_700_000_000_009,
  producerId: 42,
  producerEpoch: 1,
  baseSequence: -1,
  count: 1,
  records: markerRecord,
});
const segment = Uint8Array.from([...dataBatch, ...markerBatch]);
const LOG = "/data/orders-0/00000000000000000000.log";

test("a hand-built segment prints Kafka's batch and record lines", async () => {
  const { exitCode, lines } = await run(new Map([[LOG, segment]]), ["--print-records", LOG]);
  assert.equal(exitCode, 0);
  assert.deepEqual(lines, [
    `Dumping ${LOG}`,
    "Log starting offset: 0",
    "baseOffset: 0 lastOffset: 1 count: 2 baseSequence: 7 lastSequence: 8 producerId: 42 " +
      "producerEpoch: 1 partitionLeaderEpoch: 3 isTransactional: false isControl: false " +
      `deleteHorizonMs: null position: 0 CreateTime: 1700000000005 size: ${dataBatch.length} ` +
      `magic: 2 compresscodec: none crc: ${be32(dataBatch, 17)} isvalid: true`,
    "| offset: 0 CreateTime: 1700000000000 keySize: 2 key: k1 valueSize: 2 sequence: 7 headers: 0",
    "| offset: 1 CreateTime: 1700000000005 keySize: 2 key: k2 valueSize: -1 sequence: 8 headers: 1",
    "baseOffset: 2 lastOffset: 2 count: 1 baseSequence: -1 lastSequence: -1 producerId: 42 " +
      "producerEpoch: 1 partitionLeaderEpoch: 3 isTransactional: true isControl: true " +
      `deleteHorizonMs: null position: ${dataBatch.length} CreateTime: 1700000000009 ` +
      `size: ${markerBatch.length} magic: 2 compresscodec: none ` +
      `crc: ${be32(markerBatch, 17)} isvalid: true`,
    "| offset: 2 CreateTime: 1700000000009 keySize: 4 key: 0x00000001 valueSize: 6 " +
      "sequence: -1 headers: 0 endTxnMarker: COMMIT coordinatorEpoch: 5",
  ]);
});

function be32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(at);
}

test("without --print-records only batches print; --json gives one object each", async () => {
  const { exitCode, lines } = await run(new Map([[LOG, segment]]), ["--json", "--files", LOG]);
  assert.equal(exitCode, 0);
  assert.equal(lines.length, 3);
  assert.deepEqual(JSON.parse(lines[0] as string), { type: "file", file: LOG });
  const batch = JSON.parse(lines[2] as string) as Record<string, unknown>;
  assert.equal(batch["type"], "batch");
  assert.equal(batch["baseOffset"], 2);
  assert.equal(batch["isControl"], true);
  assert.equal(batch["position"], dataBatch.length);
});

test("a batch with a flipped byte stops the dump at its position with the CRC reason", async () => {
  const corrupt = segment.slice();
  corrupt[dataBatch.length + 70] = (corrupt[dataBatch.length + 70] as number) ^ 0xff;
  const { exitCode, lines } = await run(new Map([[LOG, corrupt]]), [LOG]);
  assert.equal(exitCode, 1);
  assert.match(lines[2] as string, /^baseOffset: 0 .* isvalid: true$/);
  assert.match(lines[3] as string, /^baseOffset: 2 .* isvalid: false$/);
  assert.match(
    lines[4] as string,
    new RegExp(`^Error in ${LOG} at position ${dataBatch.length}: corrupt batch: crc mismatch`),
  );
  assert.equal(lines.length, 5);
});

test("a torn last batch is reported with the bytes it needs and the bytes left", async () => {
  const torn = segment.subarray(0, segment.length - 5);
  const { exitCode, lines } = await run(new Map([[LOG, torn]]), [LOG]);
  assert.equal(exitCode, 1);
  assert.equal(
    lines[lines.length - 1],
    `Error in ${LOG} at position ${dataBatch.length}: torn write: the batch needs ` +
      `${markerBatch.length} bytes but only ${markerBatch.length - 5} remain`,
  );
});

test("a length field below the smallest batch is corruption, not a torn write", async () => {
  const corrupt = segment.slice();
  corrupt.set([0, 0, 0, 3], dataBatch.length + 8);
  const { exitCode, lines } = await run(new Map([[LOG, corrupt]]), [LOG]);
  assert.equal(exitCode, 1);
  assert.match(lines[lines.length - 1] as string, /corrupt batch: batchLength 3 is below/);
});

const INDEX = "/data/orders-0/00000000000000000000.index";
const TIME_INDEX = "/data/orders-0/00000000000000000000.timeindex";

test("index entries are printed and checked against the sibling log", async () => {
  // Offset 2 starts at the marker batch; then zero padding, as Kafka preallocates.
  const index = Uint8Array.from([
    ...be(2, 4),
    ...be(dataBatch.length, 4),
    ...new Array(16).fill(0),
  ]);
  const timeIndex = Uint8Array.from([...be(1_700_000_000_005, 8), ...be(1, 4)]);
  const files = new Map([
    [LOG, segment],
    [INDEX, index],
    [TIME_INDEX, timeIndex],
  ]);
  const { exitCode, lines } = await run(files, [INDEX, TIME_INDEX]);
  assert.equal(exitCode, 0);
  assert.deepEqual(lines, [
    `Dumping ${INDEX}`,
    `offset: 2 position: ${dataBatch.length}`,
    `Dumping ${TIME_INDEX}`,
    "timestamp: 1700000000005 offset: 1",
  ]);
});

test("an index entry inside a batch or naming the wrong batch is an index mismatch", async () => {
  const index = Uint8Array.from([
    ...be(1, 4),
    ...be(10, 4),
    ...be(5, 4),
    ...be(dataBatch.length, 4),
  ]);
  const timeIndex = Uint8Array.from([...be(1_700_000_000_001, 8), ...be(1, 4)]);
  const files = new Map([
    [LOG, segment],
    [INDEX, index],
    [TIME_INDEX, timeIndex],
  ]);
  const { exitCode, lines } = await run(files, [INDEX, TIME_INDEX]);
  assert.equal(exitCode, 1);
  const errors = lines.filter((line) => line.startsWith("Error"));
  assert.equal(errors.length, 3);
  assert.match(
    errors[0] as string,
    /Index mismatch: entry offset 1 position 10 is not the position/,
  );
  assert.match(
    errors[1] as string,
    /entry offset 5 position \d+ points at the batch of offsets 2..2/,
  );
  assert.match(errors[2] as string, /Index timestamp mismatch: .* maxTimestamp is 1700000000005/);
});

test("a segment written by our encoder, compressed, dumps with its records", async () => {
  const records = ["a", "b", "c"].map((key, index) => ({
    timestamp: 1000 + index,
    key: new TextEncoder().encode(key),
    value: new Uint8Array(index),
  }));
  const options = { partitionLeaderEpoch: 0, timestampType: "createTime" as const };
  const batch = encodeBatch({
    ...options,
    baseOffset: 40,
    compression: "gzip",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records,
  });
  const path = "/d/t-0/00000000000000000040.log";
  const { exitCode, lines } = await run(new Map([[path, batch]]), ["--deep-iteration", path]);
  assert.equal(exitCode, 0);
  assert.equal(lines[1], "Log starting offset: 40");
  assert.match(
    lines[2] as string,
    /^baseOffset: 40 lastOffset: 42 count: 3 .* compresscodec: gzip/,
  );
  assert.deepEqual(
    lines.slice(3).map((line) => /offset: (\d+) .* key: (\w) valueSize: (\d)/.exec(line)?.slice(1)),
    [
      ["40", "a", "0"],
      ["41", "b", "1"],
      ["42", "c", "2"],
    ],
  );
});

test("checkpoint files are printed parsed, and malformed ones fail", async () => {
  const encode = (value: string) => new TextEncoder().encode(value);
  const files = new Map([
    ["/d/recovery-point-offset-checkpoint", encode("0\n2\norders 0 5\nclicks 3 70\n")],
    ["/d/orders-0/leader-epoch-checkpoint", encode("0\n1\n4 100\n")],
    ["/d/cleaner-offset-checkpoint", encode("0\n3\norders 0 5\n")],
  ]);
  const { exitCode, lines } = await run(files, [...files.keys()]);
  assert.equal(exitCode, 1);
  assert.deepEqual(lines, [
    "Dumping /d/recovery-point-offset-checkpoint",
    "topic: orders partition: 0 offset: 5",
    "topic: clicks partition: 3 offset: 70",
    "Dumping /d/orders-0/leader-epoch-checkpoint",
    "epoch: 4 startOffset: 100",
    "Dumping /d/cleaner-offset-checkpoint",
    "Error in /d/cleaner-offset-checkpoint: malformed: expected 3 entries, found 1",
  ]);
});

test("a missing file, an unknown file and a bad option are reported", async () => {
  const missing = await run(new Map(), ["/nowhere/00000000000000000000.log"]);
  assert.equal(missing.exitCode, 1);
  assert.match(missing.lines[missing.lines.length - 1] as string, /cannot be read: ENOENT/);
  const unknown = await run(new Map([["/d/notes.txt", new Uint8Array(1)]]), ["/d/notes.txt"]);
  assert.equal(unknown.exitCode, 1);
  const usage = await run(new Map(), ["--frobnicate"]);
  assert.equal(usage.exitCode, 2);
});
