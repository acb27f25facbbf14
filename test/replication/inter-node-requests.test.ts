/**
 * Every request a broker sends to the controller or to another broker, built by the code that
 * builds it in production and encoded at every version the client may pick, then decoded again
 * at that version: what a node sends always encodes, and carries what the peer must read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, brokerId, type Uuid } from "../../src/common/index.js";
import {
  BrokerLifecycle,
  DEFAULT_BROKER_LIFECYCLE_CONFIG,
  assignReplicasToDirsRequest,
} from "../../src/broker/index.js";
import { alterPartitionRequest } from "../../src/broker/forwarding/alter-partition-batch.js";
import { allocateProducerIdsRequest, blockAnswerOf } from "../../src/broker/index.js";
import { allocateProducerIds as grantProducerIds } from "../../src/controller/index.js";
import { EMPTY_IMAGE, EMPTY_PROVENANCE, MetadataDelta } from "../../src/metadata/index.js";
import { registerBroker, unfenceBroker } from "../../src/metadata/records.test-support.js";
import { heartbeatAtVersion } from "../../src/broker/lifecycle/lifecycle-types.js";
import {
  ByteReader,
  ByteWriter,
  allocateProducerIds,
  alterPartition,
  assignReplicasToDirs,
  brokerHeartbeat,
  brokerRegistration,
  fetch,
  listOffsets,
  offsetForLeaderEpoch,
  type ApiCodec,
  type MessageInput,
} from "../../src/protocol/index.js";
import {
  FetchSessionHandler,
  epochRequestBody,
  fetchRequestBody,
  replicaListOffsetsBody,
} from "../../src/replication/index.js";

const TOPIC_ID = "0123456789abcdef0123456789abcdef";
const OTHER_TOPIC_ID = "fedcba9876543210fedcba9876543210";

/** Encodes `body` at every version of `api`, decodes it back, and hands each to `check`. */
function atEveryVersion<Request extends object, Response extends object>(
  api: ApiCodec<Request, Response>,
  build: (apiVersion: number) => MessageInput<NoInfer<Request>>,
  check: (decoded: NoInfer<Request>, apiVersion: number) => void,
): void {
  for (let version = api.minVersion; version <= api.maxVersion; version++) {
    const writer = new ByteWriter();
    assert.doesNotThrow(
      () => api.encodeRequest(version, build(version), writer),
      `${api.name} v${version} encodes`,
    );
    check(api.decodeRequest(version, new ByteReader(writer.finish())), version);
  }
}

test("AlterPartition carries the ISR as ids before v3 and with broker epochs from v3", () => {
  const proposal = {
    topicId: TOPIC_ID as Uuid,
    topicName: "orders",
    partitionIndex: 2,
    leaderEpoch: 4,
    newIsrWithEpochs: [
      { brokerId: brokerId(1), brokerEpoch: 10 },
      { brokerId: brokerId(3), brokerEpoch: 12 },
    ],
    leaderRecoveryState: "recovered" as const,
    partitionEpoch: 7,
  };
  atEveryVersion(
    alterPartition,
    (version) => alterPartitionRequest({ brokerId: 1, brokerEpoch: 10 }, [proposal], version),
    (decoded, version) => {
      const partition = decoded.topics[0]?.partitions[0];
      assert.equal(decoded.brokerEpoch, 10);
      assert.equal(
        version >= 2 ? decoded.topics[0]?.topicId : decoded.topics[0]?.topicName,
        version >= 2 ? TOPIC_ID : "orders",
      );
      assert.equal(partition?.partitionEpoch, 7);
      if (version >= 3) {
        assert.deepEqual(
          partition?.newIsrWithEpochs.map((member) => [member.brokerId, member.brokerEpoch]),
          [
            [1, 10],
            [3, 12],
          ],
        );
      } else assert.deepEqual(partition?.newIsr, [1, 3]);
    },
  );
});

