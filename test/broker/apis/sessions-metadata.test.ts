import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import { partitionRecord, topicRecord } from "../../../src/metadata/records.test-support.js";
import { TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";

const fetchTopics = [
  {
    topic: "orders",
    topicId: TOPIC_ID,
    partitions: [
      { partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20, currentLeaderEpoch: -1 },
    ],
  },
];

function sessionFetch(
  sessionId: number,
  sessionEpoch: number,
  fields: Record<string, unknown> = {},
) {
  return {
    replicaId: -1,
    maxWaitMs: 0,
    minBytes: 0,
    maxBytes: 1 << 20,
    isolationLevel: 1,
    sessionId,
    sessionEpoch,
    topics: fetchTopics,
    forgottenTopicsData: [],
    rackId: "",
    ...fields,
  };
}

test("fetch sessions: create, only news, forget, bad epoch, unknown id", async () => {
  const broker = await startBroker({ seed: 201 });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  const full = await broker.call(1, 11, sessionFetch(0, 0));
  const sessionId = at(full, "sessionId") as number;
  assert.ok(sessionId > 0);
  assert.equal((at(full, "responses") as unknown[]).length, 1);
  assert.deepEqual(at(full, "responses", 0, "partitions", 0, "abortedTransactions"), []);
  const quiet = await broker.call(1, 11, sessionFetch(sessionId, 1, { topics: [] }));
  assert.equal(at(quiet, "errorCode"), 0);
  assert.equal((at(quiet, "responses") as unknown[]).length, 0);
  const badEpoch = await broker.call(1, 11, sessionFetch(sessionId, 7, { topics: [] }));
  assert.equal(at(badEpoch, "errorCode"), ErrorCode.INVALID_FETCH_SESSION_EPOCH);
  const forgotten = [{ topic: "orders", topicId: TOPIC_ID, partitions: [0] }];
  await broker.call(
    1,
    11,
    sessionFetch(sessionId, 2, { topics: [], forgottenTopicsData: forgotten }),
  );
  assert.equal(broker.fetchSessions.get(sessionId)?.partitions.size, 0);
  const unknown = await broker.call(1, 11, sessionFetch(sessionId + 1, 1, { topics: [] }));
  assert.equal(at(unknown, "errorCode"), ErrorCode.FETCH_SESSION_ID_NOT_FOUND);
});

test("a full session cache keeps a recent session of the same size", async () => {
  const broker = await startBroker({ seed: 202, sessionSlots: 1 });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  const first = at(await broker.call(1, 11, sessionFetch(0, 0)), "sessionId") as number;
  const second = at(await broker.call(1, 11, sessionFetch(0, 0)), "sessionId");
  assert.equal(second, 0, "same size and recently used: no slot");
  assert.ok(broker.fetchSessions.get(first) !== undefined);
  assert.equal(broker.fetchSessions.evictionCount, 0);
});

test("metadata answers topic ids, leader epochs, offline replicas and auto-creates", async () => {
  const broker = await startBroker({ seed: 203, autoCreateTopicsEnable: true });
  await broker.publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1, 2], { leaderEpoch: 4 }),
  ]);
  const body = {
    topics: [
      { name: "orders", topicId: TOPIC_ID },
      { name: "fresh", topicId: "0".repeat(32) },
      { name: "bad name!", topicId: "0".repeat(32) },
    ],
    allowAutoTopicCreation: true,
  };
  const answer = await broker.call(3, 12, body);
  assert.equal(at(answer, "controllerId"), 1);
  assert.equal(at(answer, "clusterId"), "test-cluster");
  assert.equal(at(answer, "brokers", 0, "port"), 9001);
  assert.equal(at(answer, "topics", 0, "topicId"), TOPIC_ID);
  assert.equal(at(answer, "topics", 0, "partitions", 0, "leaderEpoch"), 4);
  assert.deepEqual(at(answer, "topics", 0, "partitions", 0, "offlineReplicas"), [2]);
  assert.equal(at(answer, "topics", 1, "errorCode"), ErrorCode.LEADER_NOT_AVAILABLE);
  assert.equal(at(answer, "topics", 2, "errorCode"), ErrorCode.INVALID_TOPIC_EXCEPTION);
  await broker.harness.run(broker.apis.autoTopicCreator.whenIdle());
  assert.equal(broker.forwarder.sent[0]?.apiKey, 19);
  assert.equal(at(broker.forwarder.sent[0]?.body, "topics", 0, "numPartitions"), 3);
  const refused = await broker.call(3, 4, { ...body, allowAutoTopicCreation: false });
  assert.equal(at(refused, "topics", 1, "errorCode"), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  const byId = await broker.call(3, 12, { topics: [{ name: null, topicId: "e".repeat(32) }] });
  assert.equal(at(byId, "topics", 0, "errorCode"), ErrorCode.UNKNOWN_TOPIC_ID);
  for (let version = 0; version <= 12; version++) {
    const all = await broker.call(3, version, { topics: version === 0 ? [] : null });
    assert.equal(at(all, "topics", 0, "name"), "orders", `v${version}`);
  }
});

test("offsets, epochs, deletes, log dirs and cluster answer at every version", async () => {
  const broker = await startBroker({ seed: 204 });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  const offsets = (timestamp: number) => ({
    replicaId: -1,
    isolationLevel: 0,
    topics: [
      { name: "orders", partitions: [{ partitionIndex: 0, timestamp, currentLeaderEpoch: -1 }] },
    ],
  });
  for (let version = 1; version <= 9; version++) {
    const latest = await broker.call(2, version, offsets(-1));
    assert.equal(at(latest, "topics", 0, "partitions", 0, "offset"), 0, `v${version}`);
  }
  for (let version = 2; version <= 4; version++) {
    const epochs = await broker.call(23, version, {
      replicaId: -1,
      topics: [
        { topic: "orders", partitions: [{ partition: 0, currentLeaderEpoch: 0, leaderEpoch: 0 }] },
      ],
    });
    assert.equal(at(epochs, "topics", 0, "partitions", 0, "errorCode"), 0, `v${version}`);
  }
  for (let version = 0; version <= 2; version++) {
    const deleted = await broker.call(21, version, {
      topics: [{ name: "orders", partitions: [{ partitionIndex: 0, offset: 5 }] }],
      timeoutMs: 1000,
    });
    assert.equal(
      at(deleted, "topics", 0, "partitions", 0, "errorCode"),
      ErrorCode.OFFSET_OUT_OF_RANGE,
    );
  }
  for (let version = 1; version <= 3; version++) {
    const dirs = await broker.call(35, version, { topics: null });
    assert.equal(at(dirs, "results", 0, "logDir"), "/data/a", `v${version}`);
    assert.equal(at(dirs, "results", 0, "topics", 0, "name"), "orders", `v${version}`);
  }
  for (let version = 0; version <= 1; version++) {
    const cluster = await broker.call(60, version, { endpointType: 1 });
    assert.equal(at(cluster, "controllerId"), 1, `v${version}`);
  }
  const forwarded = await broker.call(19, 7, {
    topics: [{ name: "x", numPartitions: 1, replicationFactor: 1 }],
    timeoutMs: 10,
  });
  assert.equal(at(forwarded, "topics", 0, "errorCode"), ErrorCode.REQUEST_TIMED_OUT);
});
