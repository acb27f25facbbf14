import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import {
  partitionChange,
  partitionRecord,
  topicRecord,
} from "../../../src/metadata/records.test-support.js";
import { clientBatch, TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import {
  fetchRequest,
  listOffsetsRequest,
  offsetForLeaderEpochRequest,
  produceRequest,
} from "./requests.js";

/**
 * Broker 1 leads "orders"-0 in epoch 0 with offsets 0-1 (timestamps 1000, 2000), then, after a
 * PartitionChangeRecord naming it leader again, in epoch 1 with offsets 2-4 (1500, 5000, 3000).
 */
async function twoEpochs(seed: number) {
  const broker = await startBroker({ seed });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  const first = clientBatch([{ timestamp: 1000 }, { timestamp: 2000 }]);
  await broker.call(0, 11, produceRequest({ acks: 1, records: first }));
  await broker.publish([partitionChange(TOPIC_ID, 0, { leader: 1 })]);
  const second = clientBatch([{ timestamp: 1500 }, { timestamp: 5000 }, { timestamp: 3000 }]);
  const produced = await broker.call(0, 11, produceRequest({ acks: 1, records: second }));
  assert.equal(at(produced, "responses", 0, "partitionResponses", 0, "baseOffset"), 2);
  return broker;
}

test("an older leader epoch is fenced on Fetch, ListOffsets and OffsetForLeaderEpoch", async () => {
  const broker = await twoEpochs(401);
  const fetchAt = (currentLeaderEpoch: number) =>
    broker.call(1, 12, fetchRequest([{ partition: 0, fetchOffset: 0, currentLeaderEpoch }]));
  const fetchError = (body: unknown) => at(body, "responses", 0, "partitions", 0, "errorCode");
  assert.equal(fetchError(await fetchAt(0)), ErrorCode.FENCED_LEADER_EPOCH);
  assert.equal(fetchError(await fetchAt(1)), ErrorCode.NONE);
  const listAt = (currentLeaderEpoch: number) =>
    broker.call(
      2,
      8,
      listOffsetsRequest([{ partitionIndex: 0, timestamp: -1, currentLeaderEpoch }]),
    );
  const listError = (body: unknown) => at(body, "topics", 0, "partitions", 0, "errorCode");
  assert.equal(listError(await listAt(0)), ErrorCode.FENCED_LEADER_EPOCH);
  assert.equal(listError(await listAt(1)), ErrorCode.NONE);
  const epochAt = (currentLeaderEpoch: number) =>
    broker.call(23, 4, offsetForLeaderEpochRequest({ leaderEpoch: 0, currentLeaderEpoch }));
  const fenced = await epochAt(0);
  assert.equal(
    at(fenced, "topics", 0, "partitions", 0, "errorCode"),
    ErrorCode.FENCED_LEADER_EPOCH,
  );
  const current = await epochAt(1);
  assert.equal(at(current, "topics", 0, "partitions", 0, "errorCode"), ErrorCode.NONE);
  assert.equal(at(current, "topics", 0, "partitions", 0, "leaderEpoch"), 0);
  assert.equal(at(current, "topics", 0, "partitions", 0, "endOffset"), 2, "epoch 0 ends at 2");
});

test("ListOffsets: earliest, latest, by timestamp, max timestamp, with epochs", async () => {
  const broker = await twoEpochs(402);
  const lookUp = async (timestamp: number) => {
    const body = await broker.call(2, 8, listOffsetsRequest([{ partitionIndex: 0, timestamp }]));
    const partition = at(body, "topics", 0, "partitions", 0) as Record<string, unknown>;
    assert.equal(partition["errorCode"], ErrorCode.NONE, `timestamp ${timestamp}`);
    return [partition["offset"], partition["leaderEpoch"]];
  };
  assert.deepEqual(await lookUp(-2), [0, 0], "earliest");
  assert.deepEqual(await lookUp(-1), [5, 1], "latest");
  assert.deepEqual(await lookUp(-3), [3, 1], "max timestamp 5000 is offset 3");
  assert.deepEqual(await lookUp(1800), [1, 0], "first at or after 1800 is 2000");
  assert.deepEqual(await lookUp(4000), [3, 1], "first at or after 4000 is 5000");
  assert.deepEqual(await lookUp(9000), [-1, -1], "none at or after 9000");
});

test("DeleteRecords moves the earliest offset; older fetches are out of range", async () => {
  const broker = await twoEpochs(403);
  const deleted = await broker.call(21, 2, {
    topics: [{ name: "orders", partitions: [{ partitionIndex: 0, offset: 3 }] }],
    timeoutMs: 1000,
  });
  assert.equal(at(deleted, "topics", 0, "partitions", 0, "errorCode"), ErrorCode.NONE);
  assert.equal(at(deleted, "topics", 0, "partitions", 0, "lowWatermark"), 3);
  const earliest = await broker.call(
    2,
    8,
    listOffsetsRequest([{ partitionIndex: 0, timestamp: -2 }]),
  );
  assert.equal(at(earliest, "topics", 0, "partitions", 0, "offset"), 3);
  const old = await broker.call(1, 11, fetchRequest([{ partition: 0, fetchOffset: 1 }]));
  assert.equal(
    at(old, "responses", 0, "partitions", 0, "errorCode"),
    ErrorCode.OFFSET_OUT_OF_RANGE,
  );
  const kept = await broker.call(1, 11, fetchRequest([{ partition: 0, fetchOffset: 3 }]));
  assert.equal(at(kept, "responses", 0, "partitions", 0, "errorCode"), ErrorCode.NONE);
  assert.equal(at(kept, "responses", 0, "partitions", 0, "logStartOffset"), 3);
  const beyond = await broker.call(21, 2, {
    topics: [{ name: "orders", partitions: [{ partitionIndex: 0, offset: 9 }] }],
    timeoutMs: 1000,
  });
  assert.equal(
    at(beyond, "topics", 0, "partitions", 0, "errorCode"),
    ErrorCode.OFFSET_OUT_OF_RANGE,
  );
});

test("ListOffsets answers INVALID_REQUEST for a partition named twice, each time", async () => {
  const broker = await startBroker({ seed: 404 });
  await broker.publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1]),
    partitionRecord(TOPIC_ID, 1, [1]),
  ]);
  const asked = [0, 1, 0].map((partitionIndex) => ({ partitionIndex, timestamp: -1 }));
  const body = await broker.call(2, 7, listOffsetsRequest(asked));
  const errors = (at(body, "topics", 0, "partitions") as { errorCode: number }[]).map(
    (partition) => partition.errorCode,
  );
  assert.deepEqual(errors, [ErrorCode.INVALID_REQUEST, ErrorCode.NONE, ErrorCode.INVALID_REQUEST]);
});
