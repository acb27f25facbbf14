import { test } from "node:test";
import assert from "node:assert/strict";
import { NodeNetwork, NodeTimers, SystemClock } from "../../src/adapters/index.js";
import {
  RequestRouter,
  SocketServer,
  defineHandler,
  registerApiVersions,
  respond,
} from "../../src/broker/index.js";
import type { Connection } from "../../src/ports/index.js";
import {
  ApiKey,
  FrameDecoder,
  decodeResponse,
  encodeRequest,
  responseCorrelationId,
} from "../../src/protocol/index.js";
import { MemoryLogger, MemoryMetrics } from "../../src/broker/network/test-doubles.test-support.js";

/** A request no lane of the connection orders, so the five below are handled together. */
const HELD_KEY = ApiKey.UnregisterBroker;

/** A real-socket client that resolves once `count` response frames (or a close) arrived. */
function collect(connection: Connection) {
  const frames: Uint8Array[] = [];
  const decoder = new FrameDecoder();
  let wanted = 0;
  let notify = (): void => {};
  let isClosed = false;
  connection.attach({
    data: (chunk) => {
      frames.push(...decoder.push(chunk).frames);
      if (frames.length >= wanted) notify();
    },
    close: () => {
      isClosed = true;
      notify();
    },
  });
  const waitFor = (count: number): Promise<void> =>
    new Promise((resolve) => {
      wanted = count;
      notify = resolve;
      if (frames.length >= count || isClosed) resolve();
    });
  return { frames, waitFor, closed: () => isClosed };
}

test("on loopback sockets the broker answers in order, drops only a bad connection", async () => {
  const network = new NodeNetwork();
  const timers = new NodeTimers();
  const logger = new MemoryLogger();
  const router = new RequestRouter({ logger });
  registerApiVersions(router);
  let pending: Array<() => void> = [];
  router.register(
    defineHandler(HELD_KEY, {
      minVersion: 0,
      maxVersion: 0,
      // Every request waits until the test releases them, last first.
      handle: () =>
        new Promise((resolve) =>
          pending.push(() =>
            resolve(respond({ throttleTimeMs: 0, errorCode: 0, errorMessage: null })),
          ),
        ),
    }),
  );
  const ports = { network, clock: new SystemClock(), timers, logger, metrics: new MemoryMetrics() };
  const server = new SocketServer(ports, router);
  const address = await server.listen("PLAINTEXT", { host: "127.0.0.1", port: 0 });
  const good = collect(await network.connect(address));
  const bad = collect(await network.connect(address));
  const goodConnection = await network.connect(address);
  const client = collect(goodConnection);
  for (let id = 1; id <= 5; id++) {
    const header = { apiKey: HELD_KEY, apiVersion: 0, correlationId: id, clientId: "t" };
    goodConnection.write(encodeRequest(header, { brokerId: id }));
  }
  // The handlers run once the frames arrive; real sockets need event-loop turns for that.
  const deadline = performance.now() + 10_000;
  while (pending.length < 5) {
    assert.ok(performance.now() < deadline, `${pending.length} of 5 requests handled at once`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const release = pending.reverse();
  pending = [];
  release.forEach((resolve) => resolve());
  await client.waitFor(5);
  assert.deepEqual(
    client.frames.map((frame) => responseCorrelationId(frame)),
    [1, 2, 3, 4, 5],
  );
  const decoded = decodeResponse(client.frames[0] as Uint8Array, HELD_KEY, 0);
  assert.equal(decoded.kind, "response");
  const badConnection = await network.connect(address);
  const badClient = collect(badConnection);
  badConnection.write(Uint8Array.of(0x7f, 0xff, 0xff, 0xff));
  await badClient.waitFor(1);
  assert.equal(badClient.closed(), true);
  assert.equal(bad.closed(), false);
  await server.close();
  await good.waitFor(1);
  assert.equal(good.closed(), true);
});
