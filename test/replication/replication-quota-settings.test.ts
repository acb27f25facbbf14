import { test } from "node:test";
import assert from "node:assert/strict";
import { EMPTY_IMAGE, EMPTY_PROVENANCE, MetadataDelta } from "../../src/metadata/index.js";
import { configRecord } from "../../src/metadata/records.test-support.js";
import { quotaSettingsOf, THROTTLE_KEYS } from "../../src/replication/index.js";

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
