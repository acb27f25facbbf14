import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { isValidTransition, PRODUCER_EPOCH_MAX } from "./transaction-metadata.js";
import { TransactionStates, type TransactionDecision } from "./transaction-states.js";
import type { TransactionMetadata } from "./transaction-metadata.js";

const PARTITION = 3;
const TIMEOUT_MS = 60_000;

function idsFrom(first: number): () => number {
  let next = first;
  return () => next++;
}

/** Writes a decision durably, as the driver does after the log answers; returns the value. */
function commit(states: TransactionStates, decision: TransactionDecision): TransactionMetadata {
  assert.equal(decision.kind, "write", JSON.stringify(decision));
  if (decision.kind !== "write") throw new Error("unreachable");
  states.beginWrite(decision.transit);
  assert.equal(
    states.completeWrite(decision.transit, { isDurable: true, isFence: decision.isFence }),
    true,
  );
  return decision.transit;
}

function init(states: TransactionStates, nowMs = 0, newProducerId = idsFrom(1000)) {
  return states.initProducerId("tx", PARTITION, {
    timeoutMs: TIMEOUT_MS,
    expected: undefined,
    nowMs,
    newProducerId,
  });
}

const partitions = [{ topic: "t", partition: 0 }];

test("the first InitProducerId gives a producer id at epoch 0, the next bumps it", () => {
  const states = new TransactionStates();
  const first = commit(states, init(states));
  assert.deepEqual([first.state, first.producerId, first.producerEpoch], ["Empty", 1000, 0]);
  const second = commit(states, init(states));
  assert.deepEqual([second.producerId, second.producerEpoch], [1000, 1]);
});

test("a transaction goes Empty, Ongoing, PrepareCommit, CompleteCommit", () => {
  const states = new TransactionStates();
  const { producerId, producerEpoch } = commit(states, init(states));
  const producer = { producerId, producerEpoch };
  const ongoing = commit(states, states.addPartitions("tx", producer, { partitions, nowMs: 5 }));
  assert.deepEqual([ongoing.state, ongoing.startTimestampMs], ["Ongoing", 5]);
  const again = states.addPartitions("tx", producer, { partitions, nowMs: 6 });
  assert.equal(again.kind, "done", "partitions already in the transaction need no write");
  const prepared = commit(
    states,
    states.endTransaction("tx", producer, { committed: true, nowMs: 7 }),
  );
  assert.equal(prepared.state, "PrepareCommit");
  assert.deepEqual(prepared.partitions, partitions);
  const completed = commit(states, states.complete("tx", 8));
  assert.deepEqual([completed.state, completed.partitions], ["CompleteCommit", []]);
  const retried = states.endTransaction("tx", producer, { committed: true, nowMs: 9 });
  assert.equal(retried.kind, "done", "a retried commit of a completed commit succeeds");
  const wrong = states.endTransaction("tx", producer, { committed: false, nowMs: 9 });
  assert.deepEqual(wrong, { kind: "error", errorCode: ErrorCode.INVALID_TXN_STATE });
});

test("one write at a time: a request while a write is in flight is CONCURRENT_TRANSACTIONS", () => {
  const states = new TransactionStates();
  const { producerId, producerEpoch } = commit(states, init(states));
  const decision = states.addPartitions(
    "tx",
    { producerId, producerEpoch },
    { partitions, nowMs: 1 },
  );
  assert.equal(decision.kind, "write");
  if (decision.kind !== "write") return;
  states.beginWrite(decision.transit);
  assert.deepEqual(init(states), { kind: "error", errorCode: ErrorCode.CONCURRENT_TRANSACTIONS });
  states.completeWrite(decision.transit, { isDurable: false, isFence: false });
  assert.equal(states.get("tx")?.state, "Empty", "a failed write changes nothing");
});

