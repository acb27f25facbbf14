import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { BrokerRegistrationRequest } from "../../protocol/index.js";
import { BrokerHeartbeats } from "./broker-heartbeats.js";
import { registerBroker } from "./broker-registration.js";
import type { BrokerRegistrationContext } from "./broker-registration.js";
import {
  brokerRecord,
  imageOf,
  recordingHooks,
  replay,
  testUuid,
} from "./controls.test-support.js";

const CLUSTER_ID = "sluice-test-cluster";

function context(
  image: MetadataImage,
  overrides: Partial<BrokerRegistrationContext> = {},
): BrokerRegistrationContext {
  return {
    image,
    heartbeats: BrokerHeartbeats.EMPTY,
    nowMs: 50_000,
    clusterId: CLUSTER_ID,
    config: { sessionTimeoutMs: 9000, brokerIdBase: 1000 },
    hooks: recordingHooks({ isSilent: true }).hooks,
    nextWriteOffset: 500,
    ...overrides,
  };
}

function request(overrides: Partial<BrokerRegistrationRequest> = {}): BrokerRegistrationRequest {
  return {
    brokerId: 1,
    clusterId: CLUSTER_ID,
    incarnationId: testUuid(77),
    listeners: [{ name: "PLAINTEXT", host: "host1", port: 9092, securityProtocol: 0 }],
    features: [{ name: "metadata.version", minSupportedVersion: 7, maxSupportedVersion: 22 }],
    rack: "rack-a",
    isMigratingZkBroker: false,
    logDirs: [testUuid(900)],
    previousBrokerEpoch: -1,
    ...overrides,
  };
}

test("a new broker is registered fenced with the epoch of its record's offset", () => {
  const result = registerBroker(context(imageOf()), request());
  assert.deepEqual(result.response, {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    brokerEpoch: 500,
    assignedBrokerId: -1,
  });
  assert.equal(result.brokerId, 1);
  assert.equal(result.records.length, 1);
  const image = replay(imageOf(), result.records);
  const broker = image.cluster.brokers.get(1 as BrokerId);
  assert.equal(broker?.epoch, 500);
  assert.equal(broker?.isFenced, true);
  assert.equal(broker?.rack, "rack-a");
  assert.deepEqual(broker?.directories, [testUuid(900)]);
  assert.equal(result.heartbeats.contactOf(1 as BrokerId)?.lastContactMs, 50_000);
});

test("a registration with another cluster id is refused with INCONSISTENT_CLUSTER_ID", () => {
  const result = registerBroker(context(imageOf()), request({ clusterId: "other" }));
  assert.equal(result.response.errorCode, ErrorCode.INCONSISTENT_CLUSTER_ID);
  assert.deepEqual(result.records, []);
});

test("a broker that cannot run the metadata.version gets UNSUPPORTED_VERSION", () => {
  const features = [{ name: "metadata.version", minSupportedVersion: 7, maxSupportedVersion: 21 }];
  const result = registerBroker(context(imageOf()), request({ features }));
  assert.equal(result.response.errorCode, ErrorCode.UNSUPPORTED_VERSION);
  const none = registerBroker(context(imageOf()), request({ features: [] }));
  assert.equal(none.response.errorCode, ErrorCode.UNSUPPORTED_VERSION);
});

test("the same incarnation registering again gets its registration back without records", () => {
  const image = imageOf(brokerRecord(1, { epoch: 40, incarnationId: testUuid(77) }));
  const result = registerBroker(context(image), request());
  assert.equal(result.response.errorCode, ErrorCode.NONE);
  assert.equal(result.response.brokerEpoch, 40);
  assert.deepEqual(result.records, []);
});

test("a new incarnation is refused while the old one's session is live", () => {
  const image = imageOf(brokerRecord(1, { epoch: 40 }));
  const heartbeats = BrokerHeartbeats.EMPTY.touched(1 as BrokerId, 45_000, 40);
  const result = registerBroker(context(image, { heartbeats }), request());
  assert.equal(result.response.errorCode, ErrorCode.DUPLICATE_BROKER_REGISTRATION);
});

