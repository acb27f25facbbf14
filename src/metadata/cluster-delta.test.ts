import { test } from "node:test";
import assert from "node:assert/strict";
import type { BrokerId } from "../common/index.js";
import { MetadataRecordType as T } from "../protocol/index.js";
import type { MetadataRecord } from "../protocol/index.js";
import { EMPTY_IMAGE } from "./images.js";
import type { MetadataImage } from "./images.js";
import { MetadataDelta } from "./metadata-delta.js";
import { MetadataReplayError } from "./metadata-replay-error.js";
import {
  fenceBroker,
  full,
  registerBroker,
  testUuid,
  unfenceBroker,
} from "./records.test-support.js";

function build(records: MetadataRecord[], base: MetadataImage = EMPTY_IMAGE): MetadataImage {
  const delta = new MetadataDelta(base);
  const offset = base.provenance.lastContainedOffset + 1;
  delta.replayAll(records, offset);
  return delta.apply({ lastContainedOffset: offset + records.length - 1, lastContainedEpoch: 1 });
}

test("RegisterBrokerRecord registers a broker and a later one replaces it", () => {
  const first = build([registerBroker(1, 10, { rack: "a", logDirs: [testUuid(5), testUuid(4)] })]);
  const broker = first.cluster.brokers.get(1 as BrokerId);
  assert.equal(broker?.isFenced, true);
  assert.equal(broker?.rack, "a");
  assert.deepEqual(broker?.directories, [testUuid(4), testUuid(5)], "log dirs are kept sorted");
  assert.deepEqual(broker?.listeners, [
    { name: "PLAINTEXT", host: "localhost", port: 9001, securityProtocol: 0 },
  ]);
  const second = build([registerBroker(1, 20, { fenced: false })], first);
  assert.equal(second.cluster.brokers.get(1 as BrokerId)?.epoch, 20);
  assert.equal(second.cluster.brokers.get(1 as BrokerId)?.isFenced, false);
  assert.equal(second.cluster.brokers.get(1 as BrokerId)?.rack, null);
});

test("FenceBrokerRecord and UnfenceBrokerRecord need the broker's current epoch", () => {
  const registered = build([registerBroker(1, 10)]);
  const unfenced = build([unfenceBroker(1, 10)], registered);
  assert.equal(unfenced.cluster.brokers.get(1 as BrokerId)?.isFenced, false);
  const fenced = build([fenceBroker(1, 10)], unfenced);
  assert.equal(fenced.cluster.brokers.get(1 as BrokerId)?.isFenced, true);
  assert.throws(() => build([fenceBroker(1, 9)], registered), MetadataReplayError);
  assert.throws(() => build([unfenceBroker(2, 10)], registered), MetadataReplayError);
});

test("BrokerRegistrationChangeRecord: tri-state fencing, shutdown, log dirs", () => {
  const registered = build([registerBroker(1, 10)]);
  const change = (data: Record<string, unknown>) =>
    full({
      type: T.BrokerRegistrationChangeRecord,
      data: { brokerId: 1, brokerEpoch: 10, ...data },
    });
  const unfenced = build([change({ fenced: -1 })], registered);
  assert.equal(unfenced.cluster.brokers.get(1 as BrokerId)?.isFenced, false);
  const same = build([change({ fenced: 0 })], unfenced);
  assert.equal(
    same.cluster.brokers.get(1 as BrokerId),
    unfenced.cluster.brokers.get(1 as BrokerId),
  );
  const shuttingDown = build([change({ inControlledShutdown: 1, logDirs: [testUuid(3)] })], same);
  const broker = shuttingDown.cluster.brokers.get(1 as BrokerId);
  assert.equal(broker?.isInControlledShutdown, true);
  assert.equal(broker?.isFenced, false);
  assert.deepEqual(broker?.directories, [testUuid(3)]);
  const fenced = build([change({ fenced: 1 })], shuttingDown);
  assert.equal(fenced.cluster.brokers.get(1 as BrokerId)?.isFenced, true);
  assert.throws(() => build([change({ fenced: 2 })], registered), MetadataReplayError);
});

test("UnregisterBrokerRecord removes the broker", () => {
  const registered = build([registerBroker(1, 10), registerBroker(2, 11)]);
  const record = full({ type: T.UnregisterBrokerRecord, data: { brokerId: 1, brokerEpoch: 10 } });
  const image = build([record], registered);
  assert.deepEqual([...image.cluster.brokers.keys()], [2]);
});

test("RegisterControllerRecord registers a controller", () => {
  const endPoints = [{ name: "CONTROLLER", host: "h", port: 9093, securityProtocol: 0 }];
  const record = full({
    type: T.RegisterControllerRecord,
    data: { controllerId: 3000, incarnationId: testUuid(7), zkMigrationReady: false, endPoints },
  });
  const controller = build([record]).cluster.controllers.get(3000 as BrokerId);
  assert.equal(controller?.incarnationId, testUuid(7));
  assert.deepEqual(controller?.listeners, endPoints);
});
