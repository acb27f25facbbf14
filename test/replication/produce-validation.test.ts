import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { readBatchHeader } from "../../src/protocol/index.js";
import { validateProduceRecords, type ProduceRules } from "../../src/replication/index.js";
import { NEVER } from "../../src/storage/index.js";
import { clientBatch } from "./fixtures.js";

const NOW = 1_700_000_000_000;
const rules: ProduceRules = {
  maxMessageBytes: 1_048_588,
  messageTimestampType: "CreateTime",
  messageTimestampBeforeMaxMs: NEVER,
  messageTimestampAfterMaxMs: 3_600_000,
  isCompacted: false,
};

function codeOf(records: Uint8Array, changes: Partial<ProduceRules> = {}): number {
  const result = validateProduceRecords(records, { ...rules, ...changes }, NOW);
  return result.ok ? ErrorCode.NONE : result.errorCode;
}

function joined(parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

test("a valid batch is accepted", () => {
  assert.equal(codeOf(clientBatch([{ timestamp: NOW }])), ErrorCode.NONE);
});

test("two batches, or none, are INVALID_RECORD", () => {
  const one = clientBatch([{ timestamp: NOW }]);
  assert.equal(codeOf(joined([one, clientBatch([{ timestamp: NOW }])])), ErrorCode.INVALID_RECORD);
  assert.equal(codeOf(new Uint8Array(0)), ErrorCode.INVALID_RECORD);
});

test("a flipped byte is CORRUPT_MESSAGE and a cut batch too", () => {
  const bytes = clientBatch([{ timestamp: NOW }]);
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0xff;
  assert.equal(codeOf(bytes), ErrorCode.CORRUPT_MESSAGE);
  assert.equal(
    codeOf(clientBatch([{ timestamp: NOW }]).subarray(0, 40)),
    ErrorCode.CORRUPT_MESSAGE,
  );
});

test("a legacy magic is refused with INVALID_RECORD", () => {
  const bytes = clientBatch([{ timestamp: NOW }]);
  bytes[16] = 1;
  assert.equal(codeOf(bytes), ErrorCode.INVALID_RECORD);
});

test("a batch above max.message.bytes is MESSAGE_TOO_LARGE", () => {
  const bytes = clientBatch([{ timestamp: NOW }]);
  assert.equal(codeOf(bytes, { maxMessageBytes: bytes.length - 1 }), ErrorCode.MESSAGE_TOO_LARGE);
  assert.equal(codeOf(bytes, { maxMessageBytes: bytes.length }), ErrorCode.NONE);
});

test("a control batch from a client is INVALID_RECORD", () => {
  assert.equal(
    codeOf(clientBatch([{ timestamp: NOW }], { isControl: true })),
    ErrorCode.INVALID_RECORD,
  );
});

test("timestamps beyond before.max.ms or after.max.ms are INVALID_TIMESTAMP per record", () => {
  const bytes = clientBatch([
    { timestamp: NOW },
    { timestamp: NOW + 3_600_001 },
    { timestamp: NOW - 5000 },
  ]);
  const result = validateProduceRecords(
    bytes,
    { ...rules, messageTimestampBeforeMaxMs: 1000 },
    NOW,
  );
  assert.ok(!result.ok);
  assert.equal(result.errorCode, ErrorCode.INVALID_TIMESTAMP);
  assert.deepEqual(
    result.recordErrors.map((error) => error.batchIndex),
    [1, 2],
  );
  assert.match(result.recordErrors[0]?.message ?? "", /out of range/);
});

test("a compacted topic refuses records without a key", () => {
  const bytes = clientBatch([
    { key: "a", timestamp: NOW },
    { key: null, timestamp: NOW },
  ]);
  const result = validateProduceRecords(bytes, { ...rules, isCompacted: true }, NOW);
  assert.ok(!result.ok);
  assert.equal(result.errorCode, ErrorCode.INVALID_RECORD);
  assert.deepEqual(
    result.recordErrors.map((error) => [error.batchIndex, error.message]),
    [[1, "Compacted topic cannot accept message without key"]],
  );
});

test("a LogAppendTime topic's batch is left for the log to stamp", () => {
  const bytes = clientBatch([{ timestamp: NOW - 10 }]);
  const before = Uint8Array.from(bytes);
  const result = validateProduceRecords(
    bytes,
    { ...rules, messageTimestampType: "LogAppendTime" },
    NOW,
  );
  assert.ok(result.ok);
  assert.deepEqual(bytes, before);
  const read = readBatchHeader(bytes);
  assert.ok(read.ok);
  assert.equal(read.header.timestampType, "createTime");
  assert.equal(read.header.maxTimestamp, NOW - 10);
});

test("a wrong maxTimestamp is rewritten to the records' maximum", () => {
  const bytes = clientBatch([{ timestamp: NOW - 10 }, { timestamp: NOW - 5 }]);
  const read = readBatchHeader(bytes);
  assert.ok(read.ok);
  read.header.stampMaxTimestamp("createTime", NOW - 100);
  assert.equal(codeOf(bytes), ErrorCode.NONE);
  assert.equal(read.header.maxTimestamp, NOW - 5);
  assert.ok(read.header.isCrcValid());
});

test("a LogAppendTime claim on a CreateTime topic without a timestamp is refused", () => {
  const bytes = clientBatch([{ timestamp: -1 }], { timestampType: "logAppendTime" });
  const read = readBatchHeader(bytes);
  assert.ok(read.ok);
  read.header.stampMaxTimestamp("logAppendTime", -1);
  assert.equal(codeOf(bytes), ErrorCode.INVALID_TIMESTAMP);
});

test("a batch whose base offset is not 0 is INVALID_RECORD", () => {
  assert.equal(
    codeOf(clientBatch([{ timestamp: NOW }], { baseOffset: 5 })),
    ErrorCode.INVALID_RECORD,
  );
});
