import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_IMAGE, EMPTY_PROVENANCE, MetadataDelta } from "../../src/metadata/index.js";
import { configRecord, removeTopic, topicRecord } from "../../src/metadata/records.test-support.js";
import { brokerId } from "../../src/common/index.js";
import {
  ReplicationQuotas,
  THROTTLE_KEYS,
  throttleBoundOf,
  topicThrottleOf,
} from "../../src/replication/index.js";
import { ManualClock, MemoryMetricsSink } from "../../sim/index.js";

const TOPIC = 2;
const TOPIC_ID = "0123456789abcdef0123456789abcdef";
const BROKER = 4;

test("the rates are this broker's, else the default; the replicas this broker's", () => {
  const delta = new MetadataDelta(EMPTY_IMAGE);
  delta.replayAll([
    configRecord(TOPIC, "orders", "leader.replication.throttled.replicas", "0:1,1:2"),
    configRecord(TOPIC, "orders", "follower.replication.throttled.replicas", "*"),
    configRecord(BROKER, "", "leader.replication.throttled.rate", "500"),
    configRecord(BROKER, "1", "leader.replication.throttled.rate", "100"),
    configRecord(BROKER, "", "follower.replication.throttled.rate", "700"),
  ]);
  const image = delta.apply(EMPTY_PROVENANCE);
  const { leader, follower } = THROTTLE_KEYS;
  assert.equal(throttleBoundOf(image, leader, 1), 100, "this broker's entry first");
  assert.equal(throttleBoundOf(image, leader, 2), 500, "else the cluster default");
  assert.equal(throttleBoundOf(image, follower, 2), 700);
  assert.equal(throttleBoundOf(EMPTY_IMAGE, follower, 1), Infinity, "no rate set: no bound");
  assert.deepEqual(topicThrottleOf(image, "orders", leader, 1), new Set([0]));
  assert.deepEqual(topicThrottleOf(image, "orders", leader, 3), new Set());
  assert.equal(topicThrottleOf(image, "orders", follower, 3), "all");
  assert.equal(topicThrottleOf(image, "payments", leader, 1), undefined);
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
  const image = delta.apply(EMPTY_PROVENANCE);
  quotas.update(delta, image);
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
  const removal = new MetadataDelta(image);
  removal.replayAll([
    configRecord(TOPIC, "orders", "follower.replication.throttled.replicas", null),
    configRecord(BROKER, "", "follower.replication.throttled.rate", null),
  ]);
  quotas.update(removal, removal.apply(EMPTY_PROVENANCE));
  assert.equal(quotas.follower.isThrottled(orders0), false, "the replicas were removed");
  quotas.follower.record(1_000_000);
  assert.equal(quotas.follower.isQuotaExceeded(), false, "so was the bound");
});

test("a deleted topic's throttled replicas go with it, and a snapshot restates them all", () => {
  const quotas = new ReplicationQuotas(brokerId(1), { clock: new ManualClock() });
  const created = new MetadataDelta(EMPTY_IMAGE);
  created.replayAll([
    topicRecord("orders", TOPIC_ID),
    configRecord(TOPIC, "orders", "leader.replication.throttled.replicas", "*"),
  ]);
  const image = created.apply(EMPTY_PROVENANCE);
  quotas.update(created, image);
  const orders0 = { topic: "orders", partition: 0 };
  assert.equal(quotas.leader.isThrottled(orders0), true);
  const deleted = new MetadataDelta(image);
  deleted.replayAll([removeTopic(TOPIC_ID)]);
  quotas.update(deleted, deleted.apply(EMPTY_PROVENANCE));
  assert.equal(quotas.leader.isThrottled(orders0), false);
  // A snapshot that no longer states the config removes it too.
  quotas.update(created, image);
  const snapshot = new MetadataDelta(image);
  snapshot.replayAll([topicRecord("orders", TOPIC_ID)]);
  snapshot.finishSnapshot();
  quotas.update(snapshot, snapshot.apply(EMPTY_PROVENANCE));
  assert.equal(quotas.leader.isThrottled(orders0), false);
});
