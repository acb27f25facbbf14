/**
 * The test harness's node process: a first start whose free port another process took in the
 * meantime starts again on new ports instead of failing the test that asked for a node.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { SluiceProcess } from "./sluice-process.js";

/** A listener holding a port, as another test's process would. */
async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  return { server, port: address.port };
}

test("a first start on a port taken meanwhile moves to new ports and serves clients", async () => {
  const { server, port } = await holdPort();
  const node = await SluiceProcess.create();
  try {
    node.ports = { ...node.ports, client: port };
    await node.start();
    assert.notEqual(node.ports.client, port, "the node moved off the taken port");
    assert.match(node.log, /Sluice listening on/);
  } finally {
    await node.destroy();
    server.close();
  }
});

test("a start whose settings name its ports keeps them, and says why it failed", async () => {
  const { server, port } = await holdPort();
  const node = await SluiceProcess.create([`advertised.listeners=PLAINTEXT://127.0.0.1:${port}`]);
  try {
    node.ports = { ...node.ports, client: port };
    await assert.rejects(node.start(), /address is in use|EADDRINUSE/);
    assert.equal(node.ports.client, port);
  } finally {
    await node.destroy();
    server.close();
  }
});