test("AssignReplicasToDirs groups a broker's replicas by log dir and topic", () => {
  const dirA = "c0000000000000000000000000000001" as Uuid;
  const dirB = "c0000000000000000000000000000002" as Uuid;
  const batch = [
    { topicId: TOPIC_ID as Uuid, partitionIndex: 0, directoryId: dirA },
    { topicId: OTHER_TOPIC_ID as Uuid, partitionIndex: 3, directoryId: dirA },
    { topicId: TOPIC_ID as Uuid, partitionIndex: 1, directoryId: dirB },
  ];
  atEveryVersion(
    assignReplicasToDirs,
    () => assignReplicasToDirsRequest({ brokerId: 2, brokerEpoch: 30 }, batch),
    (decoded) => {
      assert.equal(decoded.brokerEpoch, 30);
      assert.deepEqual(
        decoded.directories.map((directory) => [
          directory.id,
          directory.topics.map((topic) => [
            topic.topicId,
            topic.partitions.map((partition) => partition.partitionIndex),
          ]),
        ]),
        [
          [
            dirA,
            [
              [TOPIC_ID, [0]],
              [OTHER_TOPIC_ID, [3]],
            ],
          ],
          [dirB, [[TOPIC_ID, [1]]]],
        ],
      );
    },
  );
});

test("BrokerRegistration and BrokerHeartbeat encode at every version", () => {
  const lifecycle = new BrokerLifecycle(
    {
      nodeId: brokerId(2),
      clusterId: "Dz1DTnH3T0WL3dxJgZCkvg",
      incarnationId: "b0000000000000000000000000000001" as Uuid,
      listeners: [{ name: "PLAINTEXT", host: "127.0.0.1", port: 9092, securityProtocol: 0 }],
      rack: "rack-a",
      logDirIds: ["b0000000000000000000000000000003"] as Uuid[],
      features: [{ name: "metadata.version", minSupportedVersion: 7, maxSupportedVersion: 21 }],
      previousBrokerEpoch: 41,
    },
    DEFAULT_BROKER_LIFECYCLE_CONFIG,
  );
  lifecycle.start();
  const report = {
    metadataOffset: 7,
    offlineLogDirs: ["b0000000000000000000000000000003" as Uuid],
  };
  const registration = lifecycle.nextCommunication(report);
  assert.ok(registration?.kind === "registration");
  atEveryVersion(
    brokerRegistration,
    () => registration.body,
    (decoded) => {
      assert.equal(decoded.brokerId, 2);
      assert.equal(decoded.rack, "rack-a");
      assert.equal(decoded.listeners[0]?.port, 9092);
    },
  );
  lifecycle.onRegistrationResponse({
    throttleTimeMs: 0,
    errorCode: 0,
    brokerEpoch: 55,
    assignedBrokerId: -1,
  });
  const heartbeat = lifecycle.nextCommunication(report);
  assert.ok(heartbeat?.kind === "heartbeat");
  atEveryVersion(
    brokerHeartbeat,
    (version) => heartbeatAtVersion(heartbeat.body, version),
    (decoded, version) => {
      assert.equal(decoded.brokerEpoch, 55);
      assert.equal(decoded.currentMetadataOffset, 7);
      assert.deepEqual(decoded.offlineLogDirs, version >= 1 ? report.offlineLogDirs : []);
    },
  );
});

