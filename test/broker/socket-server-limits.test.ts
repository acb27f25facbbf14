import { test } from "node:test";
import assert from "node:assert/strict";
import { API_VERSIONS_KEY } from "../../src/protocol/index.js";
import { defineHandler, respond } from "../../src/broker/index.js";
import { startSimBroker } from "./sim-broker.js";

const HEARTBEAT_KEY = 12;

/** A broker whose heartbeats wait until the test lets them go, counting how many run at once. */
async function brokerHoldingHeartbeats(config: { queuedMaxRequests?: number } = {}) {
  const held: Array<() => void> = [];
  const observed = { handlingMax: 0 };
  const broker = await startSimBroker({
    config,
    register: (router) =>
      router.register(
        defineHandler(HEARTBEAT_KEY, {
          minVersion: 0,
          maxVersion: 4,
          handle: () =>
            new Promise((resolve) => {
              held.push(() => resolve(respond({ errorCode: 0 })));
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
  broker: Awaited<ReturnType<typeof brokerHoldingHeartbeats>>["broker"],
  counts: { clients: number; requestsPerClient: number },
) {
  const clients = [];
  for (let index = 0; index < counts.clients; index++) clients.push(await broker.connect());
  clients.forEach((client, index) => {
    for (let id = 1; id <= counts.requestsPerClient; id++) {
      client.send(HEARTBEAT_KEY, 4, id, { groupId: `g${index}`, generationId: id, memberId: "m" });
    }
  });
  return clients;
}

test("queued.max.requests bounds the requests being handled over all connections", async () => {
  const { broker, held, observed, releaseAll } = await brokerHoldingHeartbeats({
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
  const { broker, held, releaseAll } = await brokerHoldingHeartbeats();
  const clients = await sendFromClients(broker, { clients: 2, requestsPerClient: 5 });
  await broker.scheduler.runFor(100);
  assert.equal(held.length, 10);
  releaseAll();
  await broker.scheduler.runFor(50);
  for (const client of clients) assert.equal(client.frames.length, 5);
});

test("a full queue still takes up the request a parked one waits for", async () => {
  // Heartbeat 1 waits until heartbeat 2 arrives, as a produce waits for a follower's fetch.
  let arrived: () => void = () => undefined;
  const awaited = new Promise<void>((resolve) => (arrived = resolve));
  const broker = await startSimBroker({
    config: { queuedMaxRequests: 1 },
    register: (router) =>
      router.register(
        defineHandler(HEARTBEAT_KEY, {
          minVersion: 0,
          maxVersion: 4,
          handle: async (request) => {
            if (request.generationId === 2) arrived();
            else await awaited;
            return respond({ errorCode: 0 });
          },
        }),
      ),
  });
  const parked = await broker.connect();
  const needed = await broker.connect();
  parked.send(HEARTBEAT_KEY, 4, 1, { groupId: "g", generationId: 1, memberId: "m" });
  await broker.scheduler.runFor(50);
  needed.send(HEARTBEAT_KEY, 4, 2, { groupId: "g", generationId: 2, memberId: "m" });
  await broker.scheduler.runFor(50);
  assert.deepEqual(needed.correlationIds(), [2]);
  assert.deepEqual(parked.correlationIds(), [1]);
});

test("a closed connection's requests give their places back when handled", async () => {
  const { broker, held, releaseAll } = await brokerHoldingHeartbeats({ queuedMaxRequests: 2 });
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
