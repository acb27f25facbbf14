import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_IMAGE, EMPTY_PROVENANCE, MetadataDelta } from "../../src/metadata/index.js";
import { configRecord } from "../../src/metadata/records.test-support.js";
import { brokerId } from "../../src/common/index.js";
import { quotaSettingsOf, ReplicationQuotas, THROTTLE_KEYS } from "../../src/replication/index.js";
import { ManualClock, MemoryMetricsSink } from "../../sim/index.js";

const TOPIC = 2;
const BROKER = 4;

test("the settings come from the topic configs and this broker's rate, else the default", () => {
  const delta = new MetadataDelta(EMPTY_IMAGE);
  delta.replayAll([
    configRecord(TOPIC, "orders", "leader.replication.throttled.replicas", "0:1,1:2"),
    configRecord(TOPIC, "orders", "follower.replication.throttled.replicas", "*"),
    configRecord(TOPIC, "payments", "leader.replication.throttled.replicas", "3:1"),
    configRecord(BROKER, "", "leader.replication.throttled.rate", "500"),
    configRecord(BROKER, "1", "leader.replication.throttled.rate", "100"),
    configRecord(BROKER, "", "follower.replication.throttled.rate", "700"),
  ]);
  const image = delta.apply(EMPTY_PROVENANCE);
  const leader = quotaSettingsOf(image, THROTTLE_KEYS.leader, 1);
  assert.equal(leader.boundBytesPerSecond, 100, "this broker's entry first");
  assert.deepEqual(
    [...leader.throttled],
    [
      ["orders", new Set([0])],
      ["payments", new Set([3])],
    ],
  );
  assert.equal(quotaSettingsOf(image, THROTTLE_KEYS.leader, 2).boundBytesPerSecond, 500);
  const follower = quotaSettingsOf(image, THROTTLE_KEYS.follower, 2);
  assert.equal(follower.boundBytesPerSecond, 700, "the cluster default");
  assert.deepEqual([...follower.throttled], [["orders", "all"]]);
  const none = quotaSettingsOf(EMPTY_IMAGE, THROTTLE_KEYS.follower, 1);
  assert.equal(none.boundBytesPerSecond, Infinity, "no rate set: no bound");
});

test("the broker's throttles follow each image on its clock, and count bytes in metrics", () => {
  const clock = new ManualClock();
  const metrics = new MemoryMetricsSink();
  const quotas = new ReplicationQuotas(brokerId(3), { clock, metrics });
  const delta = new MetadataDelta(EMPTY_IMAGE);
  delta.replayAll([
    configRecord(TOPIC, "orders", "follower.replication.throttled.replicas", "0:3"),
    configRecord(BROKER, "", "follower.replication.throttled.rate", "1000"),
  ]);
  quotas.update(delta.apply(EMPTY_PROVENANCE));
  const orders0 = { topic: "orders", partition: 0 };
  assert.equal(quotas.follower.isThrottled(orders0), true);
  assert.equal(quotas.leader.isThrottled(orders0), false);
  quotas.follower.record(3000);
  assert.equal(quotas.follower.isQuotaExceeded(), true);
  assert.equal(quotas.leader.isQuotaExceeded(), false, "each side measures its own bytes");
  const counted = (side: string) =>
    metrics.valueOf("sluice_replication_throttled_bytes_total", { side });
  assert.deepEqual([counted("follower"), counted("leader")], [3000, 0]);
  // 3000 bytes over 3 s is the bound itself; the rate falls as the clock moves on.
  clock.advanceBy(2999);
  assert.equal(quotas.follower.isQuotaExceeded(), true);
  clock.advanceBy(1);
  assert.equal(quotas.follower.isQuotaExceeded(), false);
  assert.equal(quotas.follower.bytesPerSecond(), 1000);
  quotas.update(EMPTY_IMAGE);
  assert.equal(quotas.follower.isThrottled(orders0), false, "the configs were removed");
});
