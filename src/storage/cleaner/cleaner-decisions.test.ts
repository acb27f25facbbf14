import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeRecords, encodeBatch, validateBatch, type NewRecord } from "../../protocol/index.js";
import { encodeTransactionMarkerBatch } from "../../protocol/index.js";
import { filterBatch, holdsLastRecord, type FilterContext } from "./batch-filter.js";
import { CleanedTransactions } from "./cleaned-transactions.js";
import { chooseFilthiestLog, cleanableRange, type LogView } from "./cleanable-range.js";
import { OffsetMap } from "./offset-map.js";
import { encodeRetainedBatch } from "./retained-batch.js";
import { groupSegmentsBySize } from "./segment-groups.js";

const segment = (
  baseOffset: number,
  nextOffset: number,
  sizeInBytes = 100,
  largestTimestamp = 0,
) => ({
  baseOffset,
  nextOffset,
  sizeInBytes,
  largestTimestamp,
});

const view = (overrides: Partial<LogView> = {}): LogView => ({
  segments: [segment(0, 10), segment(10, 20), segment(20, 30), segment(30, 35)],
  logStartOffset: 0,
  logEndOffset: 35,
  uncleanableFromOffset: 35,
  checkpointOffset: undefined,
  minCompactionLagMs: 0,
  ...overrides,
});

test("the dirty range runs from the checkpoint to the active segment", () => {
  const range = cleanableRange(view({ checkpointOffset: 10 }), 0);
  assert.equal(range.firstDirtyOffset, 10);
  assert.equal(range.firstUncleanableOffset, 30);
  assert.equal(range.cleanBytes, 100);
  assert.equal(range.cleanableBytes, 200);
  assert.equal(range.cleanableRatio, 200 / 300);
});

test("a checkpoint below the log start or past the log end restarts at the log start", () => {
  assert.equal(
    cleanableRange(view({ logStartOffset: 10, checkpointOffset: 5 }), 0).firstDirtyOffset,
    10,
  );
  const past = cleanableRange(view({ checkpointOffset: 99 }), 0);
  assert.equal(past.firstDirtyOffset, 0);
  assert.equal(past.isCheckpointReset, true);
});

test("the high watermark and min.compaction.lag.ms bound the range at segment starts", () => {
  assert.equal(cleanableRange(view({ uncleanableFromOffset: 15 }), 0).firstUncleanableOffset, 10);
  const segments = [segment(0, 10, 100, 500), segment(10, 20, 100, 950), segment(20, 30, 100, 990)];
  const lagged = view({ segments: [...segments, segment(30, 35)], minCompactionLagMs: 100 });
  // At 1000 the second segment's newest record (950) is younger than the 100 ms lag.
  assert.equal(cleanableRange(lagged, 1000).firstUncleanableOffset, 10);
});

test("the filthiest log whose ratio passes its threshold strictly is chosen", () => {
  const at = (ratio: number) => ({ ...cleanableRange(view(), 0), cleanableRatio: ratio });
  assert.equal(chooseFilthiestLog([{ range: at(0.5), minCleanableDirtyRatio: 0.5 }]), undefined);
  const candidates = [0.6, 0.9, 0.7].map((ratio) => ({
    range: at(ratio),
    minCleanableDirtyRatio: 0.5,
  }));
  assert.equal(chooseFilthiestLog(candidates), 1);
});

test("segments are grouped while the group fits segment.bytes", () => {
  const groups = groupSegmentsBySize(
    [segment(0, 1, 60), segment(1, 2, 40), segment(2, 3, 10)],
    100,
  );
  assert.deepEqual(
    groups.map((group) => group.map((item) => item.baseOffset)),
    [[0, 1], [2]],
  );
});

test("the offset map keeps the latest offset per key and reports when it is full", () => {
  const map = new OffsetMap({ memoryBytes: 48, loadFactor: 1 });
  const key = (text: string) => new TextEncoder().encode(text);
  map.put(key("a"), 1);
  map.put(key("b"), 2);
  map.put(key("a"), 3);
  assert.equal(map.get(key("a")), 3);
  assert.equal(map.get(key("z")), -1);
  assert.equal(map.hasRoomFor(key("c")), false);
  assert.equal(map.hasRoomFor(key("b")), true);
  assert.equal(map.latestOffset, 3);
});

const bytes = (text: string) => new TextEncoder().encode(text);

function batchOf(
  records: NewRecord[],
  extra: { producerId?: number; compression?: "none" | "zstd" } = {},
) {
  return encodeBatch({
    baseOffset: 100,
    partitionLeaderEpoch: 7,
    compression: extra.compression ?? "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: extra.producerId ?? 9,
    producerEpoch: 2,
    baseSequence: 40,
    records,
  });
}

