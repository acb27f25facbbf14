import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import {
  BATCHES_RETAINED,
  PRODUCER_EXPIRATION_CHECK_INTERVAL_MS,
  ProducerStateManager,
  type ProducerBatch,
} from "./producer-state.js";
import { lastSequenceOf } from "./producer-batch.js";

const PRODUCER = 7;

/** A batch of `count` records of producer 7 from `baseSequence`, at `baseOffset`. */
function batchOf(
  baseSequence: number,
  count: number,
  at: { readonly baseOffset: number; readonly epoch?: number; readonly timestamp?: number },
): ProducerBatch {
  return {
    producerId: PRODUCER,
    producerEpoch: at.epoch ?? 0,
    baseSequence,
    lastOffsetDelta: count - 1,
    baseOffset: at.baseOffset,
    maxTimestamp: at.timestamp ?? 1000,
  };
}

/** Checks `batch` as a leader would and, when it is to be appended, records it. */
function produce(producers: ProducerStateManager, batch: ProducerBatch) {
  const check = producers.checkClientBatch(batch);
  if (check.kind === "append") producers.update(batch);
  return check;
}

test("a new producer may start at any sequence, and then must continue it", () => {
  const producers = new ProducerStateManager();
  assert.equal(produce(producers, batchOf(12, 3, { baseOffset: 0 })).kind, "append");
  assert.equal(produce(producers, batchOf(15, 2, { baseOffset: 3 })).kind, "append");
  const gap = produce(producers, batchOf(18, 1, { baseOffset: 5 }));
  assert.equal(gap.kind === "refused" && gap.errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  assert.equal(producers.entry(PRODUCER)?.batches.at(-1)?.lastSequence, 16);
});

test("a retry of one of the last five batches is a duplicate with the original offsets", () => {
  const producers = new ProducerStateManager();
  for (let index = 0; index < BATCHES_RETAINED + 1; index++) {
    produce(producers, batchOf(index * 2, 2, { baseOffset: 100 + index * 2, timestamp: index }));
  }
  const second = produce(producers, batchOf(2, 2, { baseOffset: 999 }));
  assert.deepEqual(second, {
    kind: "duplicate",
    original: {
      firstSequence: 2,
      lastSequence: 3,
      firstOffset: 102,
      lastOffset: 103,
      timestamp: 1,
    },
  });
  // The first batch fell out of the retained five: its retry is out of order.
  const first = produce(producers, batchOf(0, 2, { baseOffset: 999 }));
  assert.equal(first.kind === "refused" && first.errorCode, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  // Same first sequence but another last one is no duplicate.
  assert.equal(produce(producers, batchOf(2, 3, { baseOffset: 999 })).kind, "refused");
});

test("an older epoch is fenced and a newer one must start at sequence 0", () => {
  const producers = new ProducerStateManager();
  produce(producers, batchOf(0, 1, { baseOffset: 0, epoch: 3 }));
  const older = produce(producers, batchOf(1, 1, { baseOffset: 1, epoch: 2 }));
  assert.equal(older.kind === "refused" && older.errorCode, ErrorCode.INVALID_PRODUCER_EPOCH);
  const skipped = produce(producers, batchOf(5, 1, { baseOffset: 1, epoch: 4 }));
  assert.equal(skipped.kind === "refused" && skipped.errorCode, 45);
  assert.equal(produce(producers, batchOf(0, 1, { baseOffset: 1, epoch: 4 })).kind, "append");
  const entry = producers.entry(PRODUCER);
  assert.equal(entry?.producerEpoch, 4);
  assert.equal(entry?.batches.length, 1, "a new epoch drops the old epoch's batches");
  // A retry of the old epoch's batch is no duplicate any more: it is fenced.
  assert.equal(produce(producers, batchOf(0, 1, { baseOffset: 9, epoch: 3 })).kind, "refused");
});

test("sequences wrap from 2^31 - 1 to 0", () => {
  const producers = new ProducerStateManager();
  const top = 0x7fffffff;
  assert.equal(lastSequenceOf(batchOf(top - 1, 4, { baseOffset: 0 })), 1);
  produce(producers, batchOf(top - 1, 2, { baseOffset: 0 }));
  assert.equal(produce(producers, batchOf(0, 1, { baseOffset: 2 })).kind, "append");
});

test("a follower takes its leader's batches without sequence checks", () => {
  const producers = new ProducerStateManager();
  producers.update(batchOf(0, 1, { baseOffset: 0, epoch: 5 }));
  producers.update(batchOf(40, 1, { baseOffset: 1, epoch: 5 }));
  assert.equal(producers.entry(PRODUCER)?.batches.length, 2);
});

test("producers idle for producer.id.expiration.ms are removed, at the check interval", () => {
  const expirationMs = 5000;
  const producers = new ProducerStateManager();
  produce(producers, batchOf(0, 1, { baseOffset: 0, timestamp: 1000 }));
  assert.equal(producers.maybeRemoveExpired(1000, expirationMs), 0);
  // Expired, but the interval since the last check has not passed.
  assert.equal(producers.maybeRemoveExpired(1000 + expirationMs, expirationMs), 0);
  assert.equal(
    producers.maybeRemoveExpired(1000 + PRODUCER_EXPIRATION_CHECK_INTERVAL_MS, expirationMs),
    1,
  );
  assert.equal(producers.producerCount, 0);
  // Forgotten: the producer may go on at any sequence.
  assert.equal(produce(producers, batchOf(9, 1, { baseOffset: 1 })).kind, "append");
});

test("a producer younger than the expiration stays", () => {
  const producers = new ProducerStateManager();
  produce(producers, batchOf(0, 1, { baseOffset: 0, timestamp: 1000 }));
  assert.equal(producers.removeExpired(5999, 5000), 0);
  assert.equal(producers.removeExpired(6000, 5000), 1);
});
