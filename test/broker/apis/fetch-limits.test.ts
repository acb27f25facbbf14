import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import { partitionRecord, topicRecord } from "../../../src/metadata/records.test-support.js";
import { clientBatch, TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { fetchRequest, listOffsetsRequest, produceRequest } from "./requests.js";

const BATCH = clientBatch([{ timestamp: 1000 }, { timestamp: 2000 }]);

/** Broker 1 leads "orders"-0 and -1, each with three batches of BATCH's size. */
async function threeBatchesEach(seed: number, fetchMaxBytes?: number) {
  const broker = await startBroker(
    fetchMaxBytes === undefined ? { seed } : { seed, fetchMaxBytes },
  );
  await broker.publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1]),
    partitionRecord(TOPIC_ID, 1, [1]),
  ]);
  for (const partition of [0, 1]) {
    for (let batch = 0; batch < 3; batch++) {
      await broker.call(0, 11, produceRequest({ acks: 1, partition, records: BATCH }));
    }
  }
  return broker;
}

const recordBytes = (body: unknown, partition: number) =>
  (at(body, "responses", 0, "partitions", partition, "records") as Uint8Array).length;

test("partition max bytes bounds a partition; its first batch comes whole", async () => {
  const broker = await threeBatchesEach(501);
  const size = BATCH.length;
  const fetchWith = (partitionMaxBytes: number) =>
    broker.call(1, 11, fetchRequest([{ partition: 0, fetchOffset: 0, partitionMaxBytes }]));
  assert.equal(recordBytes(await fetchWith(1), 0), size, "one batch over the limit");
  assert.equal(recordBytes(await fetchWith(2 * size + 10), 0), 2 * size, "two whole batches");
  assert.equal(recordBytes(await fetchWith(1 << 20), 0), 3 * size, "all three");
});

test("response max bytes bounds the fetch, but the first batch comes whole (KIP-74)", async () => {
  const broker = await threeBatchesEach(502);
  const size = BATCH.length;
  const both = [
    { partition: 0, fetchOffset: 0 },
    { partition: 1, fetchOffset: 0 },
  ];
  const tiny = await broker.call(1, 11, fetchRequest(both, { maxBytes: 1 }));
  assert.equal(recordBytes(tiny, 0), size);
  assert.equal(recordBytes(tiny, 1), 0);
  const room = await broker.call(1, 11, fetchRequest(both, { maxBytes: 4 * size }));
  assert.equal(recordBytes(room, 0), 3 * size);
  assert.equal(recordBytes(room, 1), size);
});

test("the broker's fetch.max.bytes bounds a fetch that asks for more, as Kafka's", async () => {
  const size = BATCH.length;
  const broker = await threeBatchesEach(505, 2 * size + 10);
  const both = [
    { partition: 0, fetchOffset: 0 },
    { partition: 1, fetchOffset: 0 },
  ];
  const asked = await broker.call(1, 11, fetchRequest(both, { maxBytes: 1 << 20 }));
  assert.equal(recordBytes(asked, 0), 2 * size, "two whole batches within the broker's bound");
  assert.equal(recordBytes(asked, 1), 0);
});

test("read_committed reads up to the last stable offset, which is the high watermark", async () => {
  const broker = await startBroker({ seed: 503 });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1, 2])]);
  await broker.call(0, 11, produceRequest({ acks: 1 }));
  const committed = (body: unknown) => at(body, "responses", 0, "partitions", 0);
  const readCommitted = fetchRequest([{ partition: 0, fetchOffset: 0 }], { isolationLevel: 1 });
  const before = committed(await broker.call(1, 11, readCommitted)) as Record<string, unknown>;
  assert.equal(before["highWatermark"], 0, "broker 2 has not fetched yet");
  assert.equal(before["lastStableOffset"], 0);
  assert.equal((before["records"] as Uint8Array).length, 0);
  const latest = listOffsetsRequest([{ partitionIndex: 0, timestamp: -1 }], { isolationLevel: 1 });
  assert.equal(at(await broker.call(2, 5, latest), "topics", 0, "partitions", 0, "offset"), 0);
  // Broker 2 fetching from offset 2 has both records: the high watermark moves to 2.
  const follower = fetchRequest([{ partition: 0, fetchOffset: 2 }], { replicaId: 2 });
  await broker.call(1, 12, follower);
  const after = committed(await broker.call(1, 11, readCommitted)) as Record<string, unknown>;
  assert.equal(after["highWatermark"], 2);
  assert.equal(after["lastStableOffset"], 2);
  assert.ok((after["records"] as Uint8Array).length > 0);
  assert.equal(at(await broker.call(2, 5, latest), "topics", 0, "partitions", 0, "offset"), 2);
});

test("a storage error reading the bytes is KAFKA_STORAGE_ERROR, not a failed request", async () => {
  const broker = await threeBatchesEach(504);
  broker.harness.fs.injectFault({ code: "EIO", operations: ["read"], path: "/data/a/orders-0" });
  const both = [
    { partition: 0, fetchOffset: 0 },
    { partition: 1, fetchOffset: 0 },
  ];
  const body = await broker.call(1, 11, fetchRequest(both));
  assert.equal(at(body, "errorCode"), ErrorCode.NONE);
  assert.equal(
    at(body, "responses", 0, "partitions", 0, "errorCode"),
    ErrorCode.KAFKA_STORAGE_ERROR,
  );
  // Partition 0 was read first and failed its dir, which holds partition 1 too.
  assert.equal(
    at(body, "responses", 0, "partitions", 1, "errorCode"),
    ErrorCode.KAFKA_STORAGE_ERROR,
  );
  const dirs = await broker.call(35, 3, { topics: null });
  assert.equal(at(dirs, "results", 0, "errorCode"), ErrorCode.KAFKA_STORAGE_ERROR);
});

test("produce and fetch error responses encode at every advertised version", async () => {
  const broker = await startBroker({ seed: 505 });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  broker.replicaManager.appendRecords = () => {
    throw new Error("an unexpected failure");
  };
  broker.replicaManager.fetchMessages = () => Promise.reject(new Error("an unexpected failure"));
  for (let version = 3; version <= 11; version++) {
    const body = await broker.call(0, version, produceRequest({ acks: 1 }));
    const partition = at(body, "responses", 0, "partitionResponses", 0);
    assert.equal(at(partition, "errorCode"), ErrorCode.UNKNOWN_SERVER_ERROR, `produce v${version}`);
  }
  for (let version = 4; version <= 17; version++) {
    const body = await broker.call(1, version, fetchRequest([{ partition: 0, fetchOffset: 0 }]));
    const partition = at(body, "responses", 0, "partitions", 0);
    assert.equal(at(partition, "errorCode"), ErrorCode.UNKNOWN_SERVER_ERROR, `fetch v${version}`);
  }
});