function decoded(batch: Uint8Array) {
  const result = decodeRecords(batch, { maxDecompressedBytes: 1 << 20 });
  assert.ok(result.ok);
  return result;
}

const context = (
  latest: Record<string, number>,
  overrides: Partial<FilterContext> = {},
): FilterContext => ({
  latestOffsetOf: (key) => latest[new TextDecoder().decode(key)] ?? -1,
  mapLatestOffset: 1000,
  nowMs: 5000,
  deleteRetentionMs: 100,
  isLastBatchOfProducer: false,
  isLastBatchOfPass: false,
  isDiscardable: false,
  ...overrides,
});

test("a rewritten batch keeps offsets, producer fields and epoch, with a delete horizon", () => {
  const original = batchOf(
    [
      { timestamp: 10, key: bytes("a"), value: bytes("1") },
      { timestamp: 11, key: bytes("b"), value: null },
      { timestamp: 12, key: bytes("a"), value: bytes("2") },
      { timestamp: 13, key: null, value: bytes("x") },
    ],
    { compression: "zstd" },
  );
  const decision = filterBatch(decoded(original), context({ a: 102, b: 101 }));
  assert.equal(decision.kind, "rewrite");
  assert.ok(decision.kind === "rewrite");
  assert.equal(decision.deleteHorizonMs, 5100);
  const rewritten = encodeRetainedBatch(
    decoded(original).header,
    decision.records,
    decision.deleteHorizonMs,
  );
  const checked = validateBatch(rewritten, { origin: "replication" });
  assert.ok(checked.ok, JSON.stringify(checked));
  const again = decoded(rewritten);
  assert.deepEqual(
    again.records.map((record) => [record.offset, record.timestamp, record.value]),
    [
      [101, 11, null],
      [102, 12, bytes("2")],
    ],
  );
  const { header } = again;
  assert.deepEqual(
    [
      header.baseOffset,
      header.lastOffset,
      header.producerId,
      header.producerEpoch,
      header.baseSequence,
    ],
    [100, 103, 9, 2, 40],
  );
  assert.equal(header.partitionLeaderEpoch, 7);
  assert.equal(header.compression, "zstd");
  assert.equal(header.deleteHorizonMs, 5100);
  assert.equal(header.maxTimestamp, 12);
});

test("a tombstone stays until its batch's delete horizon passes", () => {
  const original = batchOf([{ timestamp: 10, key: bytes("b"), value: null }]);
  const first = filterBatch(decoded(original), context({ b: 100 }));
  assert.ok(first.kind === "rewrite");
  const stamped = encodeRetainedBatch(
    decoded(original).header,
    first.records,
    first.deleteHorizonMs,
  );
  assert.equal(filterBatch(decoded(stamped), context({ b: 100 }, { nowMs: 5099 })).kind, "keep");
  assert.equal(filterBatch(decoded(stamped), context({ b: 100 }, { nowMs: 5100 })).kind, "drop");
});

test("an idempotent producer's last batch is kept empty; others are dropped", () => {
  const original = batchOf([{ timestamp: 10, key: bytes("a"), value: bytes("1") }]);
  const last = filterBatch(decoded(original), context({ a: 500 }, { isLastBatchOfProducer: true }));
  assert.ok(last.kind === "rewrite" && last.records.length === 0);
  const empty = decoded(encodeRetainedBatch(decoded(original).header, [], undefined));
  assert.deepEqual(
    [empty.header.recordCount, empty.header.lastOffset, empty.header.baseSequence],
    [0, 100, 40],
  );
  assert.equal(filterBatch(decoded(original), context({ a: 500 })).kind, "drop");
  const anonymous = batchOf([{ timestamp: 1, key: bytes("a"), value: null }], { producerId: -1 });
  assert.equal(
    filterBatch(decoded(anonymous), context({ a: 500 }, { isLastBatchOfProducer: true })).kind,
    "drop",
  );
});

test("the pass's last batch is kept empty, with or without a producer", () => {
  const anonymous = batchOf([{ timestamp: 1, key: bytes("a"), value: null }], { producerId: -1 });
  const last = filterBatch(decoded(anonymous), context({ a: 500 }, { isLastBatchOfPass: true }));
  assert.ok(last.kind === "rewrite" && last.records.length === 0, JSON.stringify(last));
  // Its surviving records stay as any batch's do.
  const kept = batchOf([{ timestamp: 1, key: bytes("a"), value: bytes("1") }], { producerId: -1 });
  const decision = filterBatch(decoded(kept), context({ a: 100 }, { isLastBatchOfPass: true }));
  assert.equal(decision.kind, "keep");
});

