import { test } from "node:test";
import assert from "node:assert/strict";
import type { Connection } from "../ports/index.js";
import { NodeNetwork } from "./node-network.js";

const loopback = "127.0.0.1";

/** Collects what a connection delivers and resolves when it closes. */
function collect(connection: Connection) {
  const chunks: Uint8Array[] = [];
  let onData = (): void => {};
  const closed = new Promise<Error | undefined>((resolve) =>
    connection.attach({
      data: (chunk) => {
        chunks.push(chunk);
        onData();
      },
      close: (error) => resolve(error),
    }),
  );
  const received = (): string => Buffer.concat(chunks).toString();
  /** Resolves once `length` bytes have arrived. */
  const waitFor = (length: number): Promise<void> =>
    new Promise((resolve) => {
      onData = () => {
        if (received().length >= length) resolve();
      };
      onData();
    });
  return { closed, received, waitFor };
}

/** Listens on a free port and resolves the first accepted connection alongside the client. */
async function connectedPair(network: NodeNetwork) {
  let accept: (connection: Connection) => void = () => {};
  const accepted = new Promise<Connection>((resolve) => (accept = resolve));
  const listener = await network.listen({ host: loopback, port: 0 }, (connection) =>
    accept(connection),
  );
  assert.ok(listener.address.port > 0, "port 0 gives the real port");
  const client = await network.connect({ host: loopback, port: listener.address.port });
  const server = await accepted;
  return { listener, client, server };
}

test("bytes written on one end arrive on the other, vectored writes included", async () => {
  const network = new NodeNetwork();
  const { listener, client, server } = await connectedPair(network);
  assert.equal(client.remoteAddress.port, listener.address.port);
  assert.equal(server.localAddress.port, listener.address.port);
  const atServer = collect(server);
  const atClient = collect(client);
  assert.equal(client.write(Buffer.from("ping ")), true);
  client.write([Buffer.from("in "), Buffer.from("two")]);
  await atServer.waitFor(11);
  assert.equal(atServer.received(), "ping in two");
  server.write(Buffer.from("pong"));
  await atClient.waitFor(4);
  assert.equal(atClient.received(), "pong");
  client.close();
  assert.equal(await atServer.closed, undefined, "a close is not a failure");
  assert.equal(await atClient.closed, undefined);
  await listener.close();
});

test("data sent before attach is held until attach", async () => {
  const network = new NodeNetwork();
  const { listener, client, server } = await connectedPair(network);
  const atClient = collect(client);
  client.write(Buffer.from("early"));
  // The server answers only once it has read the early bytes, which proves they were held.
  const atServer = collect(server);
  await atServer.waitFor(5);
  assert.equal(atServer.received(), "early");
  server.destroy();
  await atServer.closed;
  await atClient.closed;
  await listener.close();
});

test("paused reading holds data until resumed", async () => {
  const network = new NodeNetwork();
  const { listener, client, server } = await connectedPair(network);
  server.pauseReading();
  const atServer = collect(server);
  const atClient = collect(client);
  client.write(Buffer.from("held"));
  // A round trip on the other direction shows the bytes had time to arrive while paused.
  server.write(Buffer.from("x"));
  await atClient.waitFor(1);
  client.write(Buffer.from("!"));
  server.write(Buffer.from("y"));
  await atClient.waitFor(2);
  assert.equal(atServer.received(), "");
  server.resumeReading();
  await atServer.waitFor(5);
  assert.equal(atServer.received(), "held!");
  client.destroy();
  await atServer.closed;
  await atClient.closed;
  await listener.close();
});

test("destroy with an error reports it locally and the peer sees the end", async () => {
  const network = new NodeNetwork();
  const { listener, client, server } = await connectedPair(network);
  const atServer = collect(server);
  const atClient = collect(client);
  const failure = new Error("frame too large");
  server.destroy(failure);
  assert.equal(await atServer.closed, failure);
  await atClient.closed;
  assert.equal(server.write(Buffer.from("late")), false);
  await listener.close();
});

test("connecting where nothing listens fails, and a closed listener stops accepting", async () => {
  const network = new NodeNetwork();
  const listener = await network.listen({ host: loopback, port: 0 }, (connection) =>
    connection.destroy(),
  );
  const port = listener.address.port;
  await listener.close();
  await listener.close();
  await assert.rejects(network.connect({ host: loopback, port }), { code: "ECONNREFUSED" });
});

test("listening on a port in use fails", async () => {
  const network = new NodeNetwork();
  const listener = await network.listen({ host: loopback, port: 0 }, (connection) =>
    connection.destroy(),
  );
  await assert.rejects(
    network.listen(listener.address, () => {}),
    { code: "EADDRINUSE" },
  );
  await listener.close();
});
