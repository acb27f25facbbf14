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
  requestsPerClient: number,
) {
  const clients = [];
  for (let index = 0; index < 4; index++) clients.push(await broker.connect());
  clients.forEach((client, index) => {
    for (let id = 1; id <= requestsPerClient; id++) {
      client.send(HEARTBEAT_KEY, 4, id, { groupId: `g${index}`, generationId: id, memberId: "m" });
    }
  });
  return clients;
}

test("queued.max.requests bounds the requests being handled over all connections", async () => {
  const { broker, held, observed, releaseAll } = await brokerHoldingHeartbeats({
    queuedMaxRequests: 3,
  });
  const clients = await sendFromClients(broker, 5);
  await broker.scheduler.runFor(100);
  assert.equal(held.length, 3);
  assert.equal(broker.server.queuedRequestCount, 3);
  // The connections that found the queue full keep their requests unread.
  const waitingFrames = broker.server
    .openConnections()
    .reduce((sum, connection) => sum + connection.queuedFrameCount, 0);
  assert.ok(waitingFrames > 0, "requests wait in their connections");
  for (let round = 0; round < 20 && clients.some((c) => c.frames.length < 5); round++) {
    releaseAll();
    await broker.scheduler.runFor(50);
  }
  for (const client of clients) assert.deepEqual(client.correlationIds(), [1, 2, 3, 4, 5]);
  assert.equal(observed.handlingMax, 3);
  assert.equal(broker.server.queuedRequestCount, 0);
});

test("at the default queued.max.requests all connections are handled together", async () => {
  const { broker, held, releaseAll } = await brokerHoldingHeartbeats();
  const clients = await sendFromClients(broker, 5);
  await broker.scheduler.runFor(100);
  assert.equal(held.length, 20);
  releaseAll();
  await broker.scheduler.runFor(50);
  for (const client of clients) assert.equal(client.frames.length, 5);
});

test("a closed connection's requests give their places back when handled", async () => {
  const { broker, held, releaseAll } = await brokerHoldingHeartbeats({ queuedMaxRequests: 2 });
  const [first, second] = await sendFromClients(broker, 2);
  await broker.scheduler.runFor(100);
  assert.equal(held.length, 2);
  first?.connection.close();
  await broker.scheduler.runFor(50);
  releaseAll();
  await broker.scheduler.runFor(50);
  releaseAll();
  await broker.scheduler.runFor(50);
  releaseAll();
  await broker.scheduler.runFor(50);
  assert.ok((second?.frames.length ?? 0) === 2, "the other connections were served");
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
