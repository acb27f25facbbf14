import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { BrokerHeartbeatRequest } from "../../protocol/index.js";
import { handleBrokerHeartbeat } from "./broker-heartbeat.js";
import { BrokerHeartbeats } from "./broker-heartbeats.js";
import {
  brokerRecord,
  imageOf,
  recordingHooks,
  replay,
  testUuid,
  topicRecords,
} from "./controls.test-support.js";

const B1 = 1 as BrokerId;

function heartbeat(overrides: Partial<BrokerHeartbeatRequest> = {}): BrokerHeartbeatRequest {
  return {
    brokerId: 1,
    brokerEpoch: 40,
    currentMetadataOffset: 40,
    wantFence: false,
    wantShutDown: false,
    offlineLogDirs: [],
    ...overrides,
  };
}

function run(image: MetadataImage, request: BrokerHeartbeatRequest) {
  const { hooks, calls } = recordingHooks();
  const result = handleBrokerHeartbeat(
    { image, heartbeats: BrokerHeartbeats.EMPTY, nowMs: 7000, hooks },
    request,
  );
  return { ...result, calls, next: replay(image, result.records) };
}

test("an unknown broker's heartbeat is refused with BROKER_ID_NOT_REGISTERED", () => {
  const result = run(imageOf(), heartbeat());
  assert.equal(result.response.errorCode, ErrorCode.BROKER_ID_NOT_REGISTERED);
  assert.deepEqual(result.records, []);
});

test("a heartbeat with an old broker epoch is refused with STALE_BROKER_EPOCH", () => {
  const result = run(imageOf(brokerRecord(1, { epoch: 40 })), heartbeat({ brokerEpoch: 39 }));
  assert.equal(result.response.errorCode, ErrorCode.STALE_BROKER_EPOCH);
  assert.equal(result.heartbeats.contactOf(B1), undefined);
});

test("a fenced broker stays fenced until its metadata offset reaches its registration", () => {
  const image = imageOf(brokerRecord(1, { epoch: 40, isFenced: true }));
  const behind = run(image, heartbeat({ currentMetadataOffset: 39 }));
  assert.deepEqual(behind.records, []);
  assert.equal(behind.response.isFenced, true);
  assert.equal(behind.response.isCaughtUp, false);
  assert.equal(behind.heartbeats.contactOf(B1)?.lastContactMs, 7000);
  const caughtUp = run(image, heartbeat({ currentMetadataOffset: 40 }));
  assert.equal(caughtUp.response.isFenced, false);
  assert.equal(caughtUp.response.isCaughtUp, true);
  assert.equal(caughtUp.next.cluster.brokers.get(B1)?.isFenced, false);
  // Unfencing comes first so the elections after it may choose the broker.
  assert.equal(caughtUp.records[0]?.type, MetadataRecordType.BrokerRegistrationChangeRecord);
  assert.deepEqual(caughtUp.calls, [{ hook: "brokerUnfenced", brokerId: 1 }]);
});

test("a caught-up broker that wants to stay fenced is not unfenced", () => {
  const image = imageOf(brokerRecord(1, { epoch: 40, isFenced: true }));
  const result = run(image, heartbeat({ wantFence: true }));
  assert.deepEqual(result.records, []);
  assert.equal(result.response.isFenced, true);
});

test("an unfenced broker asking to be fenced leaves its partitions, then is fenced", () => {
  const result = run(imageOf(brokerRecord(1, { epoch: 40 })), heartbeat({ wantFence: true }));
  assert.equal(result.response.isFenced, true);
  assert.deepEqual(result.calls, [{ hook: "brokerFenced", brokerId: 1 }]);
  assert.equal(result.records[1]?.type, MetadataRecordType.BrokerRegistrationChangeRecord);
  assert.equal(result.next.cluster.brokers.get(B1)?.isFenced, true);
});

test("controlled shutdown: entered on wantShutDown, finished once the broker leads nothing", () => {
  const leading = imageOf(
    brokerRecord(1, { epoch: 40 }),
    brokerRecord(2),
    ...topicRecords("t", testUuid(1), [[1, 2]]),
  );
  const enter = run(leading, heartbeat({ wantShutDown: true }));
  assert.equal(enter.response.shouldShutDown, false);
  assert.equal(enter.next.cluster.brokers.get(B1)?.isInControlledShutdown, true);
  assert.deepEqual(enter.calls, [{ hook: "brokerShuttingDown", brokerId: 1 }]);
  // Still the leader of t-0 (the hook here moves nothing): the moves are asked for again.
  const still = run(enter.next, heartbeat({ wantShutDown: true }));
  assert.equal(still.response.shouldShutDown, false);
  assert.deepEqual(still.calls, [{ hook: "brokerShuttingDown", brokerId: 1 }]);
  const idle = imageOf(
    brokerRecord(1, { epoch: 40, isInControlledShutdown: true }),
    brokerRecord(2),
  );
  const done = run(idle, heartbeat({ wantShutDown: true }));
  assert.equal(done.response.shouldShutDown, true);
  // Kafka's SHUTDOWN_NOW: the broker is fenced as it is let go.
  assert.equal(done.response.isFenced, true);
  assert.equal(done.next.cluster.brokers.get(B1)?.isFenced, true);
  assert.deepEqual(done.calls, [{ hook: "brokerFenced", brokerId: 1 }]);
});

test("a fenced broker that wants to shut down may do so at once", () => {
  const result = run(
    imageOf(brokerRecord(1, { epoch: 40, isFenced: true })),
    heartbeat({ wantShutDown: true }),
  );
  assert.equal(result.response.shouldShutDown, true);
  assert.equal(result.response.isFenced, true);
});

test("offline log dirs leave the registration and their replicas move", () => {
  const directories = [testUuid(1), testUuid(2)];
  const image = imageOf(brokerRecord(1, { epoch: 40, directories }));
  const result = run(image, heartbeat({ offlineLogDirs: [testUuid(2), testUuid(99)] }));
  assert.deepEqual(result.calls, [
    { hook: "logDirsOffline", brokerId: 1, directories: [testUuid(2)] },
  ]);
  assert.deepEqual(result.next.cluster.brokers.get(B1)?.directories, [testUuid(1)]);
  assert.equal(result.response.isFenced, false);
});

test("a broker whose every log dir is offline is fenced", () => {
  const image = imageOf(brokerRecord(1, { epoch: 40, directories: [testUuid(1)] }));
  const result = run(image, heartbeat({ offlineLogDirs: [testUuid(1)] }));
  assert.equal(result.response.isFenced, true);
  assert.equal(result.next.cluster.brokers.get(B1)?.isFenced, true);
});
