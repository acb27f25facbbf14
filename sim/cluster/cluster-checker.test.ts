import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeMetadataRecord, MetadataRecordType } from "../../src/protocol/index.js";
import type { MetadataRecord } from "../../src/protocol/index.js";
import { InvariantViolation } from "../workloads/registry.js";
import { ClusterChecker } from "./cluster-checker.js";

const topicId = "0123456789abcdef0123456789abcdef";

function batch(baseOffset: number, records: MetadataRecord[]) {
  const values = records.map((record) => encodeMetadataRecord(record));
  return {
    baseOffset,
    lastOffset: baseOffset + values.length - 1,
    epoch: 1,
    records: values,
    isControl: false,
  };
}

function broker(id: number, fenced: boolean): MetadataRecord {
  return {
    type: MetadataRecordType.RegisterBrokerRecord,
    version: 3,
    data: {
      brokerId: id,
      isMigratingZkBroker: false,
      incarnationId: "fedcba9876543210fedcba9876543210",
      brokerEpoch: id,
      endPoints: [],
      features: [],
      rack: null,
      fenced,
      inControlledShutdown: false,
      logDirs: [],
    },
  } as unknown as MetadataRecord;
}

function setUp(): ClusterChecker {
  const checker = new ClusterChecker();
  checker.delivered(
    "c1",
    batch(0, [
      {
        type: MetadataRecordType.FeatureLevelRecord,
        version: 0,
        data: { name: "metadata.version", featureLevel: 22 },
      } as MetadataRecord,
      broker(4, false),
      broker(5, false),
      broker(6, false),
      {
        type: MetadataRecordType.TopicRecord,
        version: 0,
        data: { name: "t", topicId },
      } as MetadataRecord,
      {
        type: MetadataRecordType.PartitionRecord,
        version: 0,
        data: {
          partitionId: 0,
          topicId,
          replicas: [4, 5, 6],
          isr: [4, 5],
          removingReplicas: [],
          addingReplicas: [],
          leader: 4,
          leaderEpoch: 3,
          partitionEpoch: 3,
        },
      } as unknown as MetadataRecord,
    ]),
  );
  return checker;
}

function change(data: Record<string, unknown>): MetadataRecord {
  return {
    type: MetadataRecordType.PartitionChangeRecord,
    version: 0,
    data: {
      partitionId: 0,
      topicId,
      isr: null,
      leader: -2,
      replicas: null,
      removingReplicas: null,
      addingReplicas: null,
      leaderRecoveryState: -1,
      directories: null,
      eligibleLeaderReplicas: null,
      lastKnownElr: null,
      ...data,
    },
  } as unknown as MetadataRecord;
}

test("a leader elected from the ISR passes and is counted", () => {
  const checker = setUp();
  checker.delivered("c1", batch(6, [change({ leader: 5, isr: [5] })]));
  assert.equal(checker.leaderChanges, 1);
});

test("a leader from outside the ISR of a clean topic fails the seed", () => {
  const checker = setUp();
  assert.throws(
    () => checker.delivered("c1", batch(6, [change({ leader: 6, isr: [6] })])),
    (error: unknown) => error instanceof InvariantViolation && /ISR or ELR/.test(error.message),
  );
});

test("a fenced broker left as leader fails the seed", () => {
  const checker = setUp();
  const fence = {
    type: MetadataRecordType.FenceBrokerRecord,
    version: 0,
    data: { id: 4, epoch: 4 },
  } as unknown as MetadataRecord;
  assert.throws(
    () => checker.delivered("c1", batch(6, [fence])),
    (error: unknown) =>
      error instanceof InvariantViolation && /fenced broker never leads/.test(error.message),
  );
});

test("a node that saw another batch at a committed offset fails the seed", () => {
  const checker = setUp();
  checker.delivered("c1", batch(6, [change({ leader: 5, isr: [5] })]));
  assert.throws(
    () => checker.delivered("c4", batch(6, [change({ leader: 4, isr: [4] })])),
    (error: unknown) =>
      error instanceof InvariantViolation && /lost or changed/.test(error.message),
  );
});
