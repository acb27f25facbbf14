import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, brokerId, type Uuid } from "../../common/index.js";
import {
  alterPartition,
  ByteReader,
  ByteWriter,
  type AlterPartitionResponse,
} from "../../protocol/index.js";
import {
  alterPartitionAnswers,
  alterPartitionRequest,
  type AlterPartitionProposal,
} from "./alter-partition-batch.js";
import { carriesNotController } from "./not-controller.js";

const topicId = "b0000000000000000000000000000001" as Uuid;

function proposal(partitionIndex: number): AlterPartitionProposal {
  return {
    topicId,
    topicName: "orders",
    partitionIndex,
    leaderEpoch: 4,
    newIsrWithEpochs: [{ brokerId: brokerId(1), brokerEpoch: 10 }],
    leaderRecoveryState: "recovered",
    partitionEpoch: 7,
  };
}

test("proposals of one topic travel in one topic entry, the ISR in each version's form", () => {
  const sender = { brokerId: 1, brokerEpoch: 10 };
  for (let version = alterPartition.minVersion; version <= alterPartition.maxVersion; version++) {
    const body = alterPartitionRequest(sender, [proposal(0), proposal(1)], version);
    const writer = new ByteWriter();
    alterPartition.encodeRequest(version, body, writer);
    const decoded = alterPartition.decodeRequest(version, new ByteReader(writer.finish()));
    assert.equal(decoded.topics.length, 1, `v${version}`);
    const topic = decoded.topics[0];
    assert.equal(
      version >= 2 ? topic?.topicId : topic?.topicName,
      version >= 2 ? topicId : "orders",
    );
    const partitions = topic?.partitions ?? [];
    assert.deepEqual(
      partitions.map((partition) => partition.partitionIndex),
      [0, 1],
    );
    if (version >= 3) {
      assert.deepEqual(partitions[0]?.newIsrWithEpochs, [{ brokerId: 1, brokerEpoch: 10 }]);
    } else {
      assert.deepEqual(partitions[0]?.newIsr, [1]);
    }
  }
});

test("answers are read per partition; a top-level error answers every proposal", () => {
  const response: AlterPartitionResponse = {
    throttleTimeMs: 0,
    errorCode: 0,
    topics: [
      {
        topicName: "",
        topicId,
        partitions: [
          {
            partitionIndex: 0,
            errorCode: 0,
            leaderId: 1,
            leaderEpoch: 4,
            isr: [1],
            leaderRecoveryState: 0,
            partitionEpoch: 8,
          },
          {
            partitionIndex: 1,
            errorCode: ErrorCode.FENCED_LEADER_EPOCH,
            leaderId: 1,
            leaderEpoch: 4,
            isr: [],
            leaderRecoveryState: 0,
            partitionEpoch: 7,
          },
        ],
      },
    ],
  };
  assert.deepEqual(alterPartitionAnswers(response, [proposal(0), proposal(1), proposal(2)]), [
    {
      kind: "updated",
      leaderEpoch: 4,
      partitionEpoch: 8,
      isr: [1],
      leaderRecoveryState: "recovered",
    },
    { kind: "error", errorCode: ErrorCode.FENCED_LEADER_EPOCH },
    { kind: "error", errorCode: ErrorCode.UNKNOWN_SERVER_ERROR },
  ]);
  const stale = { ...response, errorCode: ErrorCode.STALE_BROKER_EPOCH };
  assert.deepEqual(alterPartitionAnswers(stale, [proposal(0)]), [
    { kind: "error", errorCode: ErrorCode.STALE_BROKER_EPOCH },
  ]);
});

test("NOT_CONTROLLER is found at the top level and in nested results", () => {
  assert.equal(carriesNotController({ errorCode: ErrorCode.NOT_CONTROLLER }), true);
  assert.equal(carriesNotController({ topics: [{ name: "a", errorCode: 41 }] }), true);
  assert.equal(carriesNotController({ topics: [{ name: "a", errorCode: 0 }] }), false);
  assert.equal(carriesNotController({ errorCode: 0, topics: [] }), false);
});
