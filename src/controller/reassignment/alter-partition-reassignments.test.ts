import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import {
  applyOutput,
  broker,
  changeRecords,
  imageOf,
  partition,
  partitionOf,
  topic,
  topicConfig,
  uuid,
} from "../partition-control.test-support.js";
import type { TestPartition } from "../partition-control.test-support.js";
import { alterPartition } from "../isr/index.js";
import { alterPartitionReassignments } from "./alter-partition-reassignments.js";
import { listPartitionReassignments } from "./list-partition-reassignments.js";

const FOO = uuid(1);

function image(state: TestPartition, extra = [broker(4)]): MetadataImage {
  return imageOf([
    broker(1),
    broker(2),
    broker(3),
    ...extra,
    topic("foo", FOO),
    partition(FOO, 0, state),
  ]);
}

function reassign(
  current: MetadataImage,
  replicas: number[] | null,
  topicName = "foo",
  partitionIndex = 0,
) {
  const request = {
    timeoutMs: 1000,
    topics: [{ name: topicName, partitions: [{ partitionIndex, replicas }] }],
  };
  const result = alterPartitionReassignments(current, request);
  return { ...result, partitionResult: result.response.responses[0]?.partitions[0] };
}

test("a reassignment adds the target replicas, waits for the ISR, then switches and elects", () => {
  const start = image({ replicas: [1, 2, 3] });
  const first = reassign(start, [2, 3, 4]);
  assert.equal(first.partitionResult?.errorCode, ErrorCode.NONE);
  const [record] = changeRecords(first.records);
  assert.deepEqual(record?.replicas, [2, 3, 4, 1]);
  assert.deepEqual(record?.addingReplicas, [4]);
  assert.deepEqual(record?.removingReplicas, [1]);
  assert.equal(record?.directories?.length, 4);
  const moving = applyOutput(start, first.records);
  const listed = listPartitionReassignments(moving, { timeoutMs: 1, topics: null }).response;
  assert.deepEqual(listed.topics, [
    {
      name: "foo",
      partitions: [
        { partitionIndex: 0, replicas: [2, 3, 4, 1], addingReplicas: [4], removingReplicas: [1] },
      ],
    },
  ]);
  const state = partitionOf(moving, FOO, 0);
  const alter = {
    brokerId: 1,
    brokerEpoch: 101,
    topics: [
      {
        topicName: "foo",
        topicId: FOO,
        partitions: [
          {
            partitionIndex: 0,
            leaderEpoch: state.leaderEpoch,
            newIsr: [1, 2, 3, 4],
            newIsrWithEpochs: [],
            leaderRecoveryState: 0,
            partitionEpoch: state.partitionEpoch,
          },
        ],
      },
    ],
  };
  const done = applyOutput(moving, alterPartition(moving, alter, 2).records);
  const after = partitionOf(done, FOO, 0);
  assert.deepEqual(after.replicas, [2, 3, 4]);
  assert.deepEqual(after.isr, [2, 3, 4]);
  assert.equal(after.leader, 2);
  assert.deepEqual(
    listPartitionReassignments(done, { timeoutMs: 1, topics: null }).response.topics,
    [],
  );
});

test("a target the ISR already covers completes at once", () => {
  const result = reassign(image({ replicas: [1, 2, 3] }), [3, 2]);
  const [record] = changeRecords(result.records);
  assert.deepEqual(record?.replicas, [3, 2]);
  assert.deepEqual(record?.isr, [2, 3]);
  assert.equal(record?.leader, 3, "the first replica of the target that is in the ISR");
  assert.equal(record?.removingReplicas, null, "nothing was being removed before or after");
});

test("a bad target is INVALID_REPLICA_ASSIGNMENT", () => {
  const current = image({ replicas: [1, 2, 3] });
  for (const target of [[], [1, 9], [1, 2, 2]]) {
    assert.equal(
      reassign(current, target).partitionResult?.errorCode,
      ErrorCode.INVALID_REPLICA_ASSIGNMENT,
    );
  }
});

test("unknown topics and partitions are UNKNOWN_TOPIC_OR_PARTITION", () => {
  const current = image({ replicas: [1, 2, 3] });
  assert.equal(
    reassign(current, [1], "bar").partitionResult?.errorCode,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  );
  assert.equal(
    reassign(current, [1], "foo", 3).partitionResult?.errorCode,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  );
});

test("cancelling takes the adding replicas out again", () => {
  const current = image({ replicas: [2, 3, 4, 1], isr: [1, 2, 3, 4], adding: [4], removing: [1] });
  const result = reassign(current, null);
  assert.equal(result.partitionResult?.errorCode, ErrorCode.NONE);
  const [record] = changeRecords(result.records);
  assert.deepEqual(record?.replicas, [2, 3, 1]);
  assert.deepEqual(record?.isr, [1, 2, 3]);
  assert.deepEqual(record?.addingReplicas, []);
  assert.deepEqual(record?.removingReplicas, []);
});

test("cancelling without a reassignment is NO_REASSIGNMENT_IN_PROGRESS", () => {
  const result = reassign(image({ replicas: [1, 2, 3] }), null);
  assert.equal(result.partitionResult?.errorCode, ErrorCode.NO_REASSIGNMENT_IN_PROGRESS);
  assert.deepEqual(result.records, []);
});

test("a cancel that needs an unclean election needs the topic's consent", () => {
  const state = { replicas: [4, 1], isr: [4], adding: [4], removing: [1] };
  const strict = reassign(image(state), null);
  assert.equal(strict.partitionResult?.errorCode, ErrorCode.INVALID_REPLICA_ASSIGNMENT);
  const lenient = image(state, [
    broker(4),
    topicConfig("foo", "unclean.leader.election.enable", "true"),
  ]);
  const [record] = changeRecords(reassign(lenient, null).records);
  assert.deepEqual(record?.replicas, [1]);
  assert.deepEqual(record?.isr, [1]);
  assert.equal(record?.leader, 1);
});

test("listing named topics leaves out unknown topics and partitions without a reassignment", () => {
  const current = image({ replicas: [2, 3, 4, 1], adding: [4], removing: [1] });
  const request = {
    timeoutMs: 1,
    topics: [
      { name: "foo", partitionIndexes: [0, 1] },
      { name: "bar", partitionIndexes: [0] },
    ],
  };
  const listed = listPartitionReassignments(current, request);
  assert.deepEqual(
    listed.response.topics.map((topicEntry) =>
      topicEntry.partitions.map((entry) => entry.partitionIndex),
    ),
    [[0]],
  );
  assert.deepEqual(listed.records, []);
  assert.equal(listed.response.errorCode, ErrorCode.NONE);
});