test("a new incarnation replaces a fenced one, or one whose session expired", () => {
  const fenced = imageOf(brokerRecord(1, { epoch: 40, isFenced: true }));
  const live = BrokerHeartbeats.EMPTY.touched(1 as BrokerId, 49_000, 40);
  const overFenced = registerBroker(context(fenced, { heartbeats: live }), request());
  assert.equal(overFenced.response.errorCode, ErrorCode.NONE);
  assert.equal(overFenced.records.length, 1);
  const unfenced = imageOf(brokerRecord(1, { epoch: 40 }));
  const stale = BrokerHeartbeats.EMPTY.touched(1 as BrokerId, 40_000, 40);
  const { hooks, calls } = recordingHooks();
  const result = registerBroker(context(unfenced, { heartbeats: stale, hooks }), request());
  assert.equal(result.response.errorCode, ErrorCode.NONE);
  // The dead incarnation's partitions move first, then those of a possibly unclean restart;
  // the epoch is the register record's offset.
  assert.deepEqual(calls, [
    { hook: "brokerFenced", brokerId: 1 },
    { hook: "brokerUncleanShutdown", brokerId: 1 },
  ]);
  assert.equal(result.records.length, 3);
  assert.equal(result.records[2]?.type, MetadataRecordType.RegisterBrokerRecord);
  assert.equal(result.response.brokerEpoch, 502);
});

test("every new incarnation goes through the unclean-shutdown hook, the same one never", () => {
  const { hooks, calls } = recordingHooks();
  const fresh = registerBroker(context(imageOf(), { hooks }), request());
  assert.deepEqual(calls, [{ hook: "brokerUncleanShutdown", brokerId: 1 }]);
  assert.equal(fresh.response.brokerEpoch, 501, "the hook's records come first");
  calls.length = 0;
  const image = imageOf(brokerRecord(1, { epoch: 40, incarnationId: testUuid(77) }));
  registerBroker(context(image, { hooks }), request({ previousBrokerEpoch: 40 }));
  assert.deepEqual(calls, [], "a retried registration changes no partition");
});

test("a broker without an id gets the lowest free id at the base, and keeps it on retry", () => {
  const image = imageOf(brokerRecord(1000), brokerRecord(1002));
  const result = registerBroker(context(image), request({ brokerId: -1 }));
  assert.equal(result.brokerId, 1001);
  assert.equal(result.response.assignedBrokerId, 1001);
  const next = replay(image, result.records);
  assert.equal(next.cluster.brokers.get(1001 as BrokerId)?.incarnationId, testUuid(77));
  const retry = registerBroker(context(next), request({ brokerId: -1 }));
  assert.equal(retry.brokerId, 1001);
  assert.equal(retry.response.assignedBrokerId, 1001);
  assert.deepEqual(retry.records, []);
  const other = registerBroker(
    context(next),
    request({ brokerId: -1, incarnationId: testUuid(78) }),
  );
  assert.equal(other.brokerId, 1003);
});

test("broker ids below -1 are refused with INVALID_REQUEST", () => {
  const result = registerBroker(context(imageOf()), request({ brokerId: -2 }));
  assert.equal(result.response.errorCode, ErrorCode.INVALID_REQUEST);
});

test("log dirs must be present, distinct and not reserved", () => {
  const cases = [[], [testUuid(1), testUuid(1)], ["0".repeat(32)], ["0".repeat(31) + "1"]];
  for (const logDirs of cases) {
    const result = registerBroker(context(imageOf()), request({ logDirs }));
    assert.equal(
      result.response.errorCode,
      ErrorCode.INVALID_REGISTRATION,
      JSON.stringify(logDirs),
    );
  }
});