test("records past the offset map and batches with nothing to remove are kept as they are", () => {
  const original = batchOf([{ timestamp: 10, key: bytes("a"), value: bytes("1") }]);
  assert.equal(
    filterBatch(decoded(original), context({ a: 500 }, { mapLatestOffset: 99 })).kind,
    "keep",
  );
  assert.equal(filterBatch(decoded(original), context({ a: 100 })).kind, "keep");
});

const data = (producerId: number, lastOffset: number) => ({
  producerId,
  lastOffset,
  isTransactional: true,
  isControl: false,
});
const control = (producerId: number, lastOffset: number) => ({
  ...data(producerId, lastOffset),
  isControl: true,
});

test("the transaction walk discards aborted batches and keeps markers while data was met", () => {
  const aborted = { producerId: 1, firstOffset: 10, lastOffset: 20, lastStableOffset: 21 };
  const walk = new CleanedTransactions([aborted]);
  assert.equal(walk.onBatchRead(data(1, 5)), false, "before the aborted range: committed");
  assert.equal(walk.onControlBatchRead(control(1, 6), "commit"), false, "its data was met");
  assert.equal(walk.onBatchRead(data(1, 12)), true, "inside the aborted transaction");
  assert.equal(walk.onBatchRead({ ...data(2, 13), isTransactional: false }), false);
  assert.equal(walk.onControlBatchRead(control(1, 20), "abort"), false, "data was met");
  assert.deepEqual(walk.takeKeptAborts(), [aborted]);
  assert.deepEqual(walk.takeKeptAborts(), [], "taken once");
  assert.equal(walk.onControlBatchRead(control(3, 30), "commit"), true, "no data met");
  assert.equal(walk.onControlBatchRead(control(3, 31), "other"), false);
  const empty = new CleanedTransactions([{ ...aborted, producerId: 4 }]);
  assert.equal(empty.onControlBatchRead(control(4, 20), "abort"), true, "its data is gone");
  assert.deepEqual(empty.takeKeptAborts(), []);
});

function markerBatch(deleteHorizonMs?: number) {
  const bytes = encodeTransactionMarkerBatch({
    ...{ baseOffset: 100, partitionLeaderEpoch: 0, producerId: 9, producerEpoch: 2 },
    ...{ coordinatorEpoch: 1, type: "abort", timestamp: 10 },
  });
  const header = decoded(bytes).header;
  const records = decoded(bytes).records;
  return deleteHorizonMs === undefined
    ? bytes
    : encodeRetainedBatch(header, records, deleteHorizonMs);
}

test("a marker of an empty transaction gets a delete horizon, then goes once it passed", () => {
  const kept = filterBatch(decoded(markerBatch()), context({}));
  assert.equal(kept.kind, "keep", "its transaction still has data");
  const first = filterBatch(decoded(markerBatch()), context({}, { isDiscardable: true }));
  assert.ok(first.kind === "rewrite" && first.records.length === 1);
  assert.equal(first.deleteHorizonMs, 5100, "now + delete.retention.ms");
  const early = context({}, { isDiscardable: true, nowMs: 5099 });
  assert.equal(filterBatch(decoded(markerBatch(5100)), early).kind, "keep");
  const late = context({}, { isDiscardable: true, nowMs: 5100 });
  assert.equal(filterBatch(decoded(markerBatch(5100)), late).kind, "drop");
  const last = context({}, { isDiscardable: true, nowMs: 5100, isLastBatchOfProducer: true });
  const emptied = filterBatch(decoded(markerBatch(5100)), last);
  assert.ok(emptied.kind === "rewrite" && emptied.records.length === 0, "the epoch's last");
});

test("an aborted batch loses every record; the batch of a producer's last record stays", () => {
  const original = batchOf([{ timestamp: 10, key: bytes("a"), value: bytes("1") }]);
  const aborted = context({ a: 100 }, { isDiscardable: true });
  assert.equal(filterBatch(decoded(original), aborted).kind, "drop");
  const last = filterBatch(decoded(original), { ...aborted, isLastBatchOfProducer: true });
  assert.ok(last.kind === "rewrite" && last.records.length === 0);
  const batch = { lastOffset: 100, isControl: false, producerEpoch: 2 };
  assert.equal(holdsLastRecord(batch, { lastDataOffset: 100, producerEpoch: 2 }), true);
  assert.equal(holdsLastRecord(batch, { lastDataOffset: 101, producerEpoch: 2 }), false);
  assert.equal(holdsLastRecord(batch, undefined), false, "not an active producer");
  const marker = { ...batch, isControl: true };
  assert.equal(holdsLastRecord(marker, { lastDataOffset: undefined, producerEpoch: 2 }), true);
  assert.equal(holdsLastRecord(marker, { lastDataOffset: undefined, producerEpoch: 3 }), false);
});
