import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiKey, API_VERSIONS_KEY } from "../../src/protocol/index.js";
import { defineHandler, respond } from "../../src/broker/index.js";
import { startSimBroker } from "./sim-broker.js";

const FETCH = {
  maxWaitMs: 500,
  minBytes: 1,
  maxBytes: 1_048_576,
  topics: [{ topic: "t", partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1024 }] }],
  forgottenTopicsData: [],
};

/** A Fetch handler that answers when `handle` says. */
function fetchHandler(handle: () => Promise<ReturnType<typeof respond>>) {
  return defineHandler(ApiKey.Fetch, {
    minVersion: 4,
    maxVersion: 17,
    handle: () => handle(),
    errorResponse: () => respond({ responses: [] }),
  });
}

test("a connection has one Fetch handled at a time; other requests pass it", async () => {
  const held: Array<() => void> = [];
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        fetchHandler(
          () => new Promise((resolve) => held.push(() => resolve(respond({ responses: [] })))),
        ),
      ),
  });
  const client = await broker.connect();
  client.send(ApiKey.Fetch, 12, 1, FETCH);
  client.send(API_VERSIONS_KEY, 0, 2, {});
  client.send(ApiKey.Fetch, 12, 3, FETCH);
  client.send(API_VERSIONS_KEY, 0, 4, {});
  await broker.scheduler.runFor(50);
  assert.equal(held.length, 1, "the second Fetch waits for the first");
  assert.equal(broker.server.openConnections()[0]?.inFlightCount, 2);
  held.shift()?.();
  await broker.scheduler.runFor(50);
  assert.deepEqual(client.correlationIds(), [1, 2]);
  assert.equal(held.length, 1);
  held.shift()?.();
  await broker.scheduler.runFor(50);
  assert.deepEqual(client.correlationIds(), [1, 2, 3, 4]);
});

test("Fetches of different connections are handled together", async () => {
  let handling = 0;
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        fetchHandler(() => {
          handling++;
          return new Promise(() => undefined);
        }),
      ),
  });
  const clients = [await broker.connect(), await broker.connect(), await broker.connect()];
  for (const [index, client] of clients.entries()) client.send(ApiKey.Fetch, 12, index, FETCH);
  await broker.scheduler.runFor(50);
  assert.equal(handling, 3);
});

test("a connection has one group coordinator request handled at a time", async () => {
  // A commit is done before the connection's next OffsetFetch or heartbeat is handled.
  const held: Array<() => void> = [];
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        defineHandler(ApiKey.Heartbeat, {
          minVersion: 0,
          maxVersion: 4,
          handle: () =>
            new Promise((resolve) => held.push(() => resolve(respond({ errorCode: 0 })))),
          errorResponse: () => respond({ errorCode: 0 }),
        }),
      ),
  });
  const client = await broker.connect();
  const other = await broker.connect();
  const heartbeat = { groupId: "g", generationId: 1, memberId: "m", groupInstanceId: null };
  client.send(ApiKey.Heartbeat, 4, 1, heartbeat);
  client.send(API_VERSIONS_KEY, 0, 2, {});
  client.send(ApiKey.Heartbeat, 4, 3, heartbeat);
  other.send(ApiKey.Heartbeat, 4, 1, heartbeat);
  await broker.scheduler.runFor(50);
  assert.equal(held.length, 2, "the second heartbeat of a connection waits; another's does not");
  held.shift()?.();
  await broker.scheduler.runFor(50);
  assert.deepEqual(client.correlationIds(), [1, 2]);
  assert.equal(held.length, 2);
  for (const release of held.splice(0)) release();
  await broker.scheduler.runFor(50);
  assert.deepEqual(client.correlationIds(), [1, 2, 3]);
  assert.deepEqual(other.correlationIds(), [1]);
});
