import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import {
  fenceBroker,
  partitionChange,
  partitionRecord,
  registerBroker,
  topicRecord,
  unfenceBroker,
} from "../../../src/metadata/records.test-support.js";
import { TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { fetchRequest, produceRequest } from "./requests.js";

/** Broker 1 follows "orders"-0, led by broker 2 (alive, PLAINTEXT on localhost:9002). */
async function followerOfBroker2(seed: number) {
  const broker = await startBroker({ seed });
  await broker.publish([
    registerBroker(2, 20),
    unfenceBroker(2, 20),
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [2, 1]),
  ]);
  // A second election makes the leader epoch 1, so that the hint's epoch is not a default.
  await broker.publish([partitionChange(TOPIC_ID, 0, { leader: 2 })]);
  return broker;
}

const BROKER_2 = { nodeId: 2, host: "localhost", port: 9002, rack: null };

const produced = (body: unknown) => at(body, "responses", 0, "partitionResponses", 0);
const fetched = (body: unknown) => at(body, "responses", 0, "partitions", 0);
const leaderOf = (partition: unknown) => {
  const { leaderId, leaderEpoch } = at(partition, "currentLeader") as Record<string, unknown>;
  return { leaderId, leaderEpoch };
};

test("Produce v11 to a follower names the leader and its endpoint (KIP-951)", async () => {
  const broker = await followerOfBroker2(951);
  const body = await broker.call(0, 11, produceRequest({ acks: 1 }));
  assert.equal(at(produced(body), "errorCode"), ErrorCode.NOT_LEADER_OR_FOLLOWER);
  assert.deepEqual(leaderOf(produced(body)), { leaderId: 2, leaderEpoch: 1 });
  const endpoints = at(body, "nodeEndpoints") as Record<string, unknown>[];
  assert.deepEqual(
    endpoints.map(({ nodeId, host, port, rack }) => ({ nodeId, host, port, rack })),
    [BROKER_2],
  );
});

test("Produce v9 to a follower leaves the leader hint out", async () => {
  const broker = await followerOfBroker2(952);
  const body = await broker.call(0, 9, produceRequest({ acks: 1 }));
  assert.equal(at(produced(body), "errorCode"), ErrorCode.NOT_LEADER_OR_FOLLOWER);
  // v9 has neither field, so the decoder fills their defaults.
  assert.deepEqual(leaderOf(produced(body)), { leaderId: -1, leaderEpoch: -1 });
  assert.deepEqual(at(body, "nodeEndpoints"), []);
});

// A consumer's Fetch v11+ may read from a follower (KIP-392); one with a stale leader epoch is
// refused there, and the refusal names the current leader.
const staleFetch = fetchRequest([{ partition: 0, fetchOffset: 0, currentLeaderEpoch: 0 }]);

test("Fetch v17 with a stale epoch at a follower names the leader and its endpoint", async () => {
  const broker = await followerOfBroker2(953);
  const body = await broker.call(1, 17, staleFetch);
  assert.equal(at(fetched(body), "errorCode"), ErrorCode.FENCED_LEADER_EPOCH);
  assert.deepEqual(leaderOf(fetched(body)), { leaderId: 2, leaderEpoch: 1 });
  const endpoints = at(body, "nodeEndpoints") as Record<string, unknown>[];
  assert.deepEqual(
    endpoints.map(({ nodeId, host, port, rack }) => ({ nodeId, host, port, rack })),
    [BROKER_2],
  );
});

test("Fetch v15 with a stale epoch at a follower leaves the leader hint out", async () => {
  const broker = await followerOfBroker2(954);
  const body = await broker.call(1, 15, staleFetch);
  assert.equal(at(fetched(body), "errorCode"), ErrorCode.FENCED_LEADER_EPOCH);
  // v15 has currentLeader (v12+) but Kafka fills it from v16 only; nodeEndpoints is v16+.
  assert.deepEqual(leaderOf(fetched(body)), { leaderId: -1, leaderEpoch: -1 });
  assert.deepEqual(at(body, "nodeEndpoints"), []);
});

test("Fetch v17 with a fenced leader epoch names this broker as the leader", async () => {
  const broker = await startBroker({ seed: 955 });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  await broker.publish([partitionChange(TOPIC_ID, 0, { leader: 1 })]);
  const stale = fetchRequest([{ partition: 0, fetchOffset: 0, currentLeaderEpoch: 0 }]);
  const body = await broker.call(1, 17, stale);
  assert.equal(at(fetched(body), "errorCode"), ErrorCode.FENCED_LEADER_EPOCH);
  assert.deepEqual(leaderOf(fetched(body)), { leaderId: 1, leaderEpoch: 1 });
  const endpoints = at(body, "nodeEndpoints") as Record<string, unknown>[];
  assert.deepEqual(
    endpoints.map(({ nodeId, port }) => ({ nodeId, port })),
    [{ nodeId: 1, port: 9001 }],
  );
});

test("a fenced leader is named without an endpoint", async () => {
  const broker = await followerOfBroker2(956);
  await broker.publish([fenceBroker(2, 20)]);
  const body = await broker.call(0, 11, produceRequest({ acks: 1 }));
  assert.equal(at(produced(body), "errorCode"), ErrorCode.NOT_LEADER_OR_FOLLOWER);
  assert.equal(leaderOf(produced(body)).leaderId, 2);
  assert.deepEqual(at(body, "nodeEndpoints"), []);
});

test("a successful Produce v11 carries no leader hint", async () => {
  const broker = await startBroker({ seed: 957 });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  const body = await broker.call(0, 11, produceRequest({ acks: 1 }));
  assert.equal(at(produced(body), "errorCode"), ErrorCode.NONE);
  assert.deepEqual(leaderOf(produced(body)), { leaderId: -1, leaderEpoch: -1 });
  assert.deepEqual(at(body, "nodeEndpoints"), []);
});
