import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { ApiKey, encodeResponse } from "../../protocol/index.js";
import type { CreateTopicsRequestCreatableTopic } from "../../protocol/index.js";
import { ConfigSource } from "../configs/index.js";
import {
  brokerRecord,
  imageOf,
  replay,
  seededRandom,
  testUuid,
  topicRecords,
} from "../cluster/controls.test-support.js";
import { createTopics } from "./create-topics.js";

const cluster = imageOf(
  brokerRecord(1),
  brokerRecord(2),
  brokerRecord(3),
  brokerRecord(4, { isFenced: true }),
);

function topic(
  name: string,
  overrides: Partial<CreateTopicsRequestCreatableTopic> = {},
): CreateTopicsRequestCreatableTopic {
  return {
    name,
    numPartitions: 3,
    replicationFactor: 2,
    assignments: [],
    configs: [],
    ...overrides,
  };
}

function create(
  image: MetadataImage,
  topics: CreateTopicsRequestCreatableTopic[],
  validateOnly = false,
) {
  const context = {
    image,
    random: seededRandom(7),
    defaults: { numPartitions: 2, defaultReplicationFactor: 1 },
    staticConfig: {},
  };
  return createTopics(context, { topics, timeoutMs: 1000, validateOnly });
}

test("a topic is created with a TopicRecord, configs and one PartitionRecord each", () => {
  const result = create(cluster, [
    topic("orders", { configs: [{ name: "retention.ms", value: "1000" }] }),
  ]);
  const [answer] = result.response.topics;
  assert.equal(answer?.errorCode, ErrorCode.NONE);
  assert.equal(answer?.numPartitions, 3);
  assert.equal(answer?.replicationFactor, 2);
  const retention = answer?.configs?.find((config) => config.name === "retention.ms");
  assert.deepEqual(retention, {
    name: "retention.ms",
    value: "1000",
    readOnly: false,
    configSource: ConfigSource.DYNAMIC_TOPIC_CONFIG,
    isSensitive: false,
  });
  const image = replay(cluster, result.records);
  const created = image.topics.byName.get("orders");
  assert.equal(created?.id, answer?.topicId);
  assert.equal(created?.partitions.size, 3);
  for (const partition of created?.partitions.values() ?? []) {
    assert.equal(partition.replicas.length, 2);
    assert.deepEqual(partition.isr, partition.replicas);
    assert.equal(partition.leader, partition.replicas[0]);
    assert.equal(partition.leaderEpoch, 0);
    assert.ok(!partition.replicas.includes(4 as never), "a fenced broker gets no replica");
    assert.equal(partition.directories[0], testUuid(9000 + partition.replicas[0]!));
  }
});

test("-1 takes num.partitions and default.replication.factor", () => {
  const result = create(cluster, [topic("t", { numPartitions: -1, replicationFactor: -1 })]);
  assert.equal(result.response.topics[0]?.numPartitions, 2);
  assert.equal(result.response.topics[0]?.replicationFactor, 1);
});

test("bad names are refused with INVALID_TOPIC_EXCEPTION", () => {
  for (const name of ["", ".", "..", "a".repeat(250), "a b", "é"]) {
    const [answer] = create(cluster, [topic(name)]).response.topics;
    assert.equal(answer?.errorCode, ErrorCode.INVALID_TOPIC_EXCEPTION, name);
  }
  assert.equal(
    create(cluster, [topic("a".repeat(249))]).response.topics[0]?.errorCode,
    ErrorCode.NONE,
  );
});

test("a name of the longest a request carries is refused in a response that encodes", () => {
  const name = "a".repeat(32_767);
  const { response } = create(cluster, [topic(name), topic(name)]);
  for (const answer of response.topics) {
    assert.ok((answer.errorMessage ?? "").length < 1000, "the message quotes a bounded part");
  }
  for (const version of [3, 4, 5, 7]) {
    const frame = encodeResponse({ correlationId: 1 }, ApiKey.CreateTopics, version, response);
    assert.ok(frame.length > 0, `CreateTopics v${version}`);
  }
});

test("existing topics, collisions and names given twice are refused", () => {
  const image = replay(cluster, topicRecords("a.b", testUuid(1), [[1]]));
  const result = create(image, [
    topic("a.b"),
    topic("a_b"),
    topic("x"),
    topic("x"),
    topic("c.d"),
    topic("c_d"),
  ]);
  const codes = result.response.topics.map((answer) => answer.errorCode);
  assert.deepEqual(codes, [
    ErrorCode.TOPIC_ALREADY_EXISTS,
    ErrorCode.INVALID_TOPIC_EXCEPTION,
    ErrorCode.INVALID_REQUEST,
    ErrorCode.INVALID_REQUEST,
    ErrorCode.NONE,
    ErrorCode.INVALID_TOPIC_EXCEPTION,
  ]);
  assert.match(result.response.topics[1]?.errorMessage ?? "", /collides with existing topic a\.b/);
});

