import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { API_VERSIONS_KEY } from "../../src/protocol/index.js";
import { defineHandler, respond } from "../../src/broker/index.js";
import { startSimBroker } from "./sim-broker.js";

const HEARTBEAT_KEY = 12;

/** A heartbeat body whose generationId tells the test handler what to do. */
function heartbeat(generationId: number) {
  return { groupId: "g", generationId, memberId: "m" };
}

test("bad frames close only their own connection and the broker keeps serving", async () => {
  const broker = await startSimBroker({ config: { socketRequestMaxBytes: 1024 } });
  const negative = await broker.connect();
  const oversize = await broker.connect();
  const unknownApi = await broker.connect();
  const truncated = await broker.connect();
  const healthy = await broker.connect();
  negative.connection.write(Uint8Array.of(0xff, 0xff, 0xff, 0xfb, 1, 2, 3));
  oversize.connection.write(Uint8Array.of(0, 0, 0x13, 0x88, 1, 2));
  unknownApi.connection.write(Uint8Array.of(0, 0, 0, 10, 0x03, 0xe7, 0, 0, 0, 0, 0, 1, 0, 0));
  // ApiVersions v3 whose body stops in the middle of the client software name.
  truncated.connection.write(
    Uint8Array.of(0, 0, 0, 16, 0, 18, 0, 3, 0, 0, 0, 7, 0xff, 0xff, 0, 9, 0x61, 0x62, 0x63, 0x64),
  );
  healthy.send(API_VERSIONS_KEY, 3, 9, { clientSoftwareName: "t", clientSoftwareVersion: "1" });
  await broker.scheduler.runFor(100);
  for (const client of [negative, oversize, unknownApi, truncated]) {
    assert.equal(client.isClosed, true);
    assert.equal(client.frames.length, 0);
  }
  assert.equal(healthy.isClosed, false);
  assert.deepEqual(healthy.correlationIds(), [9]);
  const reasons = broker.logger.lines
    .filter((line) => line.message === "closing connection")
    .map((line) => line.fields["reason"]);
  assert.deepEqual(reasons.sort(), ["badFrame", "badFrame", "malformedRequest", "unknownApi"]);
  assert.equal(broker.server.openConnectionCount, 1);
});

test("ApiVersions above the served range gets the KIP-511 UNSUPPORTED_VERSION answer", async () => {
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        defineHandler(HEARTBEAT_KEY, { minVersion: 1, maxVersion: 3, handle: () => respond({}) }),
      ),
  });
  const client = await broker.connect();
  // Version 9 is beyond the codec too; the header is read as v2 and the body is not read.
  const frame = Uint8Array.of(0, 18, 0, 9, 0, 0, 0, 42, 0, 1, 0x78, 0, 0x37, 0x13);
  client.connection.write([Uint8Array.of(0, 0, 0, frame.length), frame]);
  await broker.scheduler.runFor(50);
  const body = client.body(0, API_VERSIONS_KEY, 0);
  assert.equal(body["errorCode"], ErrorCode.UNSUPPORTED_VERSION);
  assert.deepEqual(body["apiKeys"], [
    { apiKey: HEARTBEAT_KEY, minVersion: 1, maxVersion: 3 },
    { apiKey: API_VERSIONS_KEY, minVersion: 0, maxVersion: 4 },
  ]);
  assert.equal(client.isClosed, false);
});

test("another API at a version not advertised gets UNSUPPORTED_VERSION", async () => {
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        defineHandler(HEARTBEAT_KEY, { minVersion: 1, maxVersion: 3, handle: () => respond({}) }),
      ),
  });
  const belowRange = await broker.connect();
  const notServed = await broker.connect();
  belowRange.send(HEARTBEAT_KEY, 0, 1, heartbeat(1));
  notServed.send(3, 4, 1, { topics: null });
  await broker.scheduler.runFor(50);
  assert.equal(belowRange.body(0, HEARTBEAT_KEY, 0)["errorCode"], ErrorCode.UNSUPPORTED_VERSION);
  assert.deepEqual(notServed.body(0, 3, 4)["topics"], []);
  assert.equal(belowRange.isClosed, false);
  assert.equal(notServed.isClosed, false);
});

