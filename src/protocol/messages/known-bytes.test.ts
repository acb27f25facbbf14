import { test } from "node:test";
import assert from "node:assert/strict";
import { ByteReader } from "../codec/reader.js";
import { ByteWriter } from "../codec/writer.js";
import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import {
  ApiKey,
  allApiDefinitions,
  apiDefinition,
  apiVersions,
  decodeRequestBody,
  decodeResponseBody,
  encodeRequestBody,
  fetch,
  metadata,
  produce,
} from "./index.js";

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function fromHex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  return Uint8Array.from(clean.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function written(write: (writer: ByteWriter) => void): string {
  const writer = new ByteWriter();
  write(writer);
  return hex(writer.finish());
}

test("an ApiVersions v0 request body is empty", () => {
  assert.equal(
    written((w) => apiVersions.encodeRequest(0, {}, w)),
    "",
  );
  assert.deepEqual(decodeRequestBody(ApiKey.ApiVersions, 0, new ByteReader(new Uint8Array(0))), {
    clientSoftwareName: "",
    clientSoftwareVersion: "",
  });
});

test("an ApiVersions v3 request uses compact strings and an empty tagged-field section", () => {
  const body = { clientSoftwareName: "a", clientSoftwareVersion: "1" };
  assert.equal(
    written((w) => apiVersions.encodeRequest(3, body, w)),
    "0261023100",
  );
});

test("a Metadata v0 request with topic t is 00 00 00 01 00 01 74", () => {
  assert.equal(
    written((w) => metadata.encodeRequest(0, { topics: [{ name: "t" }] }, w)),
    "00000001000174",
  );
  const decoded = metadata.decodeRequest(0, new ByteReader(fromHex("00000001000174")));
  assert.equal(decoded.topics?.[0]?.name, "t");
  assert.equal(decoded.allowAutoTopicCreation, true, "absent fields take their defaults");
});

test("a Produce v3 request lays out its fields in Kafka's order", () => {
  const body = {
    transactionalId: null,
    acks: -1,
    timeoutMs: 1000,
    topicData: [{ name: "t", partitionData: [{ index: 0, records: Uint8Array.of(1, 2, 3) }] }],
  };
  const expected = "ffff ffff 000003e8 00000001 0001 74 00000001 00000000 00000003 010203";
  assert.equal(
    written((w) => produce.encodeRequest(3, body, w)),
    expected.replace(/ /g, ""),
  );
  const decoded = produce.decodeRequest(3, new ByteReader(fromHex(expected)));
  assert.deepEqual(decoded.topicData[0]?.partitionData[0]?.records, Uint8Array.of(1, 2, 3));
});

test("an ApiVersions v3 response writes a non-default tagged field at the top level", () => {
  const body = {
    apiKeys: [{ apiKey: 0, minVersion: 0, maxVersion: 11 }],
    supportedFeatures: [{ name: "x", minVersion: 1, maxVersion: 2 }],
  };
  const expected = "0000 02 0000 0000 000b 00 00000000 01 00 08 02 0278 0001 0002 00";
  assert.equal(
    written((w) => apiVersions.encodeResponse(3, body, w)),
    expected.replace(/ /g, ""),
  );
});

test("a Fetch v12 request carries clusterId as tagged field 0 only when set", () => {
  const base = { replicaId: -1, maxWaitMs: 0, minBytes: 0, topics: [] };
  const without = written((w) => fetch.encodeRequest(12, base, w));
  const withId = written((w) => fetch.encodeRequest(12, { ...base, clusterId: "c" }, w));
  // Both end with empty forgottenTopicsData and rackId; then the tagged-field section.
  assert.ok(without.endsWith("0101" + "00"), "no tagged fields");
  assert.ok(withId.endsWith("0101" + "01" + "00" + "02" + "0263"), "tag 0, size 2, string c");
  assert.equal(withId.length, without.length + 8);
  assert.equal(fetch.decodeRequest(12, new ByteReader(fromHex(withId))).clusterId, "c");
});

test("unknown tagged fields survive a decode and re-encode", () => {
  const bytes = fromHex("0261023101" + "05" + "02" + "abcd");
  const decoded = apiVersions.decodeRequest(3, new ByteReader(bytes));
  assert.deepEqual(decoded.unknownTaggedFields, [{ tag: 5, data: fromHex("abcd") }]);
  assert.equal(
    written((w) => apiVersions.encodeRequest(3, decoded, w)),
    hex(bytes),
  );
});

test("a non-default value in a field the version lacks is refused unless ignorable", () => {
  const body = { transactionalId: "tx", acks: 1, timeoutMs: 1, topicData: [] };
  assert.throws(() => produce.encodeRequest(2, body, new ByteWriter()), EncodeError);
  // ThrottleTimeMs is ignorable, so a v0 ApiVersions response simply drops it.
  assert.equal(
    written((w) => apiVersions.encodeResponse(0, { throttleTimeMs: 5 }, w)),
    "000000000000",
  );
});

test("null in a field that is not nullable in the version is refused", () => {
  const body = { topics: [{ name: null }] };
  assert.throws(() => metadata.encodeRequest(0, body as never, new ByteWriter()), EncodeError);
});

test("decoding refuses unknown APIs, undefined versions and trailing bytes", () => {
  const empty = new ByteReader(new Uint8Array(0));
  assert.throws(
    () => decodeRequestBody(9999, 0, empty),
    (e) => e instanceof DecodeError && e.kind === "unknownApi",
  );
  assert.throws(
    () => decodeResponseBody(ApiKey.Produce, 99, empty),
    (e) => e instanceof DecodeError && e.kind === "unsupportedVersion",
  );
  const trailing = new ByteReader(fromHex("0000000100017400"));
  assert.throws(
    () => metadata.decodeRequest(0, trailing),
    (e) => e instanceof DecodeError && e.kind === "trailing",
  );
});

test("a decoder stops at the reader's end, not the end of the byte array", () => {
  const bytes = fromHex("00000001000174ffff");
  const decoded = decodeRequestBody(ApiKey.Metadata, 0, new ByteReader(bytes, 0, 7));
  assert.deepEqual((decoded["topics"] as { name: string }[])[0]?.name, "t");
});

test("an array count larger than the bytes left is refused before allocation", () => {
  const bytes = fromHex("7fffffff");
  assert.throws(
    () => metadata.decodeRequest(0, new ByteReader(bytes)),
    (e) => e instanceof DecodeError && e.kind === "tooLarge",
  );
});

test("the API table covers every key with its version range and first flexible version", () => {
  const keys = allApiDefinitions().map((api) => api.apiKey);
  assert.equal(new Set(keys).size, keys.length);
  assert.deepEqual({ ...apiDefinition(ApiKey.ApiVersions) }.flexibleFrom, 3);
  const produceDefinition = apiDefinition(0);
  assert.equal(produceDefinition?.name, "Produce");
  assert.equal(produceDefinition?.minVersion, 0);
  assert.equal(produceDefinition?.maxVersion, 11);
  assert.equal(apiDefinition(ApiKey.SaslHandshake)?.flexibleFrom, undefined);
  assert.equal(apiDefinition(12345), undefined);
  for (const name of ["Vote", "UpdateRaftVoter", "ConsumerGroupDescribe", "AllocateProducerIds"]) {
    assert.ok(name in ApiKey, `${name} is defined`);
  }
});

test("encodeRequestBody refuses an API key it does not know", () => {
  assert.throws(() => encodeRequestBody(9999, 0, {}, new ByteWriter()), EncodeError);
});
