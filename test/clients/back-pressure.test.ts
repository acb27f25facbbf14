/**
 * Connection back-pressure on a real node: clients that pipeline requests and never read their
 * responses are muted once their send buffers fill, and hold one Fetch at a time, so they
 * neither grow the node nor keep it from answering a client that does read; and
 * max.connections.per.ip.overrides lets loopback open connections where
 * max.connections.per.ip=0 lets no other host.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel } from "kafkajs";
import { withConnection } from "../../src/client/index.js";
import { API_VERSIONS_KEY, ApiKey, encodeRequest, metadata } from "../../src/protocol/index.js";
import { RawSocket, peakResidentBytes } from "./raw-socket.js";
import { SluiceProcess, clientPorts, withDeadline } from "./sluice-process.js";

const SILENT_CLIENTS = 20;
/** Requests each silent client pipelines: half Fetches of up to 1 MiB, half Metadata. */
const REQUESTS_PER_CLIENT = 400;
const PROBE_ANSWERS = 50;
const LOOPBACK_CONNECTIONS = 40;
const DEADLINE_MS = 60_000;
const TOPIC = "backlog";
/**
 * Each silent client costs the responses its send buffers hold and one Fetch's: the node peaked
 * near 150 MiB. While every connection handled up to 100 of its pipelined Fetches at once, it
 * passed 1 GiB.
 */
const RESIDENT_BOUND_BYTES = 500 * 1024 * 1024;
let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create([
    "max.connections.per.ip=0",
    `max.connections.per.ip.overrides=127.0.0.1:${LOOPBACK_CONNECTIONS}`,
  ]);
  await node.start();
  const kafka = new Kafka({
    clientId: "backlog",
    brokers: [node.bootstrap],
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer();
  await producer.connect();
  try {
    const value = "v".repeat(1000);
    const messages = Array.from({ length: 1000 }, () => ({ value }));
    await producer.send({ topic: TOPIC, messages });
  } finally {
    await producer.disconnect();
  }
});

after(async () => {
  await node.destroy();
});

/** A series of the node's /metrics, or undefined when it is absent. */
async function metricOf(name: string, labels: string): Promise<number | undefined> {
  const response = await fetch(`http://127.0.0.1:${node.ports.http}/metrics`);
  const text = await response.text();
  const line = text.split("\n").find((each) => each.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.split(" ").at(-1));
}

/** Waits until no client connection is open (the ones before the test were closed). */
async function untilNoClientConnection(): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while ((await metricOf("sluice_connections_open", 'server="client"')) !== 0) {
    assert.ok(Date.now() < deadline, "client connections stay open");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function pipelinedRequests(): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let correlationId = 1; correlationId <= REQUESTS_PER_CLIENT; correlationId++) {
    const header = { correlationId, clientId: "silent" };
    if (correlationId % 2 === 0) {
      chunks.push(...encodeRequest({ ...header, apiKey: ApiKey.Metadata, apiVersion: 12 }, {}));
      continue;
    }
    const partitions = [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1_048_576 }];
    const body = {
      maxWaitMs: 0,
      minBytes: 1,
      maxBytes: 1_048_576,
      topics: [{ topic: TOPIC, partitions }],
      forgottenTopicsData: [],
    };
    chunks.push(...encodeRequest({ ...header, apiKey: ApiKey.Fetch, apiVersion: 12 }, body));
  }
  return chunks;
}

test("clients that never read their answers do not keep the node from one that does", async () => {
  const silent: RawSocket[] = [];
  try {
    const requests = pipelinedRequests();
    for (let index = 0; index < SILENT_CLIENTS; index++) {
      const socket = await RawSocket.open(node.ports.client, { isReading: false });
      silent.push(socket);
      void socket.write(requests);
    }
    const answered = await withConnection(
      { host: "127.0.0.1", port: node.ports.client },
      clientPorts(),
      async (connection) => {
        let count = 0;
        for (let round = 0; round < PROBE_ANSWERS; round++) {
          const result = await connection.send(metadata, { topics: null }, { maxVersion: 12 });
          if (result.kind === "response") count++;
        }
        return count;
      },
      { requestTimeoutMs: DEADLINE_MS },
    );
    assert.equal(answered, PROBE_ANSWERS, node.log);
    assert.ok(
      silent.every((socket) => !socket.isClosed),
      "a slow reader is not closed",
    );
    const peak = peakResidentBytes(node.pid);
    assert.ok(peak < RESIDENT_BOUND_BYTES, `peak resident ${Math.round(peak / 2 ** 20)} MiB`);
  } finally {
    for (const socket of silent) socket.destroy();
  }
  assert.ok((await metricOf("sluice_event_loop_delay_ms", 'stat="max"')) !== undefined);
});

test("max.connections.per.ip.overrides gives loopback its own number of connections", async () => {
  await untilNoClientConnection();
  const sockets: RawSocket[] = [];
  try {
    const apiVersions = encodeRequest(
      { apiKey: API_VERSIONS_KEY, apiVersion: 0, correlationId: 1, clientId: "count" },
      {},
    );
    for (let index = 0; index <= LOOPBACK_CONNECTIONS; index++) {
      const socket = await RawSocket.open(node.ports.client, { isReading: true });
      sockets.push(socket);
      await socket.write(apiVersions);
    }
    const answers = sockets.slice(0, LOOPBACK_CONNECTIONS);
    await Promise.all(answers.map((socket) => socket.waitForFrames(1, DEADLINE_MS)));
    const extra = sockets[LOOPBACK_CONNECTIONS] as RawSocket;
    await withDeadline(
      new Promise<void>((resolve) => extra.socket.once("close", () => resolve())),
      DEADLINE_MS,
      () => "the connection past the override stays open",
    ).catch((error: unknown) => {
      if (!extra.isClosed) throw error;
    });
    assert.equal(extra.frames.length, 0);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
});
