/**
 * Bad input against a running node: undecodable, truncated and oversized frames close the
 * connection; CreateTopics with an invalid name or a negative partition count and Produce with a
 * corrupt batch get Kafka's error codes. After each, the node still serves other clients, and
 * the records written before read back unchanged.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { connect } from "node:net";
import { promisify } from "node:util";
import { ErrorCode } from "../../src/common/index.js";
import { withConnection } from "../../src/client/index.js";
import { createTopics, encodeBatch, produce } from "../../src/protocol/index.js";
import { clientPorts, SluiceProcess, withDeadline } from "../clients/sluice-process.js";

const run = promisify(execFile);
const FRAME_LIMIT_BYTES = 1024 * 1024;
const WRITTEN = Array.from({ length: 100 }, (_, index) => `key-${index % 9}=written ${index}`);

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create([`socket.request.max.bytes=${FRAME_LIMIT_BYTES}`]);
  await node.start();
  await kcat(["-P", "-t", "kept", "-K", "=", "-X", "acks=all"], `${WRITTEN.join("\n")}\n`);
});

after(async () => {
  await node.destroy();
});

async function kcat(args: readonly string[], input?: string): Promise<string> {
  const child = run("kcat", ["-b", node.bootstrap, ...args], { timeout: 60_000 });
  if (input !== undefined) child.child.stdin?.end(input);
  return (await child).stdout;
}

/** The records written in `before`, read back from the beginning. */
async function expectWrittenRecordsUnchanged(): Promise<void> {
  const consumed = await kcat(["-C", "-t", "kept", "-o", "beginning", "-e", "-f", "%k=%s\\n"]);
  assert.deepEqual(consumed.split("\n").slice(0, -1), WRITTEN);
}

/** Sends `bytes` on a new raw connection and resolves when the node closes it. */
async function expectClosedAfter(bytes: Buffer, options: { endInput: boolean }): Promise<void> {
  const socket = connect(node.ports.client, "127.0.0.1");
  const closed = new Promise<void>((resolve) => {
    socket.on("close", () => resolve());
    socket.on("error", () => undefined);
    socket.on("data", () => undefined);
  });
  socket.write(bytes);
  if (options.endInput) socket.end();
  await withDeadline(closed, 20_000, () => "the node closed the connection");
}

function frame(body: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

/** A deterministic pseudo-random body (a seeded linear congruential generator). */
function garbage(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

test("a garbage frame closes its connection and the node serves on", async () => {
  for (const seed of [1, 2, 3]) {
    await expectClosedAfter(frame(garbage(64, seed)), { endInput: false });
  }
  await expectClosedAfter(frame(Buffer.from([0xff, 0xff, 0, 0, 0, 0, 0, 1, 0, 0])), {
    endInput: false,
  });
  await expectWrittenRecordsUnchanged();
});

test("a truncated frame closes its connection and the node serves on", async () => {
  const whole = frame(garbage(200, 4));
  await expectClosedAfter(whole.subarray(0, 50), { endInput: true });
  await expectWrittenRecordsUnchanged();
});

test("a frame over socket.request.max.bytes closes its connection at once", async () => {
  const size = Buffer.alloc(4);
  size.writeInt32BE(FRAME_LIMIT_BYTES + 1);
  await expectClosedAfter(size, { endInput: false });
  const negative = Buffer.alloc(4);
  negative.writeInt32BE(-1);
  await expectClosedAfter(negative, { endInput: false });
  await expectWrittenRecordsUnchanged();
});

/** CreateTopics with one topic; resolves to its error code. */
async function createTopicError(name: string, numPartitions: number): Promise<number> {
  const body = {
    topics: [{ name, numPartitions, replicationFactor: 1, assignments: [], configs: [] }],
    timeoutMs: 10_000,
    validateOnly: false,
  };
  const result = await withConnection(
    { host: "127.0.0.1", port: node.ports.client },
    clientPorts(),
    (connection) => connection.send(createTopics, body, { maxVersion: 7 }),
    { requestTimeoutMs: 20_000 },
  );
  assert.equal(result.kind, "response");
  if (result.kind !== "response") throw new Error("unreachable");
  const topic = result.body.topics[0];
  assert.ok(topic !== undefined);
  return topic.errorCode;
}

test("CreateTopics refuses invalid names with INVALID_TOPIC_EXCEPTION", async () => {
  for (const name of ["bad/name", "..", "x".repeat(250), "has space"]) {
    assert.equal(await createTopicError(name, 1), ErrorCode.INVALID_TOPIC_EXCEPTION, name);
  }
  await expectWrittenRecordsUnchanged();
});

test("CreateTopics refuses a negative partition count with INVALID_PARTITIONS", async () => {
  assert.equal(await createTopicError("negative-partitions", -5), ErrorCode.INVALID_PARTITIONS);
  assert.equal(await createTopicError("zero-partitions", 0), ErrorCode.INVALID_PARTITIONS);
  await expectWrittenRecordsUnchanged();
});

test("Produce of a batch with a bad CRC is CORRUPT_MESSAGE and writes nothing", async () => {
  const batch = encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: [{ timestamp: 1_700_000_000_000, key: Buffer.from("k"), value: Buffer.from("bad") }],
  });
  const corrupt = Buffer.from(batch);
  // The last byte belongs to the record, which the CRC-32C covers.
  corrupt[corrupt.length - 1] = (corrupt[corrupt.length - 1] ?? 0) ^ 0xff;
  const body = {
    transactionalId: null,
    acks: -1,
    timeoutMs: 10_000,
    topicData: [{ name: "kept", partitionData: [{ index: 0, records: corrupt }] }],
  };
  const result = await withConnection(
    { host: "127.0.0.1", port: node.ports.client },
    clientPorts(),
    (connection) => connection.send(produce, body, { maxVersion: 9 }),
    { requestTimeoutMs: 20_000 },
  );
  assert.equal(result.kind, "response");
  if (result.kind !== "response") throw new Error("unreachable");
  const partition = result.body.responses[0]?.partitionResponses[0];
  assert.equal(partition?.errorCode, ErrorCode.CORRUPT_MESSAGE);
  await expectWrittenRecordsUnchanged();
});
