import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import { elrClearingRecords } from "../election/index.js";
import {
  applyOutput,
  changeRecords,
  elrOn,
  feature,
  imageOf,
  partition,
  partitionOf,
  topic,
  uuid,
  whole,
} from "../partition-control.test-support.js";
import { decideFeatureUpdates, featureUpdatesOf, UpgradeType } from "./update-features.js";

const ELR = "eligible.leader.replicas.version";
const MV = "metadata.version";

/** A broker registered with `elrMax` as the highest ELR level it runs. */
function brokerRunningElrUpTo(id: number, elrMax: number) {
  return whole({
    type: MetadataRecordType.RegisterBrokerRecord,
    data: {
      brokerId: id,
      brokerEpoch: 10 + id,
      incarnationId: uuid(700 + id),
      endPoints: [],
      features: [
        { name: MV, minSupportedVersion: 7, maxSupportedVersion: 22 },
        { name: ELR, minSupportedVersion: 0, maxSupportedVersion: elrMax },
      ],
      rack: null,
      fenced: false,
      inControlledShutdown: false,
      logDirs: [],
    },
  });
}

/** A controller that is the quorum's only voter. */
const alone = (nodeId: number) => ({ nodeId, voterIds: [nodeId] });
const base = () => imageOf([feature(MV, 22), brokerRunningElrUpTo(1, 1)]);

test("an upgrade every node runs becomes one FeatureLevelRecord; validateOnly writes none", () => {
  const updates = [{ feature: ELR, level: 1, upgradeType: UpgradeType.UPGRADE }];
  const outcome = decideFeatureUpdates(base(), alone(3000), updates, false);
  assert.equal(outcome.errorCode, ErrorCode.NONE);
  assert.deepEqual(
    outcome.records.map((record) => record.data),
    [{ name: ELR, featureLevel: 1 }],
  );
  assert.deepEqual(decideFeatureUpdates(base(), alone(3000), updates, true).records, []);
});

test("a level a registered broker cannot run is refused, naming the broker", () => {
  const image = imageOf([feature(MV, 22), brokerRunningElrUpTo(1, 1), brokerRunningElrUpTo(2, 0)]);
  const outcome = decideFeatureUpdates(
    image,
    alone(3000),
    [{ feature: ELR, level: 1, upgradeType: 1 }],
    false,
  );
  assert.equal(outcome.errorCode, ErrorCode.INVALID_UPDATE_VERSION);
  assert.match(outcome.errorMessage ?? "", /Broker 2 does not support this feature\./);
  assert.deepEqual(outcome.records, []);
});

test("a voter that has not registered refuses every level, as Kafka cannot vouch for it", () => {
  const controller3001 = whole({
    type: MetadataRecordType.RegisterControllerRecord,
    data: {
      controllerId: 3001,
      incarnationId: uuid(801),
      zkMigrationReady: false,
      endPoints: [],
      features: [{ name: ELR, minSupportedVersion: 0, maxSupportedVersion: 1 }],
    },
  });
  const image = imageOf([controller3001], base());
  const update = [{ feature: ELR, level: 1, upgradeType: UpgradeType.UPGRADE }];
  const quorum = { nodeId: 3000, voterIds: [3000, 3001, 3002] };
  const outcome = decideFeatureUpdates(image, quorum, update, false);
  assert.equal(outcome.errorCode, ErrorCode.INVALID_UPDATE_VERSION);
  assert.match(outcome.errorMessage ?? "", /controller 3002 has not registered/);
  const registered = { nodeId: 3000, voterIds: [3000, 3001] };
  assert.equal(decideFeatureUpdates(image, registered, update, false).errorCode, ErrorCode.NONE);
});

test("the direction must match the upgrade type, and the type must be known", () => {
  const on = imageOf([elrOn()], base());
  const cases: [number, number, RegExp][] = [
    [0, UpgradeType.UPGRADE, /without setting the upgrade type/],
    [1, 4, /does not support the given upgrade type/],
    [-1, UpgradeType.SAFE_DOWNGRADE, /cannot be less than 0/],
  ];
  for (const [level, upgradeType, message] of cases) {
    const outcome = decideFeatureUpdates(
      on,
      alone(1),
      [{ feature: ELR, level, upgradeType }],
      false,
    );
    assert.equal(outcome.errorCode, ErrorCode.INVALID_UPDATE_VERSION);
    assert.match(outcome.errorMessage ?? "", message);
  }
  const up = [{ feature: ELR, level: 1, upgradeType: UpgradeType.SAFE_DOWNGRADE }];
  assert.match(
    decideFeatureUpdates(base(), alone(1), up, false).errorMessage ?? "",
    /to a newer version/,
  );
});

test("metadata.version goes down only across levels that changed no metadata", () => {
  const down = (level: number, upgradeType: number) =>
    decideFeatureUpdates(base(), alone(1), [{ feature: MV, level, upgradeType }], false);
  assert.equal(down(17, UpgradeType.SAFE_DOWNGRADE).errorCode, ErrorCode.NONE);
  assert.match(down(16, UpgradeType.SAFE_DOWNGRADE).errorMessage ?? "", /might delete metadata/);
  assert.match(down(16, UpgradeType.UNSAFE_DOWNGRADE).errorMessage ?? "", /Unsafe metadata/);
  const old = imageOf([feature(MV, 14)]);
  const upgrade = (level: number) =>
    decideFeatureUpdates(old, alone(1), [{ feature: MV, level, upgradeType: 1 }], false);
  assert.equal(upgrade(16).errorCode, ErrorCode.NONE);
  assert.match(upgrade(17).errorMessage ?? "", /register again with its log dirs/);
});

test("turning ELR off is reported, and every ELR and last known ELR is emptied", () => {
  const foo = uuid(1);
  const image = imageOf(
    [
      elrOn(),
      topic("foo", foo),
      partition(foo, 0, { replicas: [1, 2, 3], isr: [1], elr: [2], lastKnownElr: [3] }),
      partition(foo, 1, { replicas: [1, 2, 3] }),
    ],
    base(),
  );
  const off = [{ feature: ELR, level: 0, upgradeType: UpgradeType.SAFE_DOWNGRADE }];
  assert.equal(decideFeatureUpdates(image, alone(1), off, false).turnsElrOff, true);
  assert.equal(
    decideFeatureUpdates(base(), alone(1), off, false).turnsElrOff,
    false,
    "already off",
  );
  const clearing = elrClearingRecords(image);
  assert.deepEqual(
    changeRecords(clearing).map((record) => record.partitionId),
    [0],
  );
  const after = applyOutput(image, clearing);
  assert.deepEqual(partitionOf(after, foo, 0).eligibleLeaderReplicas, []);
  assert.deepEqual(partitionOf(after, foo, 0).lastKnownElr, []);
  assert.deepEqual(partitionOf(after, foo, 0).isr, [1], "nothing else changes");
});

test("v0's allowDowngrade is a safe downgrade; v1 reads the upgrade type", () => {
  const request = {
    timeoutMs: 1,
    validateOnly: false,
    featureUpdates: [
      { feature: ELR, maxVersionLevel: 0, allowDowngrade: true, upgradeType: 1 },
      { feature: MV, maxVersionLevel: 22, allowDowngrade: false, upgradeType: 3 },
    ],
  };
  assert.deepEqual(
    featureUpdatesOf(request, 0).map((update) => update.upgradeType),
    [UpgradeType.SAFE_DOWNGRADE, UpgradeType.UPGRADE],
  );
  assert.deepEqual(
    featureUpdatesOf(request, 1).map((update) => update.upgradeType),
    [1, 3],
  );
});