test("a follower's Fetch names its replica, epochs and session in each version's form", () => {
  const handler = new FetchSessionHandler();
  const partition = (topicName: string, topicId: string, index: number) => ({
    topicName,
    topicId,
    partition: index,
    fetchOffset: 40 + index,
    logStartOffset: 3,
    partitionMaxBytes: 1 << 20,
    currentLeaderEpoch: 6,
    lastFetchedEpoch: 5,
  });
  const first = handler.build([
    partition("orders", TOPIC_ID, 0),
    partition("audit", OTHER_TOPIC_ID, 1),
  ]);
  handler.handleResponse(first, { errorCode: 0, sessionId: 99, partitionKeys: ["orders/0"] });
  // The next request forgets one partition and moves the other: both halves of a session.
  const session = handler.build([{ ...partition("orders", TOPIC_ID, 0), fetchOffset: 50 }]);
  assert.deepEqual([session.sessionId, session.sessionEpoch], [99, 1]);
  const request = {
    replicaId: brokerId(3),
    brokerEpoch: 77,
    maxWaitMs: 500,
    minBytes: 1,
    maxBytes: 10 << 20,
    rackId: "rack-b",
    session,
  };
  atEveryVersion(
    fetch,
    (version) => fetchRequestBody(request, version),
    (decoded, version) => {
      const replicaId = version >= 15 ? decoded.replicaState.replicaId : decoded.replicaId;
      assert.equal(replicaId, 3, `v${version}`);
      if (version >= 15) assert.equal(decoded.replicaState.replicaEpoch, 77);
      const topic = decoded.topics[0];
      assert.equal(
        version >= 13 ? topic?.topicId : topic?.topic,
        version >= 13 ? TOPIC_ID : "orders",
      );
      assert.equal(topic?.partitions[0]?.fetchOffset, 50);
      if (version >= 9) assert.equal(topic?.partitions[0]?.currentLeaderEpoch, 6);
      if (version >= 12) assert.equal(topic?.partitions[0]?.lastFetchedEpoch, 5);
      if (version >= 7) {
        assert.equal(decoded.sessionId, 99);
        const forgotten = decoded.forgottenTopicsData[0];
        assert.equal(
          version >= 13 ? forgotten?.topicId : forgotten?.topic,
          version >= 13 ? OTHER_TOPIC_ID : "audit",
        );
        assert.deepEqual(forgotten?.partitions, [1]);
      }
      if (version >= 11) assert.equal(decoded.rackId, "rack-b");
    },
  );
});

test("a follower's OffsetsForLeaderEpoch and ListOffsets encode at every version", () => {
  const topicPartition = { topic: "orders", partition: 2 };
  const queries = [{ topicPartition, currentLeaderEpoch: 6, leaderEpoch: 4 }];
  atEveryVersion(
    offsetForLeaderEpoch,
    (version) => epochRequestBody(queries, brokerId(3), version),
    (decoded, version) => {
      if (version >= 3) assert.equal(decoded.replicaId, 3);
      const partition = decoded.topics[0]?.partitions[0];
      assert.equal(partition?.leaderEpoch, 4);
      if (version >= 2) assert.equal(partition?.currentLeaderEpoch, 6);
    },
  );
  atEveryVersion(
    listOffsets,
    (version) =>
      replicaListOffsetsBody(
        { replicaId: brokerId(3), topicPartition, currentLeaderEpoch: 6, timestamp: -1 },
        version,
      ),
    (decoded) => {
      assert.equal(decoded.replicaId, 3);
      assert.equal(decoded.topics[0]?.partitions[0]?.timestamp, -1);
    },
  );
});

test("AllocateProducerIds names the broker and its epoch; the controller's block returns", () => {
  const delta = new MetadataDelta(EMPTY_IMAGE);
  delta.replayAll([registerBroker(2, 55), unfenceBroker(2, 55)]);
  const image = delta.apply(EMPTY_PROVENANCE);
  atEveryVersion(
    allocateProducerIds,
    () => allocateProducerIdsRequest({ brokerId: 2, brokerEpoch: 55 }),
    (decoded, version) => {
      const granted = grantProducerIds(image, decoded);
      const writer = new ByteWriter();
      allocateProducerIds.encodeResponse(version, granted.response, writer);
      const response = allocateProducerIds.decodeResponse(version, new ByteReader(writer.finish()));
      assert.deepEqual(blockAnswerOf(response), { kind: "block", start: 0, length: 1000 });
      const stale = grantProducerIds(image, { ...decoded, brokerEpoch: 54 });
      assert.deepEqual(blockAnswerOf(stale.response), {
        kind: "error",
        errorCode: ErrorCode.STALE_BROKER_EPOCH,
      });
    },
  );
});
