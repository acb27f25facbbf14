import { test } from "node:test";
import assert from "node:assert/strict";
import { imageAfter } from "../../controller/index.js";
import { EMPTY_IMAGE, type ClientQuotasImage } from "../../metadata/index.js";
import { MetadataRecordType, type MetadataRecord } from "../../protocol/index.js";
import { ClientQuotaManager, QUOTA_SENSOR_EXPIRY_MS } from "./client-quota-manager.js";
import { resolveQuota } from "./quota-resolution.js";

const KEY = "producer_byte_rate";
const KAFKA_WINDOW = { samples: 11, windowMs: 1000 };

type Entity = { user?: string | null; client?: string | null };

function quotasOf(...quotas: [Entity, number][]): ClientQuotasImage {
  const records: MetadataRecord[] = [];
  for (const [entity, value] of quotas) {
    const parts = [];
    if (entity.user !== undefined) parts.push({ entityType: "user", entityName: entity.user });
    if (entity.client !== undefined) {
      parts.push({ entityType: "client-id", entityName: entity.client });
    }
    records.push({
      type: MetadataRecordType.ClientQuotaRecord,
      version: 0,
      data: { entity: parts, key: KEY, value, remove: false },
    });
  }
  return imageAfter(EMPTY_IMAGE, records).clientQuotas;
}

test("the most specific entity that sets the key binds, in KIP-55's order", () => {
  const levels: [Entity, number][] = [
    [{ user: "alice", client: "app" }, 1],
    [{ user: "alice", client: null }, 2],
    [{ user: "alice" }, 3],
    [{ user: null, client: "app" }, 4],
    [{ user: null, client: null }, 5],
    [{ user: null }, 6],
    [{ client: "app" }, 7],
    [{ client: null }, 8],
  ];
  // Removing the most specific entity one at a time uncovers the next one.
  for (let first = 0; first < levels.length; first++) {
    const image = quotasOf(...levels.slice(first));
    assert.equal(resolveQuota(image, KEY, "alice", "app").bound, levels[first]?.[1]);
  }
  assert.equal(resolveQuota(quotasOf(), KEY, "alice", "app").bound, Infinity);
  const other = resolveQuota(quotasOf(...levels.slice(0, 3)), "consumer_byte_rate", "alice", "app");
  assert.equal(other.bound, Infinity, "each quota key resolves on its own");
});

test("a user quota is shared by the user's client ids, a client-id quota by its users", () => {
  const user = resolveQuota(quotasOf([{ user: "alice" }, 10]), KEY, "alice", "app");
  assert.deepEqual(user, { bound: 10, user: "alice", clientId: "" });
  const client = resolveQuota(quotasOf([{ client: null }, 10]), KEY, "bob", "app");
  assert.deepEqual(client, { bound: 10, user: "", clientId: "app" });
  const pair = resolveQuota(quotasOf([{ user: "alice", client: null }, 10]), KEY, "alice", "x");
  assert.deepEqual(pair, { bound: 10, user: "alice", clientId: "x" });
  const none = resolveQuota(quotasOf([{ user: "alice", client: null }, 10]), KEY, "alice", "");
  assert.equal(none.bound, Infinity, "an empty client id takes no client-id entity");
});

test("a rate over its bound is throttled for the time that brings it back, then not", () => {
  const image = quotasOf([{ user: "alice" }, 1000]);
  const manager = new ClientQuotaManager(KEY, KAFKA_WINDOW);
  const alice = { user: "alice", clientId: "app" };
  // 10 000 bytes over a span of 10 windows: exactly the bound.
  assert.equal(manager.recordAndGetThrottleTimeMs(image, alice, 10_000, 0), 0);
  // 20 000 bytes over 10 s is twice the bound: as long again to come back.
  assert.equal(manager.recordAndGetThrottleTimeMs(image, alice, 10_000, 0), 10_000);
  // Another client id of the same user shares the rate.
  const other = manager.recordAndGetThrottleTimeMs(image, { ...alice, clientId: "b" }, 1, 0);
  assert.ok(other > 0);
  const bob = { user: "bob", clientId: "app" };
  assert.equal(manager.recordAndGetThrottleTimeMs(image, bob, 1_000_000, 0), 0, "bob is free");
  // Once the samples age out the rate is low again.
  assert.equal(manager.recordAndGetThrottleTimeMs(image, alice, 1, 11_000), 0);
});

test("a throttle time too long for the response's int32 is answered as the largest one", () => {
  const manager = new ClientQuotaManager(KEY, KAFKA_WINDOW);
  const client = { user: "ANONYMOUS", clientId: "app" };
  const image = quotasOf([{ client: "app" }, 1]);
  assert.equal(manager.recordAndGetThrottleTimeMs(image, client, 1e12, 0), 2 ** 31 - 1);
});

test("an unrecorded value no longer counts; nothing is measured with no quota set", () => {
  const image = quotasOf([{ client: "app" }, 100]);
  const manager = new ClientQuotaManager(KEY, KAFKA_WINDOW);
  const client = { user: "ANONYMOUS", clientId: "app" };
  assert.ok(manager.recordAndGetThrottleTimeMs(image, client, 5000, 0) > 0);
  manager.unrecord(image, client, 5000, 0);
  assert.equal(manager.recordAndGetThrottleTimeMs(image, client, 500, 1), 0);
  assert.equal(manager.maxValueInQuotaWindow(image, client), 1000);
  const free = new ClientQuotaManager(KEY, KAFKA_WINDOW);
  assert.equal(free.recordAndGetThrottleTimeMs(quotasOf(), client, 1e9, 0), 0);
  assert.equal(free.sensorCount, 0);
  assert.equal(free.maxValueInQuotaWindow(quotasOf(), client), Infinity);
});

test("a group idle for an hour is forgotten", () => {
  const image = quotasOf([{ user: null }, 100]);
  const manager = new ClientQuotaManager(KEY, KAFKA_WINDOW);
  manager.recordAndGetThrottleTimeMs(image, { user: "a", clientId: "" }, 1, 0);
  manager.recordAndGetThrottleTimeMs(image, { user: "b", clientId: "" }, 1, 60_000);
  assert.equal(manager.sensorCount, 2);
  manager.recordAndGetThrottleTimeMs(image, { user: "b", clientId: "" }, 1, QUOTA_SENSOR_EXPIRY_MS);
  assert.equal(manager.sensorCount, 1);
});