test("an old epoch is PRODUCER_FENCED, an unknown id INVALID_PRODUCER_ID_MAPPING", () => {
  const states = new TransactionStates();
  const { producerId } = commit(states, init(states));
  commit(states, init(states));
  const old = { producerId, producerEpoch: 0 };
  const refused = states.addPartitions("tx", old, { partitions, nowMs: 1 });
  assert.deepEqual(refused, { kind: "error", errorCode: ErrorCode.PRODUCER_FENCED });
  const other = states.endTransaction(
    "tx",
    { producerId: 7, producerEpoch: 1 },
    { committed: true, nowMs: 1 },
  );
  assert.deepEqual(other, { kind: "error", errorCode: ErrorCode.INVALID_PRODUCER_ID_MAPPING });
  const unknown = states.addPartitions("other", old, { partitions, nowMs: 1 });
  assert.deepEqual(unknown, { kind: "error", errorCode: ErrorCode.INVALID_PRODUCER_ID_MAPPING });
  const empty = states.endTransaction(
    "tx",
    { producerId, producerEpoch: 1 },
    { committed: true, nowMs: 1 },
  );
  assert.deepEqual(empty, { kind: "error", errorCode: ErrorCode.INVALID_TXN_STATE });
});

test("InitProducerId during an ongoing transaction aborts it at a bumped epoch first", () => {
  const states = new TransactionStates();
  const { producerId, producerEpoch } = commit(states, init(states));
  commit(
    states,
    states.addPartitions("tx", { producerId, producerEpoch }, { partitions, nowMs: 1 }),
  );
  const fence = init(states, 2);
  assert.equal(fence.kind === "write" && fence.isFence, true);
  const aborting = commit(states, fence);
  assert.deepEqual([aborting.state, aborting.producerEpoch], ["PrepareAbort", 1]);
  assert.deepEqual(init(states, 3), {
    kind: "error",
    errorCode: ErrorCode.CONCURRENT_TRANSACTIONS,
  });
  commit(states, states.complete("tx", 4));
  const next = commit(states, init(states, 5));
  assert.deepEqual([next.state, next.producerEpoch], ["Empty", 2], "the retry bumps once more");
});

test("a fence whose write failed does not bump the epoch again", () => {
  const states = new TransactionStates();
  const { producerId, producerEpoch } = commit(states, init(states));
  commit(
    states,
    states.addPartitions("tx", { producerId, producerEpoch }, { partitions, nowMs: 1 }),
  );
  const fence = init(states, 2);
  if (fence.kind !== "write") throw new Error("a fence is a write");
  states.beginWrite(fence.transit);
  states.completeWrite(fence.transit, { isDurable: false, isFence: true });
  const retried = commit(states, init(states, 3));
  assert.deepEqual([retried.state, retried.producerEpoch], ["PrepareAbort", 1]);
});

test("a KIP-360 retry with the previous epoch gets the current epoch back", () => {
  const states = new TransactionStates();
  const { producerId } = commit(states, init(states));
  const bump = (producerEpoch: number) =>
    states.initProducerId("tx", PARTITION, {
      timeoutMs: TIMEOUT_MS,
      expected: { producerId, producerEpoch },
      nowMs: 1,
      newProducerId: idsFrom(2000),
    });
  const bumped = commit(states, bump(0));
  assert.deepEqual([bumped.producerEpoch, bumped.lastProducerEpoch], [1, 0]);
  const retried = commit(states, bump(0));
  assert.equal(retried.producerEpoch, 1, "the lost answer is given again");
  assert.deepEqual(bump(7), { kind: "error", errorCode: ErrorCode.PRODUCER_FENCED });
  const stranger = states.initProducerId("tx", PARTITION, {
    timeoutMs: TIMEOUT_MS,
    expected: { producerId: 99, producerEpoch: 0 },
    nowMs: 1,
    newProducerId: idsFrom(2000),
  });
  assert.deepEqual(stranger, { kind: "error", errorCode: ErrorCode.PRODUCER_FENCED });
});

