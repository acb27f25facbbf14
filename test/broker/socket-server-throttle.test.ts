import { test } from "node:test";
import assert from "node:assert/strict";
import { ClientQuotas, defineHandler, respond, throttled } from "../../src/broker/index.js";
import { imageAfter } from "../../src/controller/index.js";
import { EMPTY_IMAGE } from "../../src/metadata/index.js";
import { MetadataRecordType } from "../../src/protocol/index.js";
import { startSimBroker } from "./sim-broker.js";

const HEARTBEAT_KEY = 12;

test("a throttled answer goes out at once, then its connection is muted that long", async () => {
  const handled: number[] = [];
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        defineHandler(HEARTBEAT_KEY, {
          minVersion: 0,
          maxVersion: 4,
          handle: (request) => {
            handled.push(request.generationId);
            // The first request takes its client past a quota: muted for 1000 ms (KIP-219).
            const throttleTimeMs = request.generationId === 1 ? 1000 : 0;
            return throttled(respond({ errorCode: 0, throttleTimeMs }), throttleTimeMs);
          },
        }),
      ),
  });
  const client = await broker.connect();
  const other = await broker.connect();
  client.send(HEARTBEAT_KEY, 4, 1, { groupId: "g", generationId: 1, memberId: "m" });
  await broker.scheduler.runFor(100);
  assert.deepEqual(client.correlationIds(), [1], "answered before the mute ends");
  assert.equal(client.body(0, HEARTBEAT_KEY, 4)["throttleTimeMs"], 1000);
  client.send(HEARTBEAT_KEY, 4, 2, { groupId: "g", generationId: 2, memberId: "m" });
  other.send(HEARTBEAT_KEY, 4, 1, { groupId: "g", generationId: 3, memberId: "m" });
  await broker.scheduler.runFor(500);
  assert.deepEqual(handled, [1, 3], "the muted connection's request waits; others do not");
  assert.deepEqual(other.correlationIds(), [1]);
  await broker.scheduler.runFor(500);
  assert.deepEqual(handled, [1, 3, 2], "taken up once the throttle time has passed");
  assert.deepEqual(client.correlationIds(), [1, 2]);
});

test("a client past request_percentage is throttled, at most one window, on any API", async () => {
  const entity = [{ entityType: "client-id", entityName: null }];
  const quota = { entity, key: "request_percentage", value: 1, remove: false };
  const image = imageAfter(EMPTY_IMAGE, [
    { type: MetadataRecordType.ClientQuotaRecord, version: 0, data: quota },
  ]);
  const window = { samples: 11, windowMs: 1000 };
  const broker = await startSimBroker({
    requestQuota: (clock) => new ClientQuotas(clock, () => image.clientQuotas, window),
    register: (router, scheduler) =>
      router.register(
        defineHandler(HEARTBEAT_KEY, {
          minVersion: 0,
          maxVersion: 4,
          // 100 ms handled here, none of it waiting on others: local time.
          handle: () =>
            new Promise((resolve) =>
              scheduler.schedule(100, () => resolve(respond({ errorCode: 0, throttleTimeMs: 0 }))),
            ),
        }),
      ),
  });
  const client = await broker.connect();
  for (let id = 1; id <= 2; id++) {
    client.send(HEARTBEAT_KEY, 4, id, { groupId: "g", generationId: id, memberId: "m" });
    await broker.scheduler.runFor(150);
  }
  // 1 % of a second over 10 windows is 100 ms: the first request fits, the second doubles the
  // rate, which would take 10 s to come back, bounded to one window as Kafka bounds it.
  assert.deepEqual(client.correlationIds(), [1, 2]);
  assert.equal(client.body(0, HEARTBEAT_KEY, 4)["throttleTimeMs"], 0);
  assert.equal(client.body(1, HEARTBEAT_KEY, 4)["throttleTimeMs"], 1000);
});
