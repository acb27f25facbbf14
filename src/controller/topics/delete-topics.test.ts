import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, ZERO_UUID } from "../../common/index.js";
import { ConfigResourceType } from "../../metadata/index.js";
import {
  brokerRecord,
  configRecordOf,
  imageOf,
  replay,
  seededRandom,
  testUuid,
  topicRecords,
} from "../cluster/controls.test-support.js";
import { createPartitions } from "./create-partitions.js";
import { deleteTopics } from "./delete-topics.js";

const image = imageOf(
  brokerRecord(1),
  brokerRecord(2),
  ...topicRecords("a", testUuid(1), [[1, 2]]),
  ...topicRecords("b", testUuid(2), [
    [2, 1],
    [1, 2],
  ]),
  configRecordOf(ConfigResourceType.TOPIC, "a", "retention.ms", "5"),
);

test("DeleteTopics by name (v0-v5) removes the topic and its configs", () => {
  const result = deleteTopics(image, { topics: [], topicNames: ["a", "zz"], timeoutMs: 1 }, 5);
  const codes = result.response.responses.map((answer) => answer.errorCode);
  assert.deepEqual(codes, [ErrorCode.NONE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]);
  const next = replay(image, result.records);
  assert.equal(next.topics.byName.has("a"), false);
  assert.equal(next.configs.resources.size, 0);
});

test("DeleteTopics v6 takes names or ids, and refuses both, neither and repeats", () => {
  const topics = [
    { name: null, topicId: testUuid(2) },
    { name: null, topicId: testUuid(3) },
    { name: "a", topicId: testUuid(1) },
    { name: null, topicId: ZERO_UUID },
  ];
  const result = deleteTopics(image, { topics, topicNames: [], timeoutMs: 1 }, 6);
  const codes = result.response.responses.map((answer) => answer.errorCode);
  assert.deepEqual(codes, [
    ErrorCode.NONE,
    ErrorCode.UNKNOWN_TOPIC_ID,
    ErrorCode.INVALID_REQUEST,
    ErrorCode.INVALID_REQUEST,
  ]);
  assert.equal(result.response.responses[0]?.name, "b");
  const twice = deleteTopics(
    image,
    {
      topics: [
        { name: "a", topicId: ZERO_UUID },
        { name: null, topicId: testUuid(1) },
      ],
      topicNames: [],
      timeoutMs: 1,
    },
    6,
  );
  assert.deepEqual(
    twice.response.responses.map((answer) => answer.errorCode),
    [ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_REQUEST],
  );
  assert.deepEqual(twice.records, []);
});

function grow(
  topics: { name: string; count: number; assignments: { brokerIds: number[] }[] | null }[],
  validateOnly = false,
) {
  return createPartitions(
    { image, random: seededRandom(3) },
    { topics, timeoutMs: 1, validateOnly },
  );
}

test("CreatePartitions adds partitions with the topic's replication factor", () => {
  const result = grow([{ name: "a", count: 3, assignments: null }]);
  assert.equal(result.response.results[0]?.errorCode, ErrorCode.NONE);
  const partitions = replay(image, result.records).topics.byName.get("a")?.partitions;
  assert.equal(partitions?.size, 3);
  assert.equal(partitions?.get(2)?.replicas.length, 2);
  assert.deepEqual(grow([{ name: "a", count: 3, assignments: null }], true).records, []);
});

test("CreatePartitions refuses decreases, unknown topics and bad assignments", () => {
  const result = grow([
    { name: "b", count: 2, assignments: null },
    { name: "b", count: 1, assignments: null },
    { name: "zz", count: 4, assignments: null },
  ]);
  assert.deepEqual(
    result.response.results.map((answer) => answer.errorCode),
    [ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_REQUEST, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
  );
  const codes = [
    grow([{ name: "b", count: 2, assignments: null }]),
    grow([{ name: "b", count: 1, assignments: null }]),
    grow([{ name: "a", count: 3, assignments: [{ brokerIds: [1, 2] }] }]),
    grow([{ name: "a", count: 2, assignments: [{ brokerIds: [1] }] }]),
    grow([{ name: "a", count: 2, assignments: [{ brokerIds: [1, 7] }] }]),
  ].map((answer) => answer.response.results[0]?.errorCode);
  assert.deepEqual(codes, [
    ErrorCode.INVALID_PARTITIONS,
    ErrorCode.INVALID_PARTITIONS,
    ErrorCode.INVALID_REPLICA_ASSIGNMENT,
    ErrorCode.INVALID_REPLICA_ASSIGNMENT,
    ErrorCode.INVALID_REPLICA_ASSIGNMENT,
  ]);
  const assigned = grow([{ name: "a", count: 2, assignments: [{ brokerIds: [2, 1] }] }]);
  assert.deepEqual(
    replay(image, assigned.records).topics.byName.get("a")?.partitions.get(1)?.replicas,
    [2, 1],
  );
});
