import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ErrorCode } from "../../common/index.js";
import { compressionTypes } from "./attributes.js";
import { errorCodeOfBatchError, type BatchError } from "./batch-error.js";
import { BatchLayout } from "./batch-header.js";
import { encodeTransactionMarkerBatch } from "./control.js";
import { crc32cTable } from "./crc32c-table.js";
import { encodeBatch, type EncodeBatchOptions } from "./encode.js";
import { RECORD_BYTES_MAX } from "./record-stream.js";
import { validateBatch, type AppendOrigin } from "./validate.js";

const MiB = 1024 * 1024;
const text = (value: string) => new TextEncoder().encode(value);
const headerHx = { key: "h", value: text("x") };
const asClient = { origin: "client" } as const;
const arbOrigin = fc.constantFrom<AppendOrigin>("client", "coordinator", "replication");

const baseOptions: EncodeBatchOptions = {
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
};
// Record 1 starts at 61 (14 bytes), record 2 at 75: length, attributes, timestampDelta,
// offsetDelta, ...
const SECOND_RECORD_OFFSET_DELTA = 78;

function smallBatch(): Uint8Array {
  return encodeBatch(baseOptions);
}

/** Rewrites the CRC after a deliberate change, so that the change itself is what is checked. */
function withFreshCrc(bytes: Uint8Array): Uint8Array {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(17, crc32cTable(bytes.subarray(21)));
  return bytes;
}

function refusal(bytes: Uint8Array, origin: AppendOrigin = "client"): BatchError {
  const result = validateBatch(bytes, { origin });
  assert.ok(!result.ok, "expected a refusal");
  return result.error;
}

test("every single-bit flip of a small batch is caught, except in baseOffset and epoch", () => {
  const original = smallBatch();
  for (let bit = 0; bit < original.length * 8; bit++) {
    const bytes = original.slice();
    bytes[bit >> 3]! ^= 0x80 >> (bit & 7);
    const result = validateBatch(bytes, asClient);
    const byte = bit >> 3;
    const isOffsetOrEpoch =
      byte < BatchLayout.BATCH_LENGTH ||
      (byte >= BatchLayout.PARTITION_LEADER_EPOCH && byte < BatchLayout.MAGIC);
    if (!isOffsetOrEpoch) {
      assert.ok(!result.ok, `bit ${bit} flipped and passed`);
      if (byte >= BatchLayout.CRC) assert.equal(result.error.kind, "crcMismatch", `bit ${bit}`);
      continue;
    }
    // Kafka's CRC starts at attributes: these flips give a valid batch elsewhere in the log,
    // unless they push baseOffset beyond the safe integers (bits 53-63).
    if (result.ok) {
      const { baseOffset, partitionLeaderEpoch } = result.header;
      const changed = byte < 8 ? baseOffset !== 5 : partitionLeaderEpoch !== 7;
      assert.ok(changed, `bit ${bit}`);
    } else {
      assert.equal(result.error.kind, "int64OutOfRange", `bit ${bit}`);
      assert.ok(byte < 2, `bit ${bit}`);
    }
  }
});

test("a bit flip anywhere from the CRC to the end of a compressed batch is caught", () => {
  const records = Array.from({ length: 30 }, (_, index) => ({
    timestamp: 1_700_000_000_000 + index,
    key: text(`key-${index}`),
    value: text(`value ${index} `.repeat(20)),
  }));
  const batches = compressionTypes.map((compression) =>
    encodeBatch({ ...baseOptions, compression, records }),
  );
  fc.assert(
    fc.property(fc.nat(compressionTypes.length - 1), fc.nat(), (which, position) => {
      const bytes = batches[which]!.slice();
      const crcRange = bytes.length - BatchLayout.CRC;
      const bit = BatchLayout.CRC * 8 + (position % (crcRange * 8));
      bytes[bit >> 3]! ^= 1 << (bit & 7);
      const result = validateBatch(bytes, asClient);
      assert.ok(!result.ok && result.error.kind === "crcMismatch");
    }),
    { seed: 99, numRuns: 500 },
  );
});

test("legacy magic 0 and 1 message sets are recognised and refused as INVALID_RECORD", () => {
  for (const magic of [0, 1]) {
    // offset, size, crc, magic, attributes, [timestamp], key -1, value "abc".
    const timestamp = magic === 1 ? new Array(8).fill(0) : [];
    const body = [magic, 0, ...timestamp, 255, 255, 255, 255, 0, 0, 0, 3, 97, 98, 99];
    const bytes = new Uint8Array(12 + 4 + body.length);
    new DataView(bytes.buffer).setInt32(8, 4 + body.length);
    bytes.set(body, 16);
    const error = refusal(bytes);
    assert.deepEqual(error, { kind: "legacyMagic", magic });
    assert.equal(errorCodeOfBatchError(error), ErrorCode.INVALID_RECORD);
  }
});

