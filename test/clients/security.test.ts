/**
 * Real clients against a node's TLS and SASL listeners (security-node.ts): kcat over mTLS (the
 * certificate's subject mapped to the principal), SASL/PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512
 * over TLS; kafkajs over SASL/PLAIN and SCRAM; @platformatic/kafka (under Node 22) over mTLS and
 * SCRAM-SHA-512 over TLS; and the refusals: a wrong password gets Kafka's
 * SASL_AUTHENTICATION_FAILED message, an untrusted certificate and a plaintext client on a TLS
 * port fail their handshake, a request before authentication closes the connection; the node
 * serves on after each.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:net";
import { promisify } from "node:util";
import kafkajs from "kafkajs";
import { ApiKey, decodeResponse, encodeRequest } from "../../src/protocol/index.js";
import { RawSocket } from "./raw-socket.js";
import { SecurityNode } from "./security-node.js";

const run = promisify(execFile);
let node: SecurityNode;

before(async () => {
  node = await SecurityNode.start();
});

after(async () => {
  await node.destroy();
});

type Result = { ok: true; stdout: string } | { ok: false; stderr: string };

async function kcat(args: readonly string[], input?: string): Promise<Result> {
  const child = run("kcat", [...args], { timeout: 60_000 });
  child.child.stdin?.end(input ?? "");
  try {
    return { ok: true, stdout: (await child).stdout };
  } catch (error) {
    return { ok: false, stderr: String((error as { stderr?: string }).stderr ?? error) };
  }
}

const mtls = () => [
  "-X",
  "security.protocol=SSL",
  "-X",
  `ssl.ca.location=${node.file("ca.pem")}`,
  "-X",
  `ssl.certificate.location=${node.file("client.pem")}`,
  "-X",
  `ssl.key.location=${node.file("client.key")}`,
];
const sasl = (protocol: string, mechanism: string, user: string, password: string) => [
  "-X",
  `security.protocol=${protocol}`,
  "-X",
  `sasl.mechanisms=${mechanism}`,
  "-X",
  `sasl.username=${user}`,
  "-X",
  `sasl.password=${password}`,
  ...(protocol === "SASL_SSL" ? ["-X", `ssl.ca.location=${node.file("ca.pem")}`] : []),
];
const ssl = () => `127.0.0.1:${node.ports.ssl}`;
const saslSsl = () => `127.0.0.1:${node.ports.saslSsl}`;
const saslPlaintext = () => `127.0.0.1:${node.ports.saslPlaintext}`;

async function produceAndConsume(bootstrap: string, security: string[], topic: string) {
  const produced = await kcat(
    ["-P", "-b", bootstrap, "-t", topic, "-X", "acks=all", ...security],
    "one\ntwo\n",
  );
  assert.ok(produced.ok, produced.ok ? "" : `${produced.stderr}\n${node.log}`);
  const consumed = await kcat([
    "-C",
    "-b",
    bootstrap,
    "-t",
    topic,
    "-o",
    "beginning",
    "-e",
    ...security,
  ]);
  assert.ok(consumed.ok, consumed.ok ? "" : consumed.stderr);
  assert.deepEqual(consumed.stdout.trim().split("\n"), ["one", "two"]);
}

test("kcat produces and consumes over mutual TLS", async () => {
  await produceAndConsume(ssl(), mtls(), "mtls");
});

test("kcat produces and consumes over SASL/PLAIN", async () => {
  await produceAndConsume(
    saslPlaintext(),
    sasl("SASL_PLAINTEXT", "PLAIN", "bob", "bob-secret"),
    "plain",
  );
});

test("kcat produces and consumes over SASL/SCRAM-SHA-512 on TLS and SCRAM-SHA-256", async () => {
  await produceAndConsume(
    saslSsl(),
    sasl("SASL_SSL", "SCRAM-SHA-512", "alice", "alice-secret"),
    "scram512",
  );
  await produceAndConsume(
    saslPlaintext(),
    sasl("SASL_PLAINTEXT", "SCRAM-SHA-256", "carol", "carol-secret"),
    "scram256",
  );
});

test("a wrong password gets Kafka's SASL_AUTHENTICATION_FAILED message", async () => {
  const plain = await kcat(["-L", "-b", saslSsl(), ...sasl("SASL_SSL", "PLAIN", "bob", "nope")]);
  assert.ok(!plain.ok);
  assert.match(plain.stderr, /Authentication failed: Invalid username or password/);
  const scram = await kcat([
    "-L",
    "-b",
    saslSsl(),
    ...sasl("SASL_SSL", "SCRAM-SHA-512", "alice", "nope"),
  ]);
  assert.ok(!scram.ok);
  assert.match(
    scram.stderr,
    new RegExp(
      "Authentication failed during authentication due to invalid credentials with SASL " +
        "mechanism SCRAM-SHA-512",
    ),
  );
  assert.ok(node.isRunning);
});

test("the mTLS listener refuses an untrusted certificate and a client without one", async () => {
  const stranger = [
    "-X",
    "security.protocol=SSL",
    "-X",
    `ssl.ca.location=${node.file("ca.pem")}`,
    "-X",
    `ssl.certificate.location=${node.file("stranger.pem")}`,
    "-X",
    `ssl.key.location=${node.file("stranger.key")}`,
  ];
  const refused = await kcat(["-L", "-b", ssl(), ...stranger]);
  assert.ok(!refused.ok);
  // With TLS 1.3 the server refuses the certificate after the client's side of the handshake
  // finished, so librdkafka reports it at its first read.
  assert.match(refused.stderr, /SSL handshake failed|SSL routines/);
  const anonymous = await kcat([
    "-L",
    "-b",
    ssl(),
    "-X",
    "security.protocol=SSL",
    "-X",
    `ssl.ca.location=${node.file("ca.pem")}`,
  ]);
  assert.ok(!anonymous.ok);
  await produceAndConsume(ssl(), mtls(), "after-stranger");
});

test("a plaintext client on a TLS port and a request before SASL login are closed", async () => {
  const plaintext = await kcat(["-L", "-b", saslSsl(), "-m", "5"]);
  assert.ok(!plaintext.ok);
  // Metadata v0 before any SaslHandshake: Kafka closes the connection without an answer.
  const closed = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(node.ports.saslPlaintext, "127.0.0.1");
    const chunks: Buffer[] = [];
    const metadataV0 = Buffer.from([0, 0, 0, 14, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    socket.on("connect", () => socket.write(metadataV0));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks)));
  });
  assert.equal(closed.length, 0);
  await produceAndConsume(
    saslPlaintext(),
    sasl("SASL_PLAINTEXT", "PLAIN", "bob", "bob-secret"),
    "after-plaintext",
  );
});

for (const mechanism of ["plain", "scram-sha-256", "scram-sha-512"] as const) {
  test(`kafkajs produces and consumes over SASL ${mechanism}`, async () => {
    const credentials = {
      plain: { username: "bob", password: "bob-secret" },
      "scram-sha-256": { username: "carol", password: "carol-secret" },
      "scram-sha-512": { username: "alice", password: "alice-secret" },
    }[mechanism];
    const kafka = new kafkajs.Kafka({
      brokers: [saslPlaintext()],
      logLevel: kafkajs.logLevel.NOTHING,
      sasl: { mechanism, ...credentials } as kafkajs.SASLOptions,
    });
    const topic = `kafkajs-${mechanism}`;
    const producer = kafka.producer({ allowAutoTopicCreation: true });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ value: "hello" }] });
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(topic);
    await admin.disconnect();
    assert.equal(offsets[0]?.high, "1");
  });
}

test("kafkajs with a wrong password is refused with Kafka's message", async () => {
  const kafka = new kafkajs.Kafka({
    brokers: [saslPlaintext()],
    logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries: 0 },
    sasl: { mechanism: "scram-sha-512", username: "alice", password: "wrong" },
  });
  const admin = kafka.admin();
  await assert.rejects(admin.connect(), /invalid credentials with SASL mechanism SCRAM-SHA-512/);
  assert.ok(node.isRunning);
});

test("a v0 SaslHandshake then a raw PLAIN token log in, and the connection serves", async () => {
  const socket = await RawSocket.open(node.ports.saslPlaintext, { isReading: true });
  try {
    const header = { apiKey: ApiKey.SaslHandshake, apiVersion: 0, correlationId: 1, clientId: "t" };
    await socket.write(encodeRequest(header, { mechanism: "PLAIN" }));
    await socket.waitForFrames(1, 10_000);
    const handshake = decodeResponse(socket.frames[0] as Uint8Array, ApiKey.SaslHandshake, 0);
    assert.equal(handshake.kind, "response");
    assert.equal(handshake.kind === "response" ? handshake.body["errorCode"] : -1, 0);
    const token = new TextEncoder().encode("\u0000bob\u0000bob-secret");
    const size = new Uint8Array(4);
    new DataView(size.buffer).setInt32(0, token.length);
    await socket.write([size, token]);
    await socket.waitForFrames(2, 10_000);
    // PLAIN answers with an empty token, size-prefixed like a frame.
    assert.equal(socket.frames[1]?.length, 0);
    const versions = { apiKey: ApiKey.ApiVersions, apiVersion: 0, correlationId: 2, clientId: "t" };
    await socket.write(encodeRequest(versions, {}));
    await socket.waitForFrames(3, 10_000);
    const answer = decodeResponse(socket.frames[2] as Uint8Array, ApiKey.ApiVersions, 0);
    assert.equal(answer.kind, "response");
  } finally {
    socket.destroy();
  }
});

const PLATFORMATIC = join(import.meta.dirname, "..", "..", "..", "test", "node22");

/** test/node22/platformatic-client.mjs under Node 22 with `security` as its client options. */
async function platformatic(bootstrap: string, topic: string, security: object) {
  const { stdout } = await run(
    "npx",
    [
      "-y",
      "node@22",
      join(PLATFORMATIC, "platformatic-client.mjs"),
      bootstrap,
      topic,
      "20",
      "plain",
    ],
    {
      cwd: join(PLATFORMATIC, "..", ".."),
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, PLATFORMATIC_SECURITY: JSON.stringify(security) },
    },
  );
  const lines = stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1] ?? "{}") as { acknowledged: string[]; read: string[] };
}

test("@platformatic/kafka produces and reads back over mutual TLS and SCRAM over TLS", async () => {
  const ca = readFileSync(node.file("ca.pem"), "utf8");
  const cert = readFileSync(node.file("client.pem"), "utf8");
  const key = readFileSync(node.file("client.key"), "utf8");
  const overMtls = await platformatic(ssl(), "platformatic-mtls", { tls: { ca, cert, key } });
  assert.equal(overMtls.acknowledged.length, 20);
  assert.deepEqual(overMtls.read, overMtls.acknowledged);
  const sasl = { mechanism: "SCRAM-SHA-512", username: "alice", password: "alice-secret" };
  const overScram = await platformatic(saslSsl(), "platformatic-scram", { tls: { ca }, sasl });
  assert.equal(overScram.acknowledged.length, 20);
  assert.deepEqual(overScram.read, overScram.acknowledged);
});
