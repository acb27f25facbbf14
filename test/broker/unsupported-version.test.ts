import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ErrorCode } from "../../src/common/index.js";
import {
  API_VERSIONS_KEY,
  allApiDefinitions,
  apiCodec,
  canBuildErrorResponse,
  inRange,
  type StructSchema,
} from "../../src/protocol/index.js";
import { messageArbitrary } from "../../src/protocol/schema/schema-arbitrary.testkit.js";
import { defineHandler, respond, type RequestRouter } from "../../src/broker/index.js";
import { startSimBroker, type RawClient } from "./sim-broker.js";

const PRODUCE_KEY = 0;
const METADATA_KEY = 3;
const HEARTBEAT_KEY = 12;
const JOIN_GROUP_KEY = 11;
const DESCRIBE_LOG_DIRS_KEY = 35;
const UNSUPPORTED = ErrorCode.UNSUPPORTED_VERSION;

/** Produce 3-11 and Heartbeat 1-3 are served; every other API but ApiVersions is not. */
function registerSome(router: RequestRouter): void {
  router.register(
    defineHandler(PRODUCE_KEY, {
      minVersion: 3,
      maxVersion: 11,
      handle: () => respond({ responses: [] }),
      errorResponse: () => respond({ responses: [] }),
    }),
  );
  router.register(
    defineHandler(HEARTBEAT_KEY, { minVersion: 1, maxVersion: 3, handle: () => respond({}) }),
  );
}

/** A version of `apiKey` the codec reads but the broker above does not advertise. */
function notAdvertised(apiKey: number, codecMax: number): number {
  if (apiKey === PRODUCE_KEY) return 2;
  if (apiKey === HEARTBEAT_KEY) return 0;
  return codecMax;
}

/** Every error-code value that `version` of the response has, at any depth. */
function errorSlots(schema: StructSchema, version: number, value: unknown): number[] {
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  const slots: number[] = [];
  for (const field of schema.fields) {
    if (!inRange(field.versions, version)) continue;
    const type = field.type;
    if (type === "int16" && (field.name === "errorCode" || field.name === "partitionErrorCode")) {
      slots.push(record[field.name] as number);
    } else if (typeof type === "object" && "struct" in type) {
      slots.push(...errorSlots(type.struct, version, record[field.name]));
    } else if (typeof type === "object" && typeof type.array === "object") {
      const elements = record[field.name];
      for (const element of Array.isArray(elements) ? elements : []) {
        slots.push(...errorSlots(type.array, version, element));
      }
    }
  }
  return slots;
}

/** A seeded request body of (apiKey, version), as a client could send it. */
function sampleBody(apiKey: number, version: number): Record<string, unknown> {
  const codec = apiCodec(apiKey);
  assert.ok(codec !== undefined);
  const bodies = messageArbitrary(codec.requestSchema, version, { hasUnknownTaggedFields: false });
  const [body] = fc.sample(bodies, { seed: apiKey * 100 + version, numRuns: 1 });
  assert.ok(body !== undefined);
  // acks=0 gets no response by design; it is covered on its own below.
  return apiKey === PRODUCE_KEY ? { ...body, acks: 1 } : body;
}

function closeReasons(lines: ReadonlyArray<{ message: string; fields: Record<string, unknown> }>) {
  return lines
    .filter((line) => line.message === "closing connection")
    .map((line) => String(line.fields["detail"]));
}

test("any API at a version not advertised gets UNSUPPORTED_VERSION or a close", async () => {
  const broker = await startSimBroker({ register: registerSome, config: { maxConnections: 500 } });
  const cases: Array<{ apiKey: number; version: number; client: RawClient; beyond: RawClient }> =
    [];
  for (const api of allApiDefinitions()) {
    if (api.apiKey === API_VERSIONS_KEY) continue;
    const version = notAdvertised(api.apiKey, api.maxVersion);
    assert.equal(broker.router.isSupported(api.apiKey, version), false);
    const client = await broker.connect();
    client.send(api.apiKey, version, 7, sampleBody(api.apiKey, version));
    // One past the codec: the body's layout is unknown, so only the header is sent.
    const beyond = await broker.connect();
    const header = Uint8Array.of(0, api.apiKey, 0x7f, 0, 0, 0, 0, 8, 0, 0, 0);
    header[2] = (api.maxVersion + 1) >> 8;
    header[3] = (api.maxVersion + 1) & 0xff;
    beyond.connection.write([Uint8Array.of(0, 0, 0, header.length), header]);
    cases.push({ apiKey: api.apiKey, version, client, beyond });
  }
  await broker.scheduler.runFor(200);
  for (const { apiKey, version, client, beyond } of cases) {
    const codec = apiCodec(apiKey);
    assert.ok(codec !== undefined);
    assert.equal(beyond.isClosed, true, `${codec.name} v${codec.maxVersion + 1} closes`);
    if (!canBuildErrorResponse(apiKey, version)) {
      assert.equal(client.isClosed, true, `${codec.name} v${version} closes`);
      continue;
    }
    assert.equal(client.isClosed, false, `${codec.name} v${version} is answered`);
    assert.deepEqual(client.correlationIds(), [7]);
    const body = client.body(0, apiKey, version);
    for (const slot of errorSlots(codec.responseSchema, version, body)) {
      assert.equal(slot, UNSUPPORTED, `${codec.name} v${version}`);
    }
  }
  assert.deepEqual(broker.fatalErrors, []);
});