test("an unknown magic byte is CORRUPT_MESSAGE", () => {
  const bytes = smallBatch();
  bytes[BatchLayout.MAGIC] = 3;
  const error = refusal(bytes);
  assert.equal(error.kind, "unknownMagic");
  assert.equal(errorCodeOfBatchError(error), ErrorCode.CORRUPT_MESSAGE);
});

test("every truncation of a batch is refused as truncated, CORRUPT_MESSAGE", () => {
  const bytes = smallBatch();
  for (let length = 0; length < bytes.length; length++) {
    const error = refusal(bytes.subarray(0, length));
    assert.equal(error.kind, "truncated", `length ${length}`);
    assert.equal(errorCodeOfBatchError(error), ErrorCode.CORRUPT_MESSAGE);
  }
});

test("a batchLength beyond the bytes, or below the header, is refused", () => {
  const view = (bytes: Uint8Array) => new DataView(bytes.buffer);
  const oversize = smallBatch();
  view(oversize).setInt32(8, 0x7fffffff);
  assert.equal(refusal(oversize).kind, "truncated");
  const undersize = smallBatch();
  view(undersize).setInt32(8, 48);
  assert.deepEqual(refusal(undersize), { kind: "batchLengthInvalid", batchLength: 48 });
  const negative = smallBatch();
  view(negative).setInt32(8, -1);
  assert.equal(refusal(negative).kind, "batchLengthInvalid");
});

test("bytes after the batch are trailingBytes", () => {
  const bytes = new Uint8Array([...smallBatch(), 0]);
  assert.deepEqual(refusal(bytes), { kind: "trailingBytes", count: 1 });
});

test("a records count that disagrees with the records present is refused", () => {
  const tooMany = smallBatch();
  new DataView(tooMany.buffer).setInt32(BatchLayout.RECORDS_COUNT, 3);
  const error = refusal(withFreshCrc(tooMany));
  assert.equal(error.kind, "recordCountMismatch");
  assert.equal(errorCodeOfBatchError(error), ErrorCode.INVALID_RECORD);
  const tooFew = smallBatch();
  new DataView(tooFew.buffer).setInt32(BatchLayout.RECORDS_COUNT, 1);
  const leftover = refusal(withFreshCrc(tooFew), "replication");
  assert.equal(leftover.kind, "invalidRecord");
  const huge = smallBatch();
  new DataView(huge.buffer).setInt32(BatchLayout.RECORDS_COUNT, 0x7fffffff);
  assert.equal(refusal(withFreshCrc(huge)).kind, "recordCountMismatch");
});

test("a client's lastOffsetDelta must be the records count minus one", () => {
  const bytes = smallBatch();
  new DataView(bytes.buffer).setInt32(BatchLayout.LAST_OFFSET_DELTA, 5);
  withFreshCrc(bytes);
  assert.equal(refusal(bytes).kind, "recordCountMismatch");
  // A replica copies compacted batches whose range is wider than their records.
  assert.ok(validateBatch(bytes, { origin: "replication" }).ok);
});

test("offset deltas must run 0, 1, ... for a client and increase for a replica", () => {
  const gap = smallBatch();
  gap[SECOND_RECORD_OFFSET_DELTA] = 0x04;
  const gapError = refusal(withFreshCrc(gap));
  assert.equal(gapError.kind, "offsetDeltaInvalid");
  assert.equal(refusal(gap, "replication").kind, "offsetDeltaInvalid");
  const repeat = smallBatch();
  repeat[SECOND_RECORD_OFFSET_DELTA] = 0x00;
  withFreshCrc(repeat);
  assert.equal(refusal(repeat).kind, "offsetDeltaInvalid");
  assert.equal(refusal(repeat, "replication").kind, "offsetDeltaInvalid");
});

test("malformed records are invalidRecord, INVALID_RECORD, never an exception", () => {
  const cases: [position: number, value: number][] = [
    [61, 0x18], // record length shorter than its fields
    [61, 0x7f], // record length longer than the bytes
    [65, 0x03], // key length -2
    [63, 0x80], // a timestampDelta varint that runs into the next fields
    [70, 0x01], // headers count -1
    [71, 0x01], // header key length -1
  ];
  for (const [position, value] of cases) {
    const bytes = smallBatch();
    bytes[position] = value;
    const error = refusal(withFreshCrc(bytes));
    const kinds = ["invalidRecord", "recordCountMismatch"];
    assert.ok(kinds.includes(error.kind), `${position}`);
    assert.equal(errorCodeOfBatchError(error), ErrorCode.INVALID_RECORD);
  }
});

