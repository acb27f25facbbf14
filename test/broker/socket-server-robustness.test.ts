import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiKey, API_VERSIONS_KEY, encodeRequest } from "../../src/protocol/index.js";
import { defineHandler, respond, type HandlerContext } from "../../src/broker/index.js";
import { startSimBroker, type RawClient } from "./sim-broker.js";

const POOL_BYTES = 4000;

/** A broker whose Produce handler holds each request until the test lets it go. */
async function brokerHoldingProduces() {
  const held: Array<{ readonly context: HandlerContext; readonly answer: () => void }> = [];
  const broker = await startSimBroker({
    config: { queuedMaxRequestBytes: POOL_BYTES, socketRequestMaxBytes: POOL_BYTES },
    register: (router) =>
      router.register(
        defineHandler(ApiKey.Produce, {
          minVersion: 3,
          maxVersion: 11,
          handle: (_request, context) =>
            new Promise((resolve) => {
              held.push({ context, answer: () => resolve(respond({ responses: [] })) });
            }),
          errorResponse: () => respond({ responses: [] }),
        }),
      ),
  });
  return { broker, held };
}

/**
 * Writes a Produce frame of about `recordBytes` bytes as its first 10 bytes, then the rest unless
 * `isCut`; returns the frame's size.
 */
function sendProduce(
  client: RawClient,
  correlationId: number,
  recordBytes: number,
  options: { readonly isCut?: boolean } = {},
): number {
  const header = { apiKey: ApiKey.Produce, apiVersion: 9, correlationId, clientId: "memory" };
  const partitionData = [{ index: 0, records: new Uint8Array(recordBytes) }];
  const body = { transactionalId: null, acks: 1, timeoutMs: 1000, topicData: [] as object[] };
  body.topicData.push({ name: "t", partitionData });
  const chunks = encodeRequest(header, body);
  const frame = Buffer.concat(chunks);
  client.connection.write(frame.subarray(0, 10));
  if (options.isCut !== true) client.connection.write(frame.subarray(10));
  return frame.length - 4;
}

test("queued.max.request.bytes makes a connection wait before reading a frame's body", async () => {
  const { broker, held } = await brokerHoldingProduces();
  const first = await broker.connect();
  const second = await broker.connect();
  const third = await broker.connect();
  const size = sendProduce(first, 1, 2500);
  await broker.scheduler.runFor(50);
  sendProduce(second, 2, 2500);
  await broker.scheduler.runFor(50);
  // The first frame left memory; the second was granted all the same and overshoots the pool.
  assert.equal(held.length, 2);
  assert.equal(broker.server.requestMemoryUsedBytes, 2 * size);
  sendProduce(third, 3, 2500);
  third.send(API_VERSIONS_KEY, 0, 4, {});
  await broker.scheduler.runFor(50);
  assert.equal(held.length, 2, "the third frame's body is not read while the pool is empty");
  assert.deepEqual(third.correlationIds(), []);
  held[0]?.answer();
  await broker.scheduler.runFor(50);
  assert.equal(held.length, 3);
  assert.deepEqual(first.correlationIds(), [1]);
  assert.deepEqual(third.correlationIds(), []);
  assert.equal(broker.server.requestMemoryUsedBytes, 2 * size);
  // A produce whose records are appended gives its bytes back before it is answered.
  held[1]?.context.requestBytesDone?.();
  held[2]?.context.requestBytesDone?.();
  await broker.scheduler.runFor(50);
  assert.equal(broker.server.requestMemoryUsedBytes, 0);
  assert.deepEqual(third.correlationIds(), [], "responses keep request order");
  held[2]?.answer();
  await broker.scheduler.runFor(50);
  assert.deepEqual(third.correlationIds(), [3, 4]);
  assert.equal(broker.metrics.valueOf("sluice_request_memory_used_bytes"), 0);
});

test("a connection closed in the middle of a frame gives its memory back", async () => {
  const { broker, held } = await brokerHoldingProduces();
  const [first, second, third] = [
    await broker.connect(),
    await broker.connect(),
    await broker.connect(),
  ];
  sendProduce(first, 1, 2500, { isCut: true });
  await broker.scheduler.runFor(50);
  sendProduce(second, 2, 2500);
  await broker.scheduler.runFor(50);
  sendProduce(third, 3, 2500);
  await broker.scheduler.runFor(50);
  assert.deepEqual(
    held.map((each) => each.context.header.correlationId),
    [2],
    "the third waits for the memory the first was granted",
  );
  first.connection.close();
  await broker.scheduler.runFor(50);
  assert.deepEqual(
    held.map((each) => each.context.header.correlationId),
    [2, 3],
  );
  for (const each of held) each.answer();
  await broker.scheduler.runFor(50);
  assert.equal(broker.server.requestMemoryUsedBytes, 0);
  assert.deepEqual([second.correlationIds(), third.correlationIds()], [[2], [3]]);
});

test("without queued.max.request.bytes no frame waits for memory", async () => {
  const broker = await startSimBroker();
  const clients = [await broker.connect(), await broker.connect()];
  for (const [index, client] of clients.entries()) client.send(API_VERSIONS_KEY, 0, index, {});
  await broker.scheduler.runFor(50);
  assert.deepEqual(
    clients.map((client) => client.correlationIds()),
    [[0], [1]],
  );
  assert.equal(broker.server.requestMemoryUsedBytes, 0);
});

test("max.connections.per.ip.overrides sets the limit of the hosts it names", async () => {
  const overrides = new Map([
    ["host-a", 1],
    ["host-c", 0],
  ]);
  const broker = await startSimBroker({
    config: { maxConnectionsPerIp: 2, maxConnectionsPerIpOverrides: overrides },
  });
  const fromA = [await broker.connect("host-a"), await broker.connect("host-a")];
  const fromB = [await broker.connect("host-b"), await broker.connect("host-b")];
  const fromC = await broker.connect("host-c");
  await broker.scheduler.runFor(50);
  assert.deepEqual(
    [...fromA, ...fromB, fromC].map((client) => client.isClosed),
    [false, true, false, false, true],
  );
  assert.ok(
    broker.logger.lines.some((line) =>
      line.message.includes("max.connections.per.ip.overrides reached"),
    ),
  );
});

test("connections.max.idle.ms=-1 keeps a quiet connection open", async () => {
  const broker = await startSimBroker({ config: { connectionsMaxIdleMs: -1 } });
  const client = await broker.connect();
  client.send(API_VERSIONS_KEY, 0, 1, {});
  await broker.scheduler.runFor(24 * 60 * 60 * 1000);
  assert.equal(client.isClosed, false);
  client.send(API_VERSIONS_KEY, 0, 2, {});
  await broker.scheduler.runFor(50);
  assert.deepEqual(client.correlationIds(), [1, 2]);
});