test("KIP-511: ApiVersions lists exactly the registered handlers, names the client", async () => {
  const seen: Array<string | undefined> = [];
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        defineHandler(HEARTBEAT_KEY, {
          minVersion: 0,
          maxVersion: 4,
          handle: (_request, context) => {
            seen.push(context.connection.clientSoftwareName);
            assert.equal(context.connection.principal.name, "ANONYMOUS");
            assert.equal(context.connection.listenerName, "PLAINTEXT");
            return respond({});
          },
        }),
      ),
  });
  const client = await broker.connect();
  client.send(HEARTBEAT_KEY, 4, 1, heartbeat(1));
  const software = { clientSoftwareName: "sluice-test", clientSoftwareVersion: "1.0.0" };
  client.send(API_VERSIONS_KEY, 3, 2, software);
  client.send(HEARTBEAT_KEY, 4, 3, heartbeat(1));
  await broker.scheduler.runFor(50);
  const body = client.body(1, API_VERSIONS_KEY, 3);
  assert.equal(body["errorCode"], ErrorCode.NONE);
  assert.deepEqual(body["apiKeys"], [
    { apiKey: HEARTBEAT_KEY, minVersion: 0, maxVersion: 4 },
    { apiKey: API_VERSIONS_KEY, minVersion: 0, maxVersion: 4 },
  ]);
  assert.deepEqual(seen, [undefined, "sluice-test"]);
});

test("a throwing handler gets UNKNOWN_SERVER_ERROR, is logged, the node serves on", async () => {
  const broker = await startSimBroker({
    register: (router) =>
      router.register(
        defineHandler(HEARTBEAT_KEY, {
          minVersion: 0,
          maxVersion: 4,
          handle: (request) => {
            if (request.generationId === 13) throw new Error("handler bug");
            return respond({ errorCode: 0 });
          },
        }),
      ),
  });
  const client = await broker.connect();
  client.send(HEARTBEAT_KEY, 4, 1, heartbeat(13));
  client.send(HEARTBEAT_KEY, 4, 2, heartbeat(1));
  await broker.scheduler.runFor(50);
  assert.equal(client.body(0, HEARTBEAT_KEY, 4)["errorCode"], ErrorCode.UNKNOWN_SERVER_ERROR);
  assert.equal(client.body(1, HEARTBEAT_KEY, 4)["errorCode"], ErrorCode.NONE);
  assert.ok(broker.logger.lines.some((line) => line.message === "request handler failed"));
  assert.equal(client.isClosed, false);
  assert.deepEqual(broker.fatalErrors, []);
});

test("max.connections refuses connections beyond the limit", async () => {
  const broker = await startSimBroker({ config: { maxConnections: 1 } });
  const first = await broker.connect();
  const second = await broker.connect();
  await broker.scheduler.runFor(50);
  assert.equal(first.isClosed, false);
  assert.equal(second.isClosed, true);
  first.connection.close();
  await broker.scheduler.runFor(50);
  const third = await broker.connect();
  third.send(API_VERSIONS_KEY, 0, 5, {});
  await broker.scheduler.runFor(50);
  assert.deepEqual(third.correlationIds(), [5]);
  assert.equal(broker.server.openConnectionCount, 1);
});

test("close stops the listener and closes every connection", async () => {
  const broker = await startSimBroker();
  const client = await broker.connect();
  await broker.server.close();
  await broker.scheduler.runFor(50);
  assert.equal(client.isClosed, true);
  assert.equal(broker.server.openConnectionCount, 0);
  await assert.rejects(broker.connect(), { code: "ECONNREFUSED" });
});
