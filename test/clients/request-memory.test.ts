/**
 * queued.max.request.bytes on a real node: eight clients that each send a Produce frame of
 * 100 MB at once are read a frame or two at a time, so the node's resident memory stays far
 * below the gigabyte that reading all eight together takes, and the node keeps
 * answering other clients. The peak resident size is read from /proc (VmHWM), so no sampling
 * can miss it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { withConnection } from "../../src/client/index.js";
import {
  ApiKey,
  decodeResponse,
  encodeFrameSize,
  encodeRequest,
  metadata,
} from "../../src/protocol/index.js";
import { RawSocket, peakResidentBytes } from "./raw-socket.js";
import { SluiceProcess, clientPorts, withDeadline } from "./sluice-process.js";

const CLIENTS = 8;
const RECORD_BYTES = 100_000_000;
/** Kafka's floor for a bounded pool: socket.request.max.bytes, whose default (100 MiB) it is. */
const POOL_BYTES = 104_857_600;
/**
 * The pool lets at most two such frames be read at once (the second overshoots it, as Kafka's
 * non-strict pool does), each into a buffer of its size: the node peaked at 310 to 360 MiB.
 * Without the pool the eight are read together and it peaked at 870 to 960 MiB.
 */
const RESIDENT_BOUND_BYTES = 600 * 1024 * 1024;
const DEADLINE_MS = 180_000;
let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create([`queued.max.request.bytes=${POOL_BYTES}`]);
  await node.start();
});

after(async () => {
  await node.destroy();
});

function bigProduce(): Uint8Array[] {
  const header = { apiKey: ApiKey.Produce, apiVersion: 9, correlationId: 1, clientId: "big" };
  const partitionData = [{ index: 0, records: new Uint8Array(RECORD_BYTES) }];
  const topicData = [{ name: "big-frames", partitionData }];
  return encodeRequest(header, { transactionalId: null, acks: 1, timeoutMs: 30_000, topicData });
}

test("eight 100 MB produce frames at once stay within the request memory pool", async () => {
  const frame = bigProduce();
  const sockets: RawSocket[] = [];
  try {
    for (let index = 0; index < CLIENTS; index++) {
      sockets.push(await RawSocket.open(node.ports.client, { isReading: true }));
    }
    const writes = sockets.map((socket) => socket.write(frame));
    // A new client is read once the pool has memory again, and answered.
    const probe = await withConnection(
      { host: "127.0.0.1", port: node.ports.client },
      clientPorts(),
      (connection) => connection.send(metadata, { topics: null }, { maxVersion: 12 }),
      { requestTimeoutMs: DEADLINE_MS },
    );
    assert.equal(probe.kind, "response", node.log);
    await Promise.all(writes);
    await Promise.all(sockets.map((socket) => socket.waitForFrames(1, DEADLINE_MS)));
    for (const socket of sockets) {
      const answer = decodeResponse(socket.frames[0] as Uint8Array, ApiKey.Produce, 9);
      assert.equal(answer.kind, "response");
    }
  } finally {
    for (const socket of sockets) socket.destroy();
  }
  const peak = peakResidentBytes(node.pid);
  assert.ok(peak < RESIDENT_BOUND_BYTES, `peak resident ${Math.round(peak / 2 ** 20)} MiB`);
});

test("a frame over socket.request.max.bytes closes its connection before its body", async () => {
  const socket = await RawSocket.open(node.ports.client, { isReading: true });
  try {
    // Only the size prefix is sent: the node refuses on the size alone, as Kafka does.
    await socket.write([encodeFrameSize(POOL_BYTES + 1)]);
    await withDeadline(
      new Promise<void>((resolve) => {
        if (socket.isClosed) resolve();
        socket.socket.once("close", () => resolve());
      }),
      DEADLINE_MS,
      () => "the connection stays open",
    );
    assert.equal(socket.frames.length, 0);
  } finally {
    socket.destroy();
  }
  assert.match(node.log, /exceeds socket\.request\.max\.bytes/);
});