test("Produce below the advertised range is answered per partition, in request order", async () => {
  const broker = await startSimBroker({ register: registerSome });
  const client = await broker.connect();
  const heartbeat = { groupId: "g", generationId: 1, memberId: "m" };
  client.send(HEARTBEAT_KEY, 1, 1, heartbeat);
  const partitionData = [
    { index: 0, records: null },
    { index: 5, records: null },
  ];
  const topicData = [{ name: "orders", partitionData }];
  client.send(PRODUCE_KEY, 2, 2, { acks: -1, timeoutMs: 100, topicData });
  client.send(HEARTBEAT_KEY, 1, 3, heartbeat);
  await broker.scheduler.runFor(50);
  assert.deepEqual(client.correlationIds(), [1, 2, 3]);
  const responses = client.body(1, PRODUCE_KEY, 2)["responses"] as Array<Record<string, unknown>>;
  assert.equal(responses[0]?.["name"], "orders");
  const partitions = responses[0]?.["partitionResponses"] as Array<Record<string, unknown>>;
  assert.deepEqual(
    partitions.map((partition) => [partition["index"], partition["errorCode"]]),
    [
      [0, UNSUPPORTED],
      [5, UNSUPPORTED],
    ],
  );
  assert.equal(client.isClosed, false);
});

test("an API without a handler answers with its own error response", async () => {
  const broker = await startSimBroker({ register: registerSome });
  const client = await broker.connect();
  const join = {
    groupId: "g",
    sessionTimeoutMs: 10000,
    rebalanceTimeoutMs: 10000,
    memberId: "",
    protocolType: "consumer",
    protocols: [{ name: "range", metadata: new Uint8Array(0) }],
  };
  client.send(JOIN_GROUP_KEY, 5, 4, join);
  client.send(METADATA_KEY, 4, 5, { topics: [{ name: "a" }], allowAutoTopicCreation: false });
  await broker.scheduler.runFor(50);
  assert.equal(client.body(0, JOIN_GROUP_KEY, 5)["errorCode"], UNSUPPORTED);
  const topics = client.body(1, METADATA_KEY, 4)["topics"] as Array<Record<string, unknown>>;
  assert.deepEqual(
    topics.map((topic) => [topic["name"], topic["errorCode"]]),
    [["a", UNSUPPORTED]],
  );
});

test("beyond the codec, acks=0 or no error slot: the connection closes", async () => {
  const broker = await startSimBroker({ register: registerSome });
  const beyond = await broker.connect();
  const acksZero = await broker.connect();
  const noSlot = await broker.connect();
  // Metadata v13 is past the codec: only its header can be read.
  const header = Uint8Array.of(0, METADATA_KEY, 0, 13, 0, 0, 0, 1, 0, 0, 0);
  beyond.connection.write([Uint8Array.of(0, 0, 0, header.length), header]);
  acksZero.send(PRODUCE_KEY, 2, 2, { acks: 0, timeoutMs: 100, topicData: [] });
  noSlot.send(DESCRIBE_LOG_DIRS_KEY, 0, 3, { topics: null });
  await broker.scheduler.runFor(50);
  for (const client of [beyond, acksZero, noSlot]) {
    assert.equal(client.isClosed, true);
    assert.equal(client.frames.length, 0);
  }
  assert.deepEqual(closeReasons(broker.logger.lines).sort(), [
    "DescribeLogDirs v0 is not served and has no error response",
    "Metadata v13 is beyond the codec",
    "Produce v2 with acks=0 is not served",
  ]);
  const closed = broker.metrics.valueOf("sluice_connections_closed_total", {
    reason: "unsupportedVersion",
  });
  assert.equal(closed, 3);
});
