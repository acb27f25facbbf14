import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ByteReader } from "./codec/reader.js";
import { ByteWriter } from "./codec/writer.js";
import {
  allApiDefinitions,
  apiCodec,
  decodeRequestBody,
  decodeResponseBody,
  encodeRequestBody,
  encodeResponseBody,
} from "./messages/index.js";
import { messageArbitrary } from "./schema/schema-arbitrary.testkit.js";
import { inRange, type StructSchema } from "./schema/types.js";
import { canBuildErrorResponse, errorResponseFor } from "./error-response.js";

const UNSUPPORTED_VERSION = 35;

/** The body as the broker sees it: encoded by a client, then decoded. */
function decodedRequest(apiKey: number, apiVersion: number, body: object) {
  const writer = new ByteWriter();
  encodeRequestBody(apiKey, apiVersion, body, writer);
  return decodeRequestBody(apiKey, apiVersion, new ByteReader(writer.finish()));
}

/** The error response for `body`, encoded and decoded again as a client would read it. */
function answer(apiKey: number, apiVersion: number, body: object) {
  const request = { apiKey, apiVersion, body: decodedRequest(apiKey, apiVersion, body) };
  const response = errorResponseFor(request, UNSUPPORTED_VERSION);
  assert.ok(response !== undefined, `API ${apiKey} v${apiVersion} has an error response`);
  const writer = new ByteWriter();
  encodeResponseBody(apiKey, apiVersion, response, writer);
  return decodeResponseBody(apiKey, apiVersion, new ByteReader(writer.finish()));
}

/** Every value of an error-code field that `version` of the response has, at any depth. */
function slotsOf(schema: StructSchema, version: number, value: unknown): number[] {
  const slots: number[] = [];
  if (typeof value !== "object" || value === null) return slots;
  const record = value as Record<string, unknown>;
  for (const field of schema.fields) {
    if (!inRange(field.versions, version)) continue;
    const type = field.type;
    const fieldValue = record[field.name];
    if (type === "int16" && (field.name === "errorCode" || field.name === "partitionErrorCode")) {
      slots.push(fieldValue as number);
    } else if (typeof type === "object" && "struct" in type) {
      slots.push(...slotsOf(type.struct, version, fieldValue));
    } else if (typeof type === "object" && typeof type.array === "object") {
      const elements = Array.isArray(fieldValue) ? fieldValue : [];
      for (const element of elements) slots.push(...slotsOf(type.array, version, element));
    }
  }
  return slots;
}

/** The error slots of a decoded response to (apiKey, version). */
function errorSlots(apiKey: number, version: number, body: Record<string, unknown>): number[] {
  const codec = apiCodec(apiKey);
  assert.ok(codec !== undefined);
  return slotsOf(codec.responseSchema, version, body);
}

test("every error slot of every buildable API and version carries the code", () => {
  for (const api of allApiDefinitions()) {
    const codec = apiCodec(api.apiKey);
    assert.ok(codec !== undefined);
    for (let version = api.minVersion; version <= api.maxVersion; version++) {
      if (!canBuildErrorResponse(api.apiKey, version)) continue;
      const bodies = messageArbitrary(codec.requestSchema, version, {
        hasUnknownTaggedFields: false,
      });
      fc.assert(
        fc.property(bodies, (body) => {
          const slots = errorSlots(api.apiKey, version, answer(api.apiKey, version, body));
          for (const slot of slots) assert.equal(slot, UNSUPPORTED_VERSION);
        }),
        { seed: api.apiKey * 100 + version, numRuns: 15 },
      );
    }
  }
});

test("the APIs whose response has no place for an error are exactly these", () => {
  const missing: string[] = [];
  for (const api of allApiDefinitions()) {
    for (let version = api.minVersion; version <= api.maxVersion; version++) {
      if (!canBuildErrorResponse(api.apiKey, version)) missing.push(`${api.name} v${version}`);
    }
  }
  assert.deepEqual(missing, [
    "AlterReplicaLogDirs v0",
    "AlterReplicaLogDirs v1",
    "AlterReplicaLogDirs v2",
    "DescribeLogDirs v0",
    "DescribeLogDirs v1",
    "DescribeLogDirs v2",
    "AlterUserScramCredentials v0",
  ]);
  const request = { apiKey: 35, apiVersion: 0, body: { topics: null } };
  assert.equal(errorResponseFor(request, UNSUPPORTED_VERSION), undefined);
});

