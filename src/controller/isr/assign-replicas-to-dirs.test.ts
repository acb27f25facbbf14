import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { Uuid } from "../../common/index.js";
import type { AssignReplicasToDirsRequest } from "../../protocol/index.js";
import {
  applyOutput,
  broker,
  changeRecords,
  feature,
  imageOf,
  partition,
  partitionOf,
  topic,
  uuid,
} from "../partition-control.test-support.js";
import { assignReplicasToDirs } from "./assign-replicas-to-dirs.js";

const FOO = uuid(1);
const DIR_A = uuid(71);
const DIR_B = uuid(72);
const MIGRATING = "0".repeat(32) as Uuid;

function cluster(metadataVersion = 22) {
  return imageOf([
    feature("metadata.version", metadataVersion),
    broker(1, { directories: [DIR_A, DIR_B] }),
    broker(2, { directories: [uuid(81)] }),
    broker(3, { directories: [uuid(91)] }),
    topic("foo", FOO),
    partition(FOO, 0, { replicas: [1, 2, 3], directories: [MIGRATING, uuid(81), uuid(91)] }),
    partition(FOO, 1, { replicas: [2, 3], directories: [uuid(81), uuid(91)] }),
  ]);
}

function request(
  directory: Uuid,
  partitions: number[],
  options: { brokerEpoch?: number; topicId?: Uuid } = {},
): AssignReplicasToDirsRequest {
  return {
    brokerId: 1,
    brokerEpoch: options.brokerEpoch ?? 101,
    directories: [
      {
        id: directory,
        topics: [
          {
            topicId: options.topicId ?? FOO,
            partitions: partitions.map((partitionIndex) => ({ partitionIndex })),
          },
        ],
      },
    ],
  };
}

function errorCodes(result: ReturnType<typeof assignReplicasToDirs>): number[] {
  return result.response.directories.flatMap((directory) =>
    directory.topics.flatMap((topicData) => topicData.partitions.map((p) => p.errorCode)),
  );
}

test("a broker's assignment records the replica's log dir and changes nothing else", () => {
  const image = cluster();
  const result = assignReplicasToDirs(image, request(DIR_B, [0]));
  assert.equal(result.response.errorCode, ErrorCode.NONE);
  assert.deepEqual(errorCodes(result), [ErrorCode.NONE]);
  const [record] = changeRecords(result.records);
  assert.deepEqual(record?.directories, [DIR_B, uuid(81), uuid(91)]);
  assert.equal(record?.isr, null);
  assert.equal(record?.leader, -2, "no leader change");
  const after = partitionOf(applyOutput(image, result.records), FOO, 0);
  assert.deepEqual(after.directories, [DIR_B, uuid(81), uuid(91)]);
  assert.equal(after.leader, 1);
  assert.equal(
    assignReplicasToDirs(applyOutput(image, result.records), request(DIR_B, [0])).records.length,
    0,
    "the same assignment again writes nothing",
  );
});

test("an assignment to a dir the broker no longer has online moves the replica out", () => {
  const image = cluster();
  const result = assignReplicasToDirs(image, request(uuid(99), [0]));
  const [record] = changeRecords(result.records);
  assert.deepEqual(record?.directories, [uuid(99), uuid(81), uuid(91)]);
  assert.deepEqual(record?.isr, [2, 3]);
  assert.equal(record?.leader, 2);
});

test("assignments are refused per partition as Kafka refuses them", () => {
  const image = cluster();
  const result = assignReplicasToDirs(image, request(DIR_A, [1, 7]));
  assert.deepEqual(errorCodes(result), [
    ErrorCode.NOT_LEADER_OR_FOLLOWER,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  ]);
  assert.equal(result.records.length, 0);
  const unknownTopic = assignReplicasToDirs(image, request(DIR_A, [0], { topicId: uuid(5) }));
  assert.deepEqual(errorCodes(unknownTopic), [ErrorCode.UNKNOWN_TOPIC_ID]);
});

test("a stale broker epoch or an old metadata.version refuses the whole request", () => {
  const stale = assignReplicasToDirs(cluster(), request(DIR_A, [0], { brokerEpoch: 7 }));
  assert.equal(stale.response.errorCode, ErrorCode.STALE_BROKER_EPOCH);
  assert.equal(stale.records.length, 0);
  const old = assignReplicasToDirs(cluster(14), request(DIR_A, [0]));
  assert.equal(old.response.errorCode, ErrorCode.UNSUPPORTED_VERSION);
  assert.equal(old.records.length, 0);
});
