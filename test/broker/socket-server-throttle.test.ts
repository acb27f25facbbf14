import { test } from "node:test";
import assert from "node:assert/strict";
import { defineHandler, respond, throttled } from "../../src/broker/index.js";
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