test("partition counts and replication factors are checked", () => {
  const result = create(cluster, [
    topic("p0", { numPartitions: 0 }),
    topic("r0", { replicationFactor: 0 }),
    topic("r4", { replicationFactor: 4 }),
  ]);
  const codes = result.response.topics.map((answer) => answer.errorCode);
  assert.deepEqual(codes, [
    ErrorCode.INVALID_PARTITIONS,
    ErrorCode.INVALID_REPLICATION_FACTOR,
    ErrorCode.INVALID_REPLICATION_FACTOR,
  ]);
  assert.deepEqual(result.records, []);
});

test("manual assignments are used as given, and checked", () => {
  const manual = (assignments: { partitionIndex: number; brokerIds: number[] }[], extra = {}) =>
    topic("m", { numPartitions: -1, replicationFactor: -1, assignments, ...extra });
  const good = create(cluster, [
    manual([
      { partitionIndex: 0, brokerIds: [3, 1] },
      { partitionIndex: 1, brokerIds: [4, 2] },
    ]),
  ]);
  const image = replay(cluster, good.records);
  const partitions = image.topics.byName.get("m")?.partitions;
  assert.deepEqual(partitions?.get(0)?.replicas, [3, 1]);
  // A fenced replica starts outside the ISR; the first usable one leads.
  assert.deepEqual(partitions?.get(1)?.isr, [2]);
  assert.equal(partitions?.get(1)?.leader, 2);
  const bad = [
    manual([{ partitionIndex: 0, brokerIds: [1, 1] }]),
    manual([{ partitionIndex: 0, brokerIds: [1, 9] }]),
    manual([
      { partitionIndex: 0, brokerIds: [1, 2] },
      { partitionIndex: 1, brokerIds: [3] },
    ]),
    manual([{ partitionIndex: 0, brokerIds: [] }]),
    manual([{ partitionIndex: 1, brokerIds: [1] }]),
    manual([{ partitionIndex: 0, brokerIds: [4] }]),
  ];
  for (const request of bad) {
    assert.equal(
      create(cluster, [request]).response.topics[0]?.errorCode,
      ErrorCode.INVALID_REPLICA_ASSIGNMENT,
    );
  }
  const withCount = manual([{ partitionIndex: 0, brokerIds: [1] }], { numPartitions: 1 });
  assert.equal(
    create(cluster, [withCount]).response.topics[0]?.errorCode,
    ErrorCode.INVALID_REQUEST,
  );
});

test("unknown configs and bad values are refused with INVALID_CONFIG naming the key", () => {
  const unknown = create(cluster, [
    topic("t", { configs: [{ name: "retention.mss", value: "1" }] }),
  ]);
  assert.equal(unknown.response.topics[0]?.errorCode, ErrorCode.INVALID_CONFIG);
  const bad = create(cluster, [
    topic("t", { configs: [{ name: "cleanup.policy", value: "shred" }] }),
  ]);
  assert.equal(bad.response.topics[0]?.errorCode, ErrorCode.INVALID_CONFIG);
  assert.match(bad.response.topics[0]?.errorMessage ?? "", /cleanup\.policy/);
  const none = create(cluster, [topic("t", { configs: [{ name: "retention.ms", value: null }] })]);
  assert.equal(none.response.topics[0]?.errorCode, ErrorCode.INVALID_REQUEST);
});

test("validateOnly answers as if created and writes nothing", () => {
  const result = create(cluster, [topic("t")], true);
  assert.equal(result.response.topics[0]?.errorCode, ErrorCode.NONE);
  assert.equal(result.response.topics[0]?.numPartitions, 3);
  assert.deepEqual(result.records, []);
});

test("one request may not create more than 10,000 partitions", () => {
  const result = create(cluster, [topic("big", { numPartitions: 10_001, replicationFactor: 1 })]);
  assert.equal(result.response.topics[0]?.errorCode, ErrorCode.POLICY_VIOLATION);
  // Refused before a plan of that size is built: planning 2^31-1 partitions runs out of memory.
  const huge = create(cluster, [topic("huge", { numPartitions: 2 ** 31 - 1 })]);
  assert.equal(huge.response.topics[0]?.errorCode, ErrorCode.POLICY_VIOLATION);
  const many = create(cluster, [
    topic("a", { numPartitions: 6000, replicationFactor: 1 }),
    topic("b", { numPartitions: 6000, replicationFactor: 1 }),
  ]);
  assert.deepEqual(
    many.response.topics.map((created) => created.errorCode),
    [ErrorCode.NONE, ErrorCode.POLICY_VIOLATION],
  );
});
