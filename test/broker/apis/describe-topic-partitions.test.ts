/**
 * DescribeTopicPartitions (KIP-966) as Kafka's handler answers it: name order, the partition
 * limit with a cursor to go on from, missing and invalid topics, and invalid cursors.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import {
  partitionRecord,
  testUuid,
  topicRecord,
} from "../../../src/metadata/records.test-support.js";
import { at, startBroker } from "./harness.js";

const DESCRIBE_TOPIC_PARTITIONS = 75;

type Answer = {
  topics: {
    name: string;
    errorCode: number;
    isInternal: boolean;
    partitions: { partitionIndex: number; leaderId: number; replicaNodes: number[] }[];
  }[];
  nextCursor: { topicName: string; partitionIndex: number } | null;
};

/** Topics "a" (3 partitions), "b" (2) and "c" (1), every partition on broker 1. */
async function brokerWithTopics(seed: number) {
  const broker = await startBroker({ seed });
  const records = [];
  for (const [index, [name, count]] of [
    ["b", 2],
    ["a", 3],
    ["c", 1],
  ].entries()) {
    const id = testUuid(90 + index);
    records.push(topicRecord(name as string, id));
    for (let partition = 0; partition < (count as number); partition++) {
      records.push(partitionRecord(id, partition, [1]));
    }
  }
  await broker.publish(records);
  const describe = async (body: object) =>
    (await broker.call(DESCRIBE_TOPIC_PARTITIONS, 0, body)) as unknown as Answer;
  return { broker, describe };
}

/** The answer as `topic-partition` names, the errors of topics without partitions, the cursor. */
function summaryOf(answer: Answer): string[] {
  const lines = answer.topics.flatMap(({ name, errorCode, partitions }) =>
    partitions.length === 0
      ? [`${name}:${errorCode}`]
      : partitions.map(({ partitionIndex }) => `${name}-${partitionIndex}`),
  );
  const cursor = answer.nextCursor;
  return cursor === null ? lines : [...lines, `next ${cursor.topicName}-${cursor.partitionIndex}`];
}

test("every topic is described in name order, page by page after the partition limit", async () => {
  const { describe } = await brokerWithTopics(751);
  const all = await describe({ topics: [], responsePartitionLimit: 2000, cursor: null });
  assert.deepEqual(summaryOf(all), ["a-0", "a-1", "a-2", "b-0", "b-1", "c-0"]);
  assert.equal(all.topics[0]?.partitions[0]?.leaderId, 1);
  assert.deepEqual(all.topics[0]?.partitions[0]?.replicaNodes, [1]);
  const first = await describe({ topics: [], responsePartitionLimit: 2, cursor: null });
  assert.deepEqual(summaryOf(first), ["a-0", "a-1", "next a-2"]);
  const second = await describe({
    topics: [],
    responsePartitionLimit: 2,
    cursor: first.nextCursor,
  });
  assert.deepEqual(summaryOf(second), ["a-2", "b-0", "next b-1"]);
  const third = await describe({
    topics: [],
    responsePartitionLimit: 3,
    cursor: second.nextCursor,
  });
  assert.deepEqual(summaryOf(third), ["b-1", "c-0"]);
  // A topic filled exactly: the cursor points at the start of the next one.
  const exact = await describe({ topics: [], responsePartitionLimit: 3, cursor: null });
  assert.deepEqual(summaryOf(exact), ["a-0", "a-1", "a-2", "next b-0"]);
  // A limit below 1 is taken as 1, as Kafka bounds it.
  const one = await describe({ topics: [], responsePartitionLimit: 0, cursor: null });
  assert.deepEqual(summaryOf(one), ["a-0", "next a-1"]);
});

test("named topics: missing ones get their error; invalid cursors are refused", async () => {
  const { describe } = await brokerWithTopics(752);
  const unknown = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
  const named = [{ name: "c" }, { name: "missing" }, { name: "a" }, { name: "bad/name" }];
  const answer = await describe({ topics: named, responsePartitionLimit: 10, cursor: null });
  assert.deepEqual(summaryOf(answer), [
    "a-0",
    "a-1",
    "a-2",
    `bad/name:${ErrorCode.INVALID_TOPIC_EXCEPTION}`,
    "c-0",
    `missing:${unknown}`,
  ]);
  const fromCursor = await describe({
    topics: named,
    responsePartitionLimit: 10,
    cursor: { topicName: "c", partitionIndex: 0 },
  });
  assert.deepEqual(summaryOf(fromCursor), ["c-0", `missing:${unknown}`]);
  const invalid = ErrorCode.INVALID_REQUEST;
  const notNamed = await describe({
    topics: [{ name: "a" }],
    responsePartitionLimit: 10,
    cursor: { topicName: "b", partitionIndex: 0 },
  });
  assert.deepEqual(summaryOf(notNamed), [`a:${invalid}`]);
  const negative = await describe({
    topics: [],
    responsePartitionLimit: 10,
    cursor: { topicName: "a", partitionIndex: -1 },
  });
  assert.deepEqual(summaryOf(negative), []);
  assert.equal(at(negative, "nextCursor"), null);
});
