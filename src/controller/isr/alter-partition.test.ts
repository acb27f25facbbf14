import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type {
  AlterPartitionRequest,
  AlterPartitionRequestPartitionData,
} from "../../protocol/index.js";
import {
  applyOutput,
  broker,
  changeRecords,
  imageOf,
  partition,
  partitionOf,
  topic,
  uuid,
} from "../partition-control.test-support.js";
import type { TestPartition } from "../partition-control.test-support.js";
import { alterPartition } from "./alter-partition.js";

const FOO = uuid(1);

function image(state: TestPartition, brokers = [broker(1), broker(2), broker(3)]): MetadataImage {
  return imageOf([...brokers, topic("foo", FOO), partition(FOO, 0, state)]);
}

function entry(
  changes: Partial<AlterPartitionRequestPartitionData> = {},
): AlterPartitionRequestPartitionData {
  return {
    partitionIndex: 0,
    leaderEpoch: 5,
    newIsr: [1, 2, 3],
    newIsrWithEpochs: [],
    leaderRecoveryState: 0,
    partitionEpoch: 10,
    ...changes,
  };
}

function request(
  partitions: AlterPartitionRequestPartitionData[],
  extra: Partial<AlterPartitionRequest> = {},
) {
  return {
    brokerId: 1,
    brokerEpoch: 101,
    topics: [{ topicName: "foo", topicId: FOO, partitions }],
    ...extra,
  };
}

function errorOf(
  current: MetadataImage,
  data: AlterPartitionRequestPartitionData,
  version = 2,
): number {
  const result = alterPartition(current, request([data]), version);
  return result.response.topics[0]?.partitions[0]?.errorCode ?? -1;
}

test("the leader grows its ISR and gets the new partition state back", () => {
  const current = image({ replicas: [1, 2, 3], isr: [1, 2] });
  const result = alterPartition(current, request([entry()]), 2);
  const [record] = changeRecords(result.records);
  assert.deepEqual(record?.isr, [1, 2, 3]);
  assert.equal(record?.leader, -2);
  assert.deepEqual(result.response.topics[0]?.partitions[0], {
    partitionIndex: 0,
    errorCode: 0,
    leaderId: 1,
    leaderEpoch: 5,
    isr: [1, 2, 3],
    leaderRecoveryState: 0,
    partitionEpoch: 11,
  });
  assert.deepEqual(partitionOf(applyOutput(current, result.records), FOO, 0).isr, [1, 2, 3]);
});

test("a request from a broker with another epoch is refused as a whole", () => {
  const current = image({ replicas: [1, 2, 3] });
  const result = alterPartition(current, request([entry()], { brokerEpoch: 7 }), 2);
  assert.equal(result.response.errorCode, ErrorCode.STALE_BROKER_EPOCH);
  assert.deepEqual(result.records, []);
  const unknown = alterPartition(current, request([entry()], { brokerId: 9 }), 2);
  assert.equal(unknown.response.errorCode, ErrorCode.STALE_BROKER_EPOCH);
});

test("unknown topics are UNKNOWN_TOPIC_ID by id and UNKNOWN_TOPIC_OR_PARTITION by name", () => {
  const current = image({ replicas: [1, 2, 3] });
  const byId = alterPartition(
    current,
    { ...request([entry()]), topics: [{ topicName: "", topicId: uuid(9), partitions: [entry()] }] },
    2,
  );
  assert.equal(byId.response.topics[0]?.partitions[0]?.errorCode, ErrorCode.UNKNOWN_TOPIC_ID);
  const byName = alterPartition(
    current,
    {
      ...request([entry()]),
      topics: [{ topicName: "bar", topicId: uuid(0), partitions: [entry()] }],
    },
    1,
  );
  assert.equal(
    byName.response.topics[0]?.partitions[0]?.errorCode,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  );
  assert.equal(
    errorOf(current, entry({ partitionIndex: 4 })),
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  );
});

test("version 0 and 1 requests name the topic", () => {
  const current = image({ replicas: [1, 2, 3], isr: [1, 2] });
  const result = alterPartition(
    current,
    {
      ...request([entry()]),
      topics: [{ topicName: "foo", topicId: uuid(0), partitions: [entry()] }],
    },
    0,
  );
  assert.equal(result.response.topics[0]?.partitions[0]?.errorCode, ErrorCode.NONE);
});

test("epochs are checked in Kafka's order", () => {
  const current = image({ replicas: [1, 2, 3], leaderEpoch: 5, partitionEpoch: 10 });
  assert.equal(errorOf(current, entry({ leaderEpoch: 6 })), ErrorCode.NOT_CONTROLLER);
  assert.equal(errorOf(current, entry({ partitionEpoch: 11 })), ErrorCode.NOT_CONTROLLER);
  assert.equal(errorOf(current, entry({ leaderEpoch: 4 })), ErrorCode.FENCED_LEADER_EPOCH);
  assert.equal(errorOf(current, entry({ partitionEpoch: 9 })), ErrorCode.INVALID_UPDATE_VERSION);
});

