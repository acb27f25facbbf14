/**
 * Authorized operations where a request asks for them (Metadata v8+, DescribeCluster), and
 * ListOffsets v9's latest-tiered timestamp, answered as Kafka answers without an authorizer and
 * without tiered storage.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import { partitionRecord, topicRecord } from "../../../src/metadata/records.test-support.js";
import { TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { listOffsetsRequest, produceRequest } from "./requests.js";

/** READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS. */
const TOPIC_OPERATIONS = 3576;
/** CREATE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE. */
const CLUSTER_OPERATIONS = 8096;
const OMITTED = -2147483648;

async function brokerWithOrders(seed: number) {
  const broker = await startBroker({ seed });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  return broker;
}

/** A Metadata request; v11 removed includeClusterAuthorizedOperations. */
function metadataBody(version: number, asked: boolean, topics: object[]) {
  const body = { topics, allowAutoTopicCreation: false, includeTopicAuthorizedOperations: asked };
  return version <= 10 ? { ...body, includeClusterAuthorizedOperations: asked } : body;
}

test("Metadata v8+ gives all supported operations when asked, cluster ones to v10", async () => {
  const broker = await brokerWithOrders(701);
  const named = [{ name: "orders", topicId: TOPIC_ID }];
  for (const version of [8, 9, 10]) {
    const asked = await broker.call(3, version, metadataBody(version, true, named));
    assert.equal(at(asked, "topics", 0, "topicAuthorizedOperations"), TOPIC_OPERATIONS);
    assert.equal(at(asked, "clusterAuthorizedOperations"), CLUSTER_OPERATIONS);
    const quiet = await broker.call(3, version, metadataBody(version, false, named));
    assert.equal(at(quiet, "topics", 0, "topicAuthorizedOperations"), OMITTED);
    assert.equal(at(quiet, "clusterAuthorizedOperations"), OMITTED);
  }
  const missing = [...named, { name: "absent", topicId: "0".repeat(32) }];
  const latest = await broker.call(3, 12, metadataBody(12, true, missing));
  assert.equal(at(latest, "topics", 0, "topicAuthorizedOperations"), TOPIC_OPERATIONS);
  // Kafka sets the operations of every topic it looked up by name, found or not.
  assert.equal(at(latest, "topics", 1, "errorCode"), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  assert.equal(at(latest, "topics", 1, "topicAuthorizedOperations"), TOPIC_OPERATIONS);
  const unknownId = [{ name: null, topicId: "e".repeat(32) }];
  const byId = await broker.call(3, 12, metadataBody(12, true, unknownId));
  assert.equal(at(byId, "topics", 0, "errorCode"), ErrorCode.UNKNOWN_TOPIC_ID);
  assert.equal(at(byId, "topics", 0, "topicAuthorizedOperations"), OMITTED);
});

test("DescribeCluster gives the cluster's operations only when asked", async () => {
  const broker = await brokerWithOrders(702);
  for (const version of [0, 1]) {
    const asked = await broker.call(60, version, {
      includeClusterAuthorizedOperations: true,
      endpointType: 1,
    });
    assert.equal(at(asked, "errorCode"), ErrorCode.NONE);
    assert.equal(at(asked, "clusterAuthorizedOperations"), CLUSTER_OPERATIONS);
    const quiet = await broker.call(60, version, {
      includeClusterAuthorizedOperations: false,
      endpointType: 1,
    });
    assert.equal(at(quiet, "clusterAuthorizedOperations"), OMITTED);
  }
});

test("ListOffsets v9: latest tiered (-5) is offset -1 without tiered storage", async () => {
  const broker = await brokerWithOrders(703);
  await broker.call(0, 9, produceRequest({ acks: 1 }));
  const lookUp = async (timestamp: number) => {
    const body = await broker.call(2, 9, listOffsetsRequest([{ partitionIndex: 0, timestamp }]));
    return at(body, "topics", 0, "partitions", 0);
  };
  const { errorCode, timestamp, offset, leaderEpoch } = (await lookUp(-5)) as Record<
    string,
    number
  >;
  assert.deepEqual([errorCode, timestamp, offset, leaderEpoch], [ErrorCode.NONE, -1, -1, -1]);
  const earliestLocal = (await lookUp(-4)) as { offset: number };
  assert.equal(earliestLocal.offset, 0);
  const latest = (await lookUp(-1)) as { offset: number };
  assert.equal(latest.offset, 2);
});
