import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import { BrokerHeartbeats, heartbeatsAfterActivation } from "./broker-heartbeats.js";
import { fenceStaleBrokers } from "./broker-fencing.js";
import { brokerRecord, imageOf, recordingHooks, replay } from "./controls.test-support.js";
import { unregisterBroker } from "./unregister-broker.js";

const SESSION_MS = 9000;

test("the liveness scan fences unfenced brokers silent for longer than the session timeout", () => {
  const image = imageOf(brokerRecord(1), brokerRecord(2), brokerRecord(3, { isFenced: true }));
  const heartbeats = BrokerHeartbeats.EMPTY.touched(1 as BrokerId, 1000, 0).touched(
    2 as BrokerId,
    5000,
    0,
  );
  const { hooks, calls } = recordingHooks();
  const atBoundary = fenceStaleBrokers({
    image,
    heartbeats,
    nowMs: 10_000,
    sessionTimeoutMs: SESSION_MS,
    hooks,
  });
  assert.deepEqual(atBoundary.fencedBrokerIds, []);
  const result = fenceStaleBrokers({
    image,
    heartbeats,
    nowMs: 10_001,
    sessionTimeoutMs: SESSION_MS,
    hooks,
  });
  assert.deepEqual(result.fencedBrokerIds, [1]);
  assert.deepEqual(calls, [{ hook: "brokerFenced", brokerId: 1 }]);
  const next = replay(image, result.records);
  assert.equal(next.cluster.brokers.get(1 as BrokerId)?.isFenced, true);
  assert.equal(next.cluster.brokers.get(2 as BrokerId)?.isFenced, false);
});

test("a newly active controller gives every broker a fresh session", () => {
  const image = imageOf(brokerRecord(1), brokerRecord(2));
  const heartbeats = heartbeatsAfterActivation(image, 20_000);
  const { hooks } = recordingHooks();
  const scan = (nowMs: number) =>
    fenceStaleBrokers({ image, heartbeats, nowMs, sessionTimeoutMs: SESSION_MS, hooks });
  assert.deepEqual(scan(29_000).fencedBrokerIds, []);
  assert.deepEqual(scan(29_001).fencedBrokerIds, [1, 2]);
  // Both fenced in one batch: the second broker's record is written at its current epoch too.
  const next = replay(image, scan(29_001).records);
  assert.equal(next.cluster.brokers.get(2 as BrokerId)?.isFenced, true);
});

test("unregistering moves the broker's partitions, then removes it", () => {
  const image = imageOf(brokerRecord(1), brokerRecord(2));
  const { hooks, calls } = recordingHooks();
  const heartbeats = BrokerHeartbeats.EMPTY.touched(1 as BrokerId, 0, 0);
  const result = unregisterBroker({ image, heartbeats, hooks }, { brokerId: 1 });
  assert.equal(result.response.errorCode, ErrorCode.NONE);
  assert.deepEqual(calls, [{ hook: "brokerFenced", brokerId: 1 }]);
  assert.equal(replay(image, result.records).cluster.brokers.has(1 as BrokerId), false);
  assert.equal(result.heartbeats.contactOf(1 as BrokerId), undefined);
});

test("unregistering an unknown broker is refused with BROKER_ID_NOT_REGISTERED", () => {
  const { hooks } = recordingHooks();
  const result = unregisterBroker(
    { image: imageOf(), heartbeats: BrokerHeartbeats.EMPTY, hooks },
    { brokerId: 7 },
  );
  assert.equal(result.response.errorCode, ErrorCode.BROKER_ID_NOT_REGISTERED);
  assert.deepEqual(result.records, []);
});
