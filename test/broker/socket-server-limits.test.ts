import { test } from "node:test";
import assert from "node:assert/strict";
import { API_VERSIONS_KEY, ApiKey } from "../../src/protocol/index.js";
import { defineHandler, respond } from "../../src/broker/index.js";
import { startSimBroker } from "./sim-broker.js";

/**
 * The request these tests hold: UnregisterBroker, a request no lane of the connection orders
 * (a connection handles one group coordinator request or Fetch at a time, others together).
 */
const HELD_KEY = ApiKey.UnregisterBroker;
const ANSWER = { throttleTimeMs: 0, errorCode: 0, errorMessage: null };

/** A broker whose held requests wait until the test lets them go, counting how many run at once. */
async function brokerHoldingRequests(config: { queuedMaxRequests?: number } = {}) {
  const held: Array<() => void> = [];
  const observed = { handlingMax: 0 };
  const broker = await startSimBroker({
    config,
    register: (router) =>
      router.register(
        defineHandler(HELD_KEY, {
          minVersion: 0,
          maxVersion: 0,
          handle: () =>
            new Promise((resolve) => {
              held.push(() => resolve(respond(ANSWER)));
              observed.handlingMax = Math.max(observed.handlingMax, held.length);
            }),
        }),
      ),
  });
  const releaseAll = (): void => {
    for (const release of held.splice(0)) release();
  };
  return { broker, held, observed, releaseAll };
}

async function sendFromClients(
  broker: Awaited<ReturnType<typeof brokerHoldingRequests>>["broker"],
  counts: { clients: number; requestsPerClient: number },
) {
  const clients = [];
  for (let index = 0; index < counts.clients; index++) clients.push(await broker.connect());
  clients.forEach((client, index) => {
    for (let id = 1; id <= counts.requestsPerClient; id++) {
      client.send(HELD_KEY, 0, id, { brokerId: index * 100 + id });
    }
  });
  return clients;
}

test("queued.max.requests bounds the requests being handled over all connections", async () => {
  const { broker, held, observed, releaseAll } = await brokerHoldingRequests({
    queuedMaxRequests: 3,
  });
  const clients = await sendFromClients(broker, { clients: 2, requestsPerClient: 5 });
  await broker.scheduler.runFor(100);
  // Three from the first connection fill the queue; the second still takes up its first one.
  assert.equal(held.length, 4);
  assert.equal(broker.server.queuedRequestCount, 4);
  const waitingFrames = broker.server
    .openConnections()
    .reduce((sum, connection) => sum + connection.queuedFrameCount, 0);
  assert.ok(waitingFrames > 0, "requests wait unread in their connections");
  for (let round = 0; round < 20 && clients.some((c) => c.frames.length < 5); round++) {
    releaseAll();
    await broker.scheduler.runFor(50);
  }
  for (const client of clients) assert.deepEqual(client.correlationIds(), [1, 2, 3, 4, 5]);
  assert.equal(observed.handlingMax, 4);
  assert.equal(broker.server.queuedRequestCount, 0);
});

test("at the default queued.max.requests all connections are handled together", async () => {
  const { broker, held, releaseAll } = await brokerHoldingRequests();
  const clients = await sendFromClients(broker, { clients: 2, requestsPerClient: 5 });
  await broker.scheduler.runFor(100);
  assert.equal(held.length, 10);
  releaseAll();
  await broker.scheduler.runFor(50);
  for (const client of clients) assert.equal(client.frames.length, 5);
});

test("a full queue still takes up the request a parked one waits for", async () => {
  // Request 1 waits until request 2 arrives, as a produce waits for a follower's fetch.
  let arrived: () => void = () => undefined;
  const awaited = new Promise<void>((resolve) => (arrived = resolve));
  const broker = await startSimBroker({
    config: { queuedMaxRequests: 1 },
    register: (router) =>
      router.register(
        defineHandler(HELD_KEY, {
          minVersion: 0,
          maxVersion: 0,
          handle: async (request) => {
            if (request.brokerId === 2) arrived();
            else await awaited;
            return respond(ANSWER);
          },
        }),
      ),
  });
  const parked = await broker.connect();
  const needed = await broker.connect();
  parked.send(HELD_KEY, 0, 1, { brokerId: 1 });
  await broker.scheduler.runFor(50);
  needed.send(HELD_KEY, 0, 2, { brokerId: 2 });
  await broker.scheduler.runFor(50);
  assert.deepEqual(needed.correlationIds(), [2]);
  assert.deepEqual(parked.correlationIds(), [1]);
});

test("a closed connection's requests give their places back when handled", async () => {
  const { broker, held, releaseAll } = await brokerHoldingRequests({ queuedMaxRequests: 2 });
  const [first, second] = await sendFromClients(broker, { clients: 2, requestsPerClient: 3 });
  await broker.scheduler.runFor(100);
  assert.equal(held.length, 3);
  first?.connection.close();
  await broker.scheduler.runFor(50);
  for (let round = 0; round < 5; round++) {
    releaseAll();
    await broker.scheduler.runFor(50);
  }
  assert.deepEqual(second?.correlationIds(), [1, 2, 3]);
  assert.equal(broker.server.queuedRequestCount, 0);
});

test("max.connections.per.ip closes one connection too many from a host", async () => {
  const broker = await startSimBroker({ config: { maxConnectionsPerIp: 2 } });
  const first = await broker.connect("host-a");
  const second = await broker.connect("host-a");
  const third = await broker.connect("host-a");
  const other = await broker.connect("host-b");
  await broker.scheduler.runFor(50);
  assert.deepEqual(
    [first, second, third, other].map((client) => client.isClosed),
    [false, false, true, false],
  );
  assert.equal(
    broker.metrics.valueOf("sluice_connections_closed_total", {
      reason: "maxConnectionsPerIp",
    }),
    1,
  );
  first.connection.close();
  await broker.scheduler.runFor(50);
  const again = await broker.connect("host-a");
  again.send(API_VERSIONS_KEY, 0, 7, {});
  await broker.scheduler.runFor(50);
  assert.deepEqual(again.correlationIds(), [7]);
  assert.equal(broker.server.openConnectionCount, 3);
});