test("Produce answers each partition of each topic, keyed as the request named them", () => {
  const partitionData = [
    { index: 0, records: null },
    { index: 4, records: null },
  ];
  const body = answer(0, 2, { acks: 1, timeoutMs: 5, topicData: [{ name: "t", partitionData }] });
  const topics = body["responses"] as Array<Record<string, unknown>>;
  assert.deepEqual(
    topics.map((topic) => topic["name"]),
    ["t"],
  );
  const partitions = topics[0]?.["partitionResponses"] as Array<Record<string, unknown>>;
  assert.deepEqual(
    partitions.map((entry) => [entry["index"], entry["errorCode"], entry["baseOffset"]]),
    [
      [0, 35, -1],
      [4, 35, -1],
    ],
  );
  assert.equal(body["throttleTimeMs"], 0);
});

test("Fetch answers per partition before v13 and at the top level from v7", () => {
  const topics = (version: number) => [
    {
      ...(version >= 13 ? { topicId: "0".repeat(31) + "1" } : { topic: "t" }),
      partitions: [{ partition: 2, fetchOffset: 0, partitionMaxBytes: 1 }],
    },
  ];
  const v3 = answer(1, 3, { topics: topics(3) });
  const v3Topics = v3["responses"] as Array<Record<string, unknown>>;
  assert.equal(v3Topics[0]?.["topic"], "t");
  const v3Partition = (v3Topics[0]?.["partitions"] as Array<Record<string, unknown>>)[0];
  assert.equal(v3Partition?.["partitionIndex"], 2);
  assert.equal(v3Partition?.["errorCode"], 35);
  assert.equal(v3Partition?.["highWatermark"], -1);
  const v7 = answer(1, 7, { topics: topics(7) });
  assert.equal(v7["errorCode"], 35);
  assert.deepEqual(errorSlots(1, 7, v7), [35, 35]);
  const v13 = answer(1, 13, { topics: topics(13) });
  assert.equal(v13["errorCode"], 35);
  assert.deepEqual(v13["responses"], []);
});

test("Metadata answers each named topic, and nothing one by one for all topics", () => {
  const named = answer(3, 4, { topics: [{ name: "a" }, { name: "b" }] });
  const topics = named["topics"] as Array<Record<string, unknown>>;
  assert.deepEqual(
    topics.map((topic) => [topic["name"], topic["errorCode"], topic["partitions"]]),
    [
      ["a", 35, []],
      ["b", 35, []],
    ],
  );
  assert.deepEqual(answer(3, 4, { topics: null })["topics"], []);
});

test("plain-value request arrays become keyed response elements", () => {
  const deleted = answer(20, 5, { topicNames: ["x", "y"] })["responses"];
  assert.deepEqual(
    (deleted as Array<Record<string, unknown>>).map((entry) => [entry["name"], entry["errorCode"]]),
    [
      ["x", 35],
      ["y", 35],
    ],
  );
  const fetched = answer(9, 1, { groupId: "g", topics: [{ name: "t", partitionIndexes: [3] }] });
  const partition = (
    (fetched["topics"] as Array<Record<string, unknown>>)[0]?.["partitions"] as Array<
      Record<string, unknown>
    >
  )[0];
  assert.equal(partition?.["partitionIndex"], 3);
  assert.equal(partition?.["errorCode"], 35);
  assert.equal(partition?.["committedOffset"], -1);
});

test("an API with only a top-level error code answers there, its arrays empty", () => {
  const body = answer(11, 5, {
    groupId: "g",
    sessionTimeoutMs: 1,
    memberId: "",
    protocolType: "consumer",
    protocols: [{ name: "range", metadata: new Uint8Array(0) }],
  });
  assert.equal(body["errorCode"], 35);
  assert.deepEqual(body["members"], []);
});