test("arbitrary bytes with a fresh CRC never throw, for every origin", () => {
  const template = smallBatch();
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 120 }), arbOrigin, (tail, origin) => {
      const bytes = new Uint8Array(BatchLayout.RECORDS + tail.length);
      bytes.set(template.subarray(0, BatchLayout.RECORDS));
      bytes.set(tail, BatchLayout.RECORDS);
      new DataView(bytes.buffer).setInt32(8, bytes.length - 12);
      const result = validateBatch(withFreshCrc(bytes), { origin });
      if (!result.ok) assert.ok(errorCodeOfBatchError(result.error) > 0);
    }),
    { seed: 7, numRuns: 2000 },
  );
});

test("codec ids 5 to 7 are unknownCompression, CORRUPT_MESSAGE", () => {
  const bytes = smallBatch();
  new DataView(bytes.buffer).setInt16(BatchLayout.ATTRIBUTES, 5);
  const error = refusal(withFreshCrc(bytes));
  assert.deepEqual(error, { kind: "unknownCompression", compressionId: 5 });
  assert.equal(errorCodeOfBatchError(error), ErrorCode.CORRUPT_MESSAGE);
});

test("a compressed batch is accepted whatever its records inflate to, for every codec", () => {
  for (const compression of compressionTypes.filter((type) => type !== "none")) {
    // 12 MiB of records: past the old bound of twice message.max.bytes or 8 MiB.
    const records = Array.from({ length: 12 }, (_, index) => ({
      timestamp: index,
      key: null,
      value: new Uint8Array(MiB).fill(index),
    }));
    const bytes = encodeBatch({ ...baseOptions, compression, records });
    const result = validateBatch(bytes, asClient);
    assert.ok(result.ok, compression);
    assert.equal(result.recordCount, 12);
    assert.equal(result.recordsBytes > 12 * MiB, true);
  }
});

test("one record past RECORD_BYTES_MAX is refused as MESSAGE_TOO_LARGE", () => {
  const records = [{ timestamp: 0, key: null, value: new Uint8Array(RECORD_BYTES_MAX + 1) }];
  const bytes = encodeBatch({ ...baseOptions, compression: "zstd", records });
  const error = refusal(bytes);
  assert.equal(error.kind, "decompressedTooLarge");
  assert.equal(errorCodeOfBatchError(error), ErrorCode.MESSAGE_TOO_LARGE);
});

test("a client may not write control batches; a coordinator may", () => {
  const marker = encodeTransactionMarkerBatch({
    baseOffset: 0,
    partitionLeaderEpoch: 1,
    producerId: 9,
    producerEpoch: 0,
    coordinatorEpoch: 4,
    type: "commit",
    timestamp: 123,
  });
  assert.deepEqual(refusal(marker), { kind: "controlBatchFromClient" });
  assert.ok(validateBatch(marker, { origin: "coordinator" }).ok);
});

test("an idempotent client batch needs a sequence", () => {
  const bytes = encodeBatch({ ...baseOptions, producerId: 5, producerEpoch: 0, baseSequence: -1 });
  assert.deepEqual(refusal(bytes), { kind: "invalidSequence", producerId: 5, baseSequence: -1 });
  const sequenced = encodeBatch({ ...baseOptions, producerId: 5, baseSequence: 0 });
  assert.ok(validateBatch(sequenced, asClient).ok);
});

test("a record timestamp beyond the safe integers is timestampOutOfRange", () => {
  const bytes = smallBatch();
  const view = new DataView(bytes.buffer);
  view.setUint32(BatchLayout.BASE_TIMESTAMP, 0x1fffff);
  view.setUint32(BatchLayout.BASE_TIMESTAMP + 4, 0xffffffff);
  assert.deepEqual(refusal(withFreshCrc(bytes)), { kind: "timestampOutOfRange", recordIndex: 1 });
});

test("int64 header fields beyond the safe integers are refused", () => {
  const bytes = smallBatch();
  new DataView(bytes.buffer).setUint32(BatchLayout.PRODUCER_ID, 0x7fffffff);
  assert.deepEqual(refusal(withFreshCrc(bytes)), { kind: "int64OutOfRange", field: "producerId" });
});