test("only the leader may alter the ISR", () => {
  const current = image({ replicas: [1, 2, 3], leader: 2 });
  assert.equal(errorOf(current, entry()), ErrorCode.INVALID_REQUEST);
});

test("the new ISR must be replicas, without duplicates, with the leader", () => {
  const current = image({ replicas: [1, 2, 3], isr: [1, 2] });
  assert.equal(errorOf(current, entry({ newIsr: [1, 4] })), ErrorCode.INVALID_REQUEST);
  assert.equal(errorOf(current, entry({ newIsr: [1, 2, 2] })), ErrorCode.INVALID_REQUEST);
  assert.equal(errorOf(current, entry({ newIsr: [2, 3] })), ErrorCode.INVALID_REQUEST);
});

test("a recovering leader keeps a one-member ISR and may only become recovered", () => {
  const recovering = image({ replicas: [1, 2, 3], isr: [1], isRecovering: true });
  assert.equal(
    errorOf(recovering, entry({ newIsr: [1, 2], leaderRecoveryState: 1 })),
    ErrorCode.INVALID_REQUEST,
  );
  const recovered = image({ replicas: [1, 2, 3], isr: [1] });
  assert.equal(
    errorOf(recovered, entry({ newIsr: [1], leaderRecoveryState: 1 })),
    ErrorCode.INVALID_REQUEST,
  );
  assert.equal(
    errorOf(recovered, entry({ newIsr: [1], leaderRecoveryState: 7 })),
    ErrorCode.INVALID_REQUEST,
  );
  const result = alterPartition(
    recovering,
    request([entry({ newIsr: [1, 2], leaderRecoveryState: 0 })]),
    2,
  );
  const [record] = changeRecords(result.records);
  assert.equal(record?.leaderRecoveryState, 0);
  assert.deepEqual(record?.isr, [1, 2]);
});

test("fenced, shutting-down and unregistered replicas may not join the ISR", () => {
  const brokers = [
    broker(1),
    broker(2, { isFenced: true }),
    broker(3, { isInControlledShutdown: true }),
  ];
  const current = image({ replicas: [1, 2, 3, 4], isr: [1] }, brokers);
  for (const newIsr of [
    [1, 2],
    [1, 3],
    [1, 4],
  ]) {
    assert.equal(errorOf(current, entry({ newIsr })), ErrorCode.INELIGIBLE_REPLICA);
    assert.equal(errorOf(current, entry({ newIsr }), 1), ErrorCode.OPERATION_NOT_ATTEMPTED);
  }
});

test("version 3 checks each new ISR member's broker epoch (KIP-903)", () => {
  const current = image({ replicas: [1, 2, 3], isr: [1] });
  const stale = entry({
    newIsrWithEpochs: [
      { brokerId: 1, brokerEpoch: 101 },
      { brokerId: 2, brokerEpoch: 5 },
    ],
  });
  assert.equal(errorOf(current, stale, 3), ErrorCode.INELIGIBLE_REPLICA);
  const fresh = entry({
    newIsrWithEpochs: [
      { brokerId: 1, brokerEpoch: 101 },
      { brokerId: 2, brokerEpoch: 102 },
    ],
  });
  assert.equal(errorOf(current, fresh, 3), ErrorCode.NONE);
  const skipped = entry({
    newIsrWithEpochs: [
      { brokerId: 1, brokerEpoch: -1 },
      { brokerId: 2, brokerEpoch: -1 },
    ],
  });
  assert.equal(errorOf(current, skipped, 3), ErrorCode.NONE);
});

test("an ISR completing a reassignment that moves the leader gets NEW_LEADER_ELECTED", () => {
  const state = { replicas: [2, 3, 1], isr: [1, 2], adding: [3], removing: [1] };
  const current = image(state);
  const result = alterPartition(current, request([entry({ newIsr: [1, 2, 3] })]), 2);
  const [record] = changeRecords(result.records);
  assert.deepEqual(record?.replicas, [2, 3]);
  assert.deepEqual(record?.isr, [2, 3]);
  assert.equal(record?.leader, 2);
  assert.deepEqual(record?.addingReplicas, []);
  assert.deepEqual(record?.removingReplicas, []);
  assert.equal(result.response.topics[0]?.partitions[0]?.errorCode, ErrorCode.NEW_LEADER_ELECTED);
  assert.equal(result.elections[0]?.leader, 2);
  const old = alterPartition(current, request([entry({ newIsr: [1, 2, 3] })]), 1);
  assert.equal(old.response.topics[0]?.partitions[0]?.errorCode, ErrorCode.FENCED_LEADER_EPOCH);
});
