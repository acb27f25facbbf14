import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import {
  broker,
  changeRecords,
  imageOf,
  partition,
  topic,
  uuid,
} from "../partition-control.test-support.js";
import { ElectionTypeCode, electLeaders } from "./elect-leaders.js";

const FOO = uuid(1);
const BAR = uuid(2);

const image = imageOf([
  broker(1),
  broker(2),
  broker(3, { isFenced: true }),
  topic("foo", FOO),
  partition(FOO, 0, { replicas: [1, 2], leader: 2 }),
  partition(FOO, 1, { replicas: [1, 2] }),
  partition(FOO, 2, { replicas: [3, 2], leader: 2 }),
  partition(FOO, 3, { replicas: [1, 3], isr: [3], leader: -1 }),
  topic("bar", BAR),
  partition(BAR, 0, { replicas: [2, 1], leader: 1 }),
]);

function codes(response: ReturnType<typeof electLeaders>["response"]) {
  return response.replicaElectionResults.map((topicResult) => [
    topicResult.topic,
    topicResult.partitionResult.map((result) => [result.partitionId, result.errorCode]),
  ]);
}

test("a preferred election moves leadership to an eligible first replica", () => {
  const request = {
    electionType: ElectionTypeCode.PREFERRED,
    topicPartitions: [
      { topic: "foo", partitions: [0, 1, 2, 9] },
      { topic: "nope", partitions: [0] },
    ],
    timeoutMs: 1000,
  };
  const result = electLeaders(image, request);
  assert.deepEqual(codes(result.response), [
    [
      "foo",
      [
        [0, ErrorCode.NONE],
        [1, ErrorCode.ELECTION_NOT_NEEDED],
        [2, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE],
        [9, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
      ],
    ],
    ["nope", [[0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]]],
  ]);
  assert.deepEqual(
    changeRecords(result.records).map((record) => [record.partitionId, record.leader]),
    [[0, 1]],
  );
  assert.equal(result.response.replicaElectionResults[0]?.partitionResult[0]?.errorMessage, null);
  assert.equal(result.elections[0]?.outcome, "preferred");
});

test("an unclean election gives a leaderless partition a live replica outside the ISR", () => {
  const request = {
    electionType: ElectionTypeCode.UNCLEAN,
    topicPartitions: [{ topic: "foo", partitions: [0, 3] }],
    timeoutMs: 1000,
  };
  const result = electLeaders(image, request);
  assert.deepEqual(codes(result.response), [
    [
      "foo",
      [
        [0, ErrorCode.ELECTION_NOT_NEEDED],
        [3, ErrorCode.NONE],
      ],
    ],
  ]);
  const [record] = changeRecords(result.records);
  assert.equal(record?.leader, 1);
  assert.deepEqual(record?.isr, [1]);
  assert.equal(record?.leaderRecoveryState, 1);
});

test("an unclean election without a live replica is ELIGIBLE_LEADERS_NOT_AVAILABLE", () => {
  const offline = imageOf([broker(1, { isFenced: true })], image);
  const request = {
    electionType: ElectionTypeCode.UNCLEAN,
    topicPartitions: [{ topic: "foo", partitions: [3] }],
    timeoutMs: 1000,
  };
  assert.deepEqual(codes(electLeaders(offline, request).response), [
    ["foo", [[3, ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE]]],
  ]);
});

test("null topic partitions elect everywhere and leave out partitions that need nothing", () => {
  const request = {
    electionType: ElectionTypeCode.PREFERRED,
    topicPartitions: null,
    timeoutMs: 1000,
  };
  const result = electLeaders(image, request);
  assert.deepEqual(codes(result.response), [
    ["bar", [[0, ErrorCode.NONE]]],
    [
      "foo",
      [
        [0, ErrorCode.NONE],
        [2, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE],
        [3, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE],
      ],
    ],
  ]);
  assert.equal(result.records.length, 2);
});

test("an undefined election type is INVALID_REQUEST", () => {
  const request = {
    electionType: 5,
    topicPartitions: [{ topic: "foo", partitions: [0] }],
    timeoutMs: 1,
  };
  const result = electLeaders(image, request);
  assert.equal(result.response.errorCode, ErrorCode.INVALID_REQUEST);
  assert.deepEqual(codes(result.response), [["foo", [[0, ErrorCode.INVALID_REQUEST]]]]);
  assert.deepEqual(result.records, []);
});
