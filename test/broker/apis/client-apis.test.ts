import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import {
  partitionRecord,
  topicRecord,
  configRecord,
} from "../../../src/metadata/records.test-support.js";
import { readBatchHeader } from "../../../src/protocol/index.js";
import { clientBatch, TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";

function produceBody(options: {
  acks: number;
  topic?: string;
  partition?: number;
  timeoutMs?: number;
  records?: Uint8Array | null;
}) {
  return {
    transactionalId: null,
    acks: options.acks,
    timeoutMs: options.timeoutMs ?? 1000,
    topicData: [
      {
        name: options.topic ?? "orders",
        partitionData: [
          {
            index: options.partition ?? 0,
            records:
              options.records === undefined
                ? clientBatch([{ timestamp: 1000 }, { timestamp: 2000 }])
                : options.records,
          },
        ],
      },
    ],
  };
}

function fetchBody(fields: Record<string, unknown> = {}) {
  return {
    replicaId: -1,
    maxWaitMs: 0,
    minBytes: 1,
    maxBytes: 1 << 20,
    isolationLevel: 0,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [
      {
        topic: "orders",
        topicId: TOPIC_ID,
        partitions: [
          { partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20, currentLeaderEpoch: -1 },
        ],
      },
    ],
    forgottenTopicsData: [],
    rackId: "",
    ...fields,
  };
}

async function withTopic(seed: number, replicas = [1]) {
  const broker = await startBroker({ seed });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, replicas)]);
  return broker;
}

test("acks=1 appends and a fetch returns the whole batch at every served version", async () => {
  const broker = await withTopic(101);
  const produced = await broker.call(0, 9, produceBody({ acks: 1 }));
  assert.equal(at(produced, "responses", 0, "partitionResponses", 0, "errorCode"), 0);
  assert.equal(at(produced, "responses", 0, "partitionResponses", 0, "baseOffset"), 0);
  for (let version = 4; version <= 17; version++) {
    const fetched = await broker.call(1, version, fetchBody());
    const partition = at(fetched, "responses", 0, "partitions", 0) as Record<string, unknown>;
    assert.equal(partition["errorCode"], 0, `v${version}`);
    assert.equal(partition["highWatermark"], 2, `v${version}`);
    assert.ok((partition["records"] as Uint8Array).length > 61, `v${version} carries the batch`);
  }
});

test("produce refuses bad acks, unknown partitions and bad records", async () => {
  const broker = await withTopic(102);
  const code = (body: unknown) => at(body, "responses", 0, "partitionResponses", 0, "errorCode");
  assert.equal(
    code(await broker.call(0, 7, produceBody({ acks: 2 }))),
    ErrorCode.INVALID_REQUIRED_ACKS,
  );
  assert.equal(
    code(await broker.call(0, 7, produceBody({ acks: 1, partition: 5 }))),
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  );
  assert.equal(
    code(await broker.call(0, 3, produceBody({ acks: 1, records: null }))),
    ErrorCode.INVALID_RECORD,
  );
  assert.equal(
    code(await broker.call(0, 3, produceBody({ acks: 1, records: new Uint8Array([1, 2, 3]) }))),
    ErrorCode.CORRUPT_MESSAGE,
  );
  // A transactional id with a batch outside any transaction is appended, as Kafka does.
  const transactional = { ...produceBody({ acks: 1 }), transactionalId: "tx" };
  assert.equal(code(await broker.call(0, 11, transactional)), ErrorCode.NONE);
});

test("acks=0 gets no response, and a failed acks=0 produce closes the connection", async () => {
  const broker = await withTopic(103);
  assert.equal(await broker.call(0, 8, produceBody({ acks: 0 })), "none");
  assert.equal(await broker.call(0, 8, produceBody({ acks: 0, partition: 9 })), "close");
});

test("acks=-1 completes at once with one replica and times out waiting for a second", async () => {
  const single = await withTopic(104);
  const done = await single.call(0, 11, produceBody({ acks: -1 }));
  assert.equal(at(done, "responses", 0, "partitionResponses", 0, "errorCode"), 0);
  const pair = await withTopic(105, [1, 2]);
  const started = pair.harness.node.clock.monotonicMs();
  const waited = await pair.call(0, 11, produceBody({ acks: -1, timeoutMs: 700 }));
  assert.equal(
    at(waited, "responses", 0, "partitionResponses", 0, "errorCode"),
    ErrorCode.REQUEST_TIMED_OUT,
  );
  assert.ok(pair.harness.node.clock.monotonicMs() - started >= 700);
  assert.equal(pair.purgatories.produce.pendingCount, 0);
});