test("an exhausted epoch rotates to a new producer id at epoch 0", () => {
  const states = new TransactionStates();
  const first = commit(states, init(states));
  states.replay(PARTITION, { ...first, producerEpoch: PRODUCER_EPOCH_MAX - 1 });
  const rotated = commit(states, init(states, 1, idsFrom(5000)));
  assert.deepEqual([rotated.producerId, rotated.producerEpoch], [5000, 0]);
  assert.equal(rotated.previousProducerId, first.producerId);
});

test("a transaction past its timeout is aborted at a bumped epoch", () => {
  const states = new TransactionStates();
  const { producerId, producerEpoch } = commit(states, init(states));
  commit(
    states,
    states.addPartitions("tx", { producerId, producerEpoch }, { partitions, nowMs: 100 }),
  );
  assert.deepEqual(states.timedOut(100 + TIMEOUT_MS), [], "not before the timeout has passed");
  assert.deepEqual(states.timedOut(101 + TIMEOUT_MS), ["tx"]);
  const aborting = commit(states, states.abortTimedOut("tx", 101 + TIMEOUT_MS));
  assert.deepEqual([aborting.state, aborting.producerEpoch], ["PrepareAbort", 1]);
  const late = states.endTransaction(
    "tx",
    { producerId, producerEpoch },
    { committed: true, nowMs: 0 },
  );
  assert.deepEqual(late, { kind: "error", errorCode: ErrorCode.PRODUCER_FENCED });
  assert.deepEqual(
    states.preparedIn(PARTITION).map((each) => each.state),
    ["PrepareAbort"],
  );
  assert.deepEqual(
    states.timedOut(200 + TIMEOUT_MS),
    [],
    "an aborting transaction is not timed out",
  );
});

test("unloading a partition forgets its transactional ids", () => {
  const states = new TransactionStates();
  commit(states, init(states));
  states.unload(PARTITION + 1);
  assert.equal(states.size, 1);
  states.unload(PARTITION);
  assert.equal(states.size, 0);
});

test("the transitions are Kafka's", () => {
  assert.equal(isValidTransition("Ongoing", "PrepareCommit"), true);
  assert.equal(isValidTransition("Empty", "PrepareCommit"), false);
  assert.equal(isValidTransition("PrepareEpochFence", "PrepareAbort"), true);
  assert.equal(isValidTransition("PrepareCommit", "CompleteAbort"), false);
  assert.equal(isValidTransition("CompleteAbort", "Ongoing"), true);
  assert.equal(isValidTransition("Ongoing", "Dead"), false);
});

test("an idle transactional id expires with a tombstone; a transaction under way does not", () => {
  const states = new TransactionStates();
  const { producerId, producerEpoch } = commit(states, init(states, 100));
  assert.deepEqual(states.expired(1_099, 1_000), [], "not idle for the expiration yet");
  assert.deepEqual(states.expired(1_100, 1_000), ["tx"]);
  const producer = { producerId, producerEpoch };
  commit(states, states.addPartitions("tx", producer, { partitions, nowMs: 200 }));
  assert.deepEqual(states.expired(10_000, 1_000), [], "an ongoing transaction keeps its id");
  assert.equal(states.expire("tx", 10_000).kind, "error");
  commit(states, states.endTransaction("tx", producer, { committed: false, nowMs: 300 }));
  commit(states, states.complete("tx", 400));
  assert.deepEqual(states.expired(10_000, 1_000), ["tx"], "CompleteAbort may expire");
  const decision = states.expire("tx", 10_000);
  assert.ok(decision.kind === "write");
  assert.equal(decision.transit.state, "Dead");
  states.beginWrite(decision.transit);
  assert.equal(states.expire("tx", 10_000).kind, "error", "one write at a time");
  assert.deepEqual(states.expired(10_000, 1_000), [], "nor while its tombstone is in flight");
  states.completeWrite(decision.transit, { isDurable: true, isFence: false });
  assert.equal(states.get("tx"), undefined, "a durable tombstone forgets the id");
  const fresh = commit(states, init(states, 10_001, idsFrom(2000)));
  assert.deepEqual([fresh.producerId, fresh.producerEpoch], [2000, 0], "it starts afresh");
});
