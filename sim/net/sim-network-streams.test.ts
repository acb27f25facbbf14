import { test } from "node:test";
import assert from "node:assert/strict";
import type { Connection } from "../../src/ports/index.js";
import { Scheduler } from "../scheduler.js";
import { settle } from "../settle.js";
import type { LinkSettings } from "./links.js";
import { SimNetwork } from "./sim-network.js";

/** Attaches to `connection` and records what it delivers. */
function record(connection: Connection) {
  const state = { bytes: [] as number[], closes: [] as Array<string | undefined>, drains: 0 };
  connection.attach({
    data: (chunk) => state.bytes.push(...chunk),
    drain: () => (state.drains += 1),
    close: (error) => state.closes.push(error === undefined ? undefined : error.message),
  });
  return state;
}

/** A network with a listener on b:9092 and a connection from a to it. */
async function connectedPair(settings: Partial<LinkSettings> = {}, seed = 1) {
  const scheduler = new Scheduler({ seed });
  const network = new SimNetwork(scheduler, { links: settings, sendBufferBytes: 1000 });
  const accepted: Connection[] = [];
  const listener = await network
    .forNode("b")
    .listen({ host: "b", port: 9092 }, (connection) => accepted.push(connection));
  const client = await settle(scheduler, network.forNode("a").connect(listener.address));
  const server = accepted[0];
  assert.ok(server !== undefined);
  return { scheduler, network, client, server, listener };
}

test("a stream delivers bytes whole and in order through delay and splitting", async () => {
  for (let seed = 1; seed <= 20; seed++) {
    const settings = { delayMinMs: 0, delayMaxMs: 20, splitProbability: 0.5 };
    const { scheduler, client, server } = await connectedPair(settings, seed);
    const atServer = record(server);
    const sent: number[] = [];
    for (let index = 0; index < 50; index++) {
      const chunk = Array.from({ length: ((index * 37) % 90) + 1 }, (_, at) => (index + at) & 0xff);
      scheduler.schedule(index % 7, () => {
        sent.push(...chunk);
        client.write([Uint8Array.from(chunk)]);
      });
    }
    await scheduler.runUntilIdle();
    assert.deepEqual(atServer.bytes, sent);
  }
});

test("addresses name the node and port, and port 0 gets a free port", async () => {
  const { scheduler, network, client, server } = await connectedPair();
  assert.deepEqual(client.remoteAddress, { host: "b", port: 9092 });
  assert.deepEqual(server.localAddress, { host: "b", port: 9092 });
  assert.deepEqual(server.remoteAddress, client.localAddress);
  const free = await network.forNode("b").listen({ host: "b", port: 0 }, () => {});
  assert.ok(free.address.port > 0);
  await assert.rejects(
    network.forNode("b").listen({ host: "b", port: 9092 }, () => {}),
    {
      code: "EADDRINUSE",
    },
  );
  await assert.rejects(settle(scheduler, network.forNode("a").connect({ host: "b", port: 1 })), {
    code: "ECONNREFUSED",
  });
  await assert.rejects(settle(scheduler, network.forNode("a").connect({ host: "z", port: 1 })), {
    code: "ENOTFOUND",
  });
});

test("a one-way cut holds bytes that way only, and heal delivers them", async () => {
  const { scheduler, network, client, server } = await connectedPair();
  const atServer = record(server);
  const atClient = record(client);
  network.cut("a", "b");
  client.write(Uint8Array.of(1, 2));
  server.write(Uint8Array.of(9));
  await scheduler.runFor(500);
  assert.deepEqual(atServer.bytes, []);
  assert.deepEqual(atClient.bytes, [9]);
  client.write(Uint8Array.of(3));
  network.heal("a", "b");
  await scheduler.runUntilIdle();
  assert.deepEqual(atServer.bytes, [1, 2, 3]);
  network.partition(["a"], ["b"]);
  await assert.rejects(settle(scheduler, network.forNode("a").connect({ host: "b", port: 9092 })), {
    code: "ETIMEDOUT",
  });
});

test("close ends both sides after the data, destroy resets the peer", async () => {
  const first = await connectedPair();
  const atServer = record(first.server);
  const atClient = record(first.client);
  first.client.write(Uint8Array.of(7));
  first.client.close();
  assert.equal(first.client.write(Uint8Array.of(8)), false, "no writes after close");
  await first.scheduler.runUntilIdle();
  assert.deepEqual(atServer.bytes, [7]);
  assert.deepEqual(atServer.closes, [undefined]);
  assert.deepEqual(atClient.closes, [undefined]);
  const second = await connectedPair();
  const server = record(second.server);
  const client = record(second.client);
  second.client.destroy(new Error("bad frame"));
  await second.scheduler.runUntilIdle();
  assert.deepEqual(client.closes, ["bad frame"]);
  assert.equal(server.closes.length, 1);
  assert.match(server.closes[0] ?? "", /ECONNRESET/);
});

test("a crashed node's connections reset at the peer and report nothing locally", async () => {
  const { scheduler, client, server } = await connectedPair();
  const atServer = record(server);
  const atClient = record(client);
  server.write(Uint8Array.of(1));
  scheduler.node("a").crash();
  await scheduler.runUntilIdle();
  assert.deepEqual(atClient.bytes, []);
  assert.deepEqual(atClient.closes, []);
  assert.match(atServer.closes[0] ?? "", /ECONNRESET/);
});

test("a dropping link resets the connection instead of losing bytes inside it", async () => {
  const { scheduler, client, server } = await connectedPair({ dropProbability: 1 });
  const atServer = record(server);
  const atClient = record(client);
  assert.equal(client.write(Uint8Array.of(1)), false);
  await scheduler.runUntilIdle();
  assert.deepEqual(atServer.bytes, []);
  assert.match(atServer.closes[0] ?? "", /ECONNRESET/);
  assert.match(atClient.closes[0] ?? "", /ECONNRESET/);
});

test("writes beyond the send buffer return false and drain follows delivery", async () => {
  const { scheduler, client, server } = await connectedPair();
  const atClient = record(client);
  record(server);
  assert.equal(client.write(new Uint8Array(600)), true);
  assert.equal(client.write(new Uint8Array(600)), false);
  await scheduler.runUntilIdle();
  assert.equal(atClient.drains, 1);
});

test("data waits for attach and while reading is paused", async () => {
  const { scheduler, client, server } = await connectedPair();
  client.write(Uint8Array.of(1));
  await scheduler.runUntilIdle();
  server.pauseReading();
  const atServer = record(server);
  client.write(Uint8Array.of(2));
  await scheduler.runUntilIdle();
  assert.deepEqual(atServer.bytes, []);
  server.resumeReading();
  await scheduler.runUntilIdle();
  assert.deepEqual(atServer.bytes, [1, 2]);
});