test("a topic switched to LogAppendTime after its log opened stamps the batch once", async () => {
  const broker = await withTopic(106);
  const created = await broker.call(0, 11, produceBody({ acks: 1 }));
  assert.equal(at(created, "responses", 0, "partitionResponses", 0, "logAppendTimeMs"), -1);
  await broker.publish([configRecord(2, "orders", "message.timestamp.type", "LogAppendTime")]);
  const before = broker.harness.node.clock.nowMs();
  const produced = await broker.call(0, 11, produceBody({ acks: 1 }));
  const stamped = at(produced, "responses", 0, "partitionResponses", 0, "logAppendTimeMs");
  assert.ok(typeof stamped === "number" && stamped >= before);
  assert.ok(stamped <= broker.harness.node.clock.nowMs());
  const fetched = await broker.call(1, 11, fetchBody());
  const records = at(fetched, "responses", 0, "partitions", 0, "records") as Uint8Array;
  const first = readBatchHeader(records);
  assert.ok(first.ok);
  assert.equal(first.header.timestampType, "createTime");
  assert.equal(first.header.maxTimestamp, 2000);
  const second = readBatchHeader(records.subarray(first.header.sizeInBytes));
  assert.ok(second.ok);
  assert.equal(second.header.timestampType, "logAppendTime");
  assert.equal(second.header.maxTimestamp, stamped, "the log's stamp is the one reported");
  assert.ok(second.header.isCrcValid());
});

test("a fetch waits for min bytes until an append wakes it, or until max wait", async () => {
  const broker = await withTopic(107);
  const started = broker.harness.node.clock.monotonicMs();
  const waiting = broker.send(1, 11, fetchBody({ maxWaitMs: 5000, minBytes: 1 }));
  await broker.harness.run(Promise.resolve());
  assert.equal(broker.purgatories.fetch.pendingCount, 1);
  await broker.call(0, 9, produceBody({ acks: 1 }));
  const fetched = broker.bodyOf(await broker.harness.run(waiting), 1, 11);
  assert.equal(broker.purgatories.fetch.pendingCount, 0);
  assert.ok((at(fetched, "responses", 0, "partitions", 0, "records") as Uint8Array).length > 0);
  assert.ok(broker.harness.node.clock.monotonicMs() - started < 5000);
  const expired = await broker.call(
    1,
    11,
    fetchBody({
      maxWaitMs: 400,
      minBytes: 1 << 20,
      topics: [
        {
          topic: "orders",
          topicId: TOPIC_ID,
          partitions: [
            { partition: 0, fetchOffset: 2, partitionMaxBytes: 1 << 20, currentLeaderEpoch: -1 },
          ],
        },
      ],
    }),
  );
  assert.equal(at(expired, "responses", 0, "partitions", 0, "errorCode"), 0);
  assert.ok(broker.harness.node.clock.monotonicMs() - started >= 400);
});

test("fetch answers OFFSET_OUT_OF_RANGE, UNKNOWN_LEADER_EPOCH and UNKNOWN_TOPIC_ID", async () => {
  const broker = await withTopic(108);
  const partitionOf = (fetchOffset: number, currentLeaderEpoch: number) => [
    {
      topic: "orders",
      topicId: TOPIC_ID,
      partitions: [{ partition: 0, fetchOffset, partitionMaxBytes: 1 << 20, currentLeaderEpoch }],
    },
  ];
  const out = await broker.call(1, 11, fetchBody({ topics: partitionOf(50, -1) }));
  assert.equal(
    at(out, "responses", 0, "partitions", 0, "errorCode"),
    ErrorCode.OFFSET_OUT_OF_RANGE,
  );
  const newer = await broker.call(1, 11, fetchBody({ topics: partitionOf(0, 1) }));
  assert.equal(
    at(newer, "responses", 0, "partitions", 0, "errorCode"),
    ErrorCode.UNKNOWN_LEADER_EPOCH,
  );
  const unknownId = [
    { topic: "", topicId: "f".repeat(32), partitions: partitionOf(0, -1)[0]?.partitions },
  ];
  const byId = await broker.call(1, 13, fetchBody({ topics: unknownId }));
  assert.equal(at(byId, "responses", 0, "partitions", 0, "errorCode"), ErrorCode.UNKNOWN_TOPIC_ID);
});
