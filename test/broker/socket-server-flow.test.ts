import { test } from "node:test";
import assert from "node:assert/strict";
import { API_VERSIONS_KEY, ApiKey } from "../../src/protocol/index.js";
import { NO_RESPONSE, defineHandler, respond } from "../../src/broker/index.js";
import { startSimBroker } from "./sim-broker.js";

/**
 * The request these tests send: UnregisterBroker, a request no lane of the connection orders
 * (a connection handles one group coordinator request or Fetch at a time, others together).
 */
const HELD_KEY = ApiKey.UnregisterBroker;
const ANSWER = { throttleTimeMs: 0, errorCode: 0, errorMessage: null };

/** A request body whose brokerId tells the test handler what to do. */
function bodyOf(brokerId: number) {
  return { brokerId };
}

test("responses leave in request order even when later requests finish first", async () => {
  const broker = await startSimBroker({
    register: (router, scheduler) =>
      router.register(
        defineHandler(HELD_KEY, {
          minVersion: 0,
          maxVersion: 0,
          handle: (request) =>
            new Promise((resolve) => {
              const delayMs = request.brokerId;
              scheduler.schedule(delayMs, () => resolve(respond(ANSWER)));
            }),
        }),
      ),
  });
  const client = await broker.connect();
  const delays = [50, 5, 0, 30, 1, 12];
  delays.forEach((delayMs, index) => client.send(HELD_KEY, 0, index + 1, bodyOf(delayMs)));
  await broker.scheduler.runFor(200);
  assert.deepEqual(client.correlationIds(), [1, 2, 3, 4, 5, 6]);
  assert.equal(client.body(0, HELD_KEY, 0)["errorCode"], 0);
  assert.equal(broker.metrics.valueOf("sluice_requests_total", { api: "UnregisterBroker" }), 6);
  assert.equal(broker.metrics.valueOf("sluice_request_latency_ms", { api: "UnregisterBroker" }), 6);
  assert.ok((broker.metrics.valueOf("sluice_network_bytes_in_total") ?? 0) > 0);
  assert.ok((broker.metrics.valueOf("sluice_network_bytes_out_total") ?? 0) > 0);
});

test("a request with no response does not hold back the ones after it", async () => {
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        defineHandler(HELD_KEY, {
          minVersion: 0,
          maxVersion: 0,
          handle: (request) => (request.brokerId % 2 === 1 ? NO_RESPONSE : respond(ANSWER)),
        }),
      ),
  });
  const client = await broker.connect();
  for (let id = 1; id <= 6; id++) client.send(HELD_KEY, 0, id, bodyOf(id));
  await broker.scheduler.runFor(100);
  assert.deepEqual(client.correlationIds(), [2, 4, 6]);
});

test("thousands of pipelined requests stay within the in-flight bound, all answered", async () => {
  const observed = { inFlightMax: 0, queuedMax: 0, handled: 0 };
  const waiting: Array<() => void> = [];
  const broker = await startSimBroker({
    config: { queuedMaxRequestsPerConnection: 8 },
    register: (router) =>
      router.register(
        defineHandler(HELD_KEY, {
          minVersion: 0,
          maxVersion: 0,
          handle: () =>
            new Promise((resolve) => {
              const connection = broker.server.openConnections()[0];
              observed.inFlightMax = Math.max(observed.inFlightMax, connection?.inFlightCount ?? 0);
              observed.queuedMax = Math.max(observed.queuedMax, connection?.queuedFrameCount ?? 0);
              observed.handled++;
              waiting.push(() => resolve(respond(ANSWER)));
            }),
        }),
      ),
  });
  const client = await broker.connect();
  const total = 3000;
  for (let id = 0; id < total; id++) client.send(HELD_KEY, 0, id, bodyOf(id));
  await broker.scheduler.runFor(100);
  // Nothing is answered yet: the connection took up exactly the bound and stopped reading.
  assert.equal(observed.handled, 8);
  while (client.frames.length < total) {
    waiting.splice(0).forEach((release) => release());
    await broker.scheduler.runFor(10);
  }
  assert.deepEqual(
    client.correlationIds(),
    Array.from({ length: total }, (_, id) => id),
  );
  assert.ok(observed.inFlightMax <= 8, `in flight ${observed.inFlightMax}`);
  assert.ok(observed.queuedMax <= 1, `queued frames ${observed.queuedMax}`);
});

test("a client that reads no responses stops the broker taking up its requests", async () => {
  let handled = 0;
  const broker = await startSimBroker({
    network: { sendBufferBytes: 256 },
    config: { queuedMaxRequestsPerConnection: 10 },
    register: (router) =>
      router.register(
        defineHandler(HELD_KEY, {
          minVersion: 0,
          maxVersion: 0,
          handle: () => {
            handled++;
            return respond(ANSWER);
          },
        }),
      ),
  });
  const client = await broker.connect();
  // A cut holds the responses in the broker's send buffer, as a peer that stopped reading does.
  broker.simNetwork.cut("broker", "client-0");
  for (let id = 0; id < 500; id++) client.send(HELD_KEY, 0, id, bodyOf(id));
  await broker.scheduler.runFor(500);
  // What fits the send buffer plus one in-flight batch is handled, and then nothing more.
  assert.ok(handled <= 40, `handled ${handled} while the client read nothing`);
  const handledWhileBlocked = handled;
  await broker.scheduler.runFor(1000);
  assert.equal(handled, handledWhileBlocked);
  broker.simNetwork.heal("broker", "client-0");
  await broker.scheduler.runFor(2000);
  assert.equal(handled, 500);
  assert.deepEqual(
    client.correlationIds(),
    Array.from({ length: 500 }, (_, id) => id),
  );
});

test("idle connections close after connections.max.idle.ms; active, busy ones stay", async () => {
  const held: Array<() => void> = [];
  const broker = await startSimBroker({
    config: { connectionsMaxIdleMs: 1000 },
    register: (router) =>
      router.register(
        defineHandler(HELD_KEY, {
          minVersion: 0,
          maxVersion: 0,
          handle: () => new Promise((resolve) => held.push(() => resolve(respond(ANSWER)))),
        }),
      ),
  });
  const [quiet, chatty, busy] = [
    await broker.connect(),
    await broker.connect(),
    await broker.connect(),
  ];
  busy.send(HELD_KEY, 0, 1, bodyOf(1));
  for (let round = 0; round < 6; round++) {
    chatty.send(API_VERSIONS_KEY, 2, round, {});
    await broker.scheduler.runFor(300);
  }
  assert.equal(quiet.isClosed, true);
  assert.equal(chatty.isClosed, false);
  assert.equal(busy.isClosed, false, "a request in flight keeps a connection open");
  held.splice(0).forEach((release) => release());
  await broker.scheduler.runFor(2500);
  assert.equal(busy.isClosed, true);
  assert.equal(broker.metrics.valueOf("sluice_connections_closed_total", { reason: "idle" }), 3);
  assert.equal(broker.metrics.valueOf("sluice_connections_open"), 0);
});
