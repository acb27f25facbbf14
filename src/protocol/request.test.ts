import { test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError } from "../common/index.js";
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
  isVersionInCodec,
  responseCorrelationId,
} from "./request.js";

const PRODUCE = 0;
const METADATA = 3;
const API_VERSIONS = 18;

/** The frame body (without the size prefix) of encoded chunks. */
function frameOf(chunks: readonly Uint8Array[]): Uint8Array {
  const whole = Uint8Array.from(Buffer.concat(chunks));
  assert.equal(new DataView(whole.buffer).getInt32(0), whole.length - 4, "size prefix");
  return whole.subarray(4);
}

function metadataRequest(apiVersion: number): Uint8Array {
  const header = { apiKey: METADATA, apiVersion, correlationId: 42, clientId: "tester" };
  return frameOf(encodeRequest(header, { topics: [{ name: "orders" }] }));
}

test("an encoded request decodes to its header and body", () => {
  for (const apiVersion of [0, 4, 9, 12]) {
    const result = decodeRequest(metadataRequest(apiVersion));
    assert.equal(result.kind, "request");
    assert.equal(result.header.apiVersion, apiVersion);
    assert.equal(result.header.correlationId, 42);
    assert.equal(result.header.clientId, "tester");
    assert.equal(result.headerVersion, apiVersion >= 9 ? 2 : 1);
    const topics = result.body["topics"] as { name: string }[];
    assert.equal(topics[0]?.name, "orders");
  }
});

test("a frame too short for a header is malformed", () => {
  for (const length of [0, 1, 7]) {
    const result = decodeRequest(new Uint8Array(length));
    assert.equal(result.kind, "malformed");
    assert.equal(result.error.kind, "truncated");
    assert.equal(result.header, undefined);
  }
});

test("an unknown API key is reported with its correlation id", () => {
  const frame = Uint8Array.of(0x7f, 0x00, 0, 1, 0, 0, 0x30, 0x39, 0, 0);
  assert.deepEqual(decodeRequest(frame), {
    kind: "unknownApi",
    apiKey: 0x7f00,
    apiVersion: 1,
    correlationId: 12345,
  });
});

test("a version outside the codec is unsupported and its body is not read", () => {
  const frame = Uint8Array.of(0, PRODUCE, 1, 0, 0, 0, 0, 5, 0, 1, 0x78, 0, 0xde, 0xad);
  const result = decodeRequest(frame);
  assert.equal(result.kind, "unsupportedVersion");
  assert.equal(result.header.apiVersion, 256);
  assert.equal(result.header.clientId, "x");
  assert.equal(result.header.correlationId, 5);
  assert.equal(isVersionInCodec(PRODUCE, 256), false);
  assert.equal(isVersionInCodec(PRODUCE, -1), false);
  assert.equal(
    decodeRequest(Uint8Array.of(0, 0, 0xff, 0xff, 0, 0, 0, 1, 0, 0)).kind,
    "unsupportedVersion",
  );
});

test("a version the caller does not serve is unsupported even when the codec knows it", () => {
  const frame = metadataRequest(9);
  const servedBelowNine = (apiKey: number, apiVersion: number): boolean =>
    apiKey === METADATA && apiVersion < 9;
  const result = decodeRequest(frame, servedBelowNine);
  assert.equal(result.kind, "unsupportedVersion");
  assert.equal(result.headerVersion, 2);
  assert.equal(decodeRequest(frame).kind, "request");
});

test("KIP-511: a too-new ApiVersions header is read as v2 first", () => {
  // Version 99, correlation id 7, client id "c", no tagged fields, then a body nobody knows.
  const frame = Uint8Array.of(0, API_VERSIONS, 0, 99, 0, 0, 0, 7, 0, 1, 0x63, 0, 3, 0x61, 0x62);
  const result = decodeRequest(frame);
  assert.equal(result.kind, "unsupportedVersion");
  assert.equal(result.headerVersion, 2);
  assert.equal(result.header.clientId, "c");
  assert.equal(result.header.correlationId, 7);
});

test("KIP-511: when the v2 header does not decode, the v1 header is used", () => {
  // A v1 header ends right after the client id, so the v2 tagged-field count is missing.
  const frame = Uint8Array.of(0, API_VERSIONS, 0, 99, 0, 0, 0, 8, 0, 2, 0x6b, 0x6a);
  const result = decodeRequest(frame);
  assert.equal(result.kind, "unsupportedVersion");
  assert.equal(result.headerVersion, 1);
  assert.equal(result.header.clientId, "kj");
});

test("an unsupported version whose header does not decode is malformed", () => {
  const frame = Uint8Array.of(0, API_VERSIONS, 0, 99, 0, 0, 0, 8, 0, 9, 0x6b);
  const result = decodeRequest(frame);
  assert.equal(result.kind, "malformed");
  assert.equal(result.error.kind, "truncated");
});

test("bytes after the body are counted and left unread, as Kafka parses requests", () => {
  const valid = metadataRequest(12);
  // librdkafka 2.x's all-topics Metadata v12 leaves 3 bytes of its topic array's placeholder.
  const frame = Uint8Array.from([...valid, 0, 0, 0]);
  const result = decodeRequest(frame);
  assert.equal(result.kind, "request");
  assert.equal(result.trailingBytes, 3);
  assert.equal(result.header.correlationId, 42);
  const exact = decodeRequest(valid);
  assert.ok(exact.kind === "request" && exact.trailingBytes === 0);
});

test("a body cut short is malformed", () => {
  const valid = metadataRequest(12);
  const result = decodeRequest(valid.subarray(0, valid.length - 3));
  assert.equal(result.kind, "malformed");
  assert.equal(result.header?.clientId, "tester");
});

test("ApiVersions responses use header v0 even in flexible versions", () => {
  const body = { errorCode: 0, apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 4 }] };
  const frame = frameOf(encodeResponse({ correlationId: 3 }, API_VERSIONS, 3, body));
  // Header v0 is the correlation id alone; the body starts with errorCode 0 right after it.
  assert.deepEqual([...frame.subarray(0, 6)], [0, 0, 0, 3, 0, 0]);
  assert.equal(responseCorrelationId(frame), 3);
  const result = decodeResponse(frame, API_VERSIONS, 3);
  assert.equal(result.kind, "response");
  assert.deepEqual(result.header, { correlationId: 3, taggedFields: [] });
  assert.deepEqual(result.body["apiKeys"], body.apiKeys);
});

test("flexible responses carry header v1 and round-trip its tagged fields", () => {
  const tag = { tag: 9, data: Uint8Array.of(1, 2) };
  const chunks = encodeResponse({ correlationId: 11, taggedFields: [tag] }, METADATA, 12, {});
  const result = decodeResponse(frameOf(chunks), METADATA, 12);
  assert.equal(result.kind, "response");
  assert.deepEqual(result.header, { correlationId: 11, taggedFields: [tag] });
});

test("a malformed response is a value, not an exception", () => {
  assert.equal(decodeResponse(Uint8Array.of(0, 0), METADATA, 1).kind, "malformed");
  assert.equal(responseCorrelationId(Uint8Array.of(0, 0)), undefined);
  const frame = frameOf(encodeResponse({ correlationId: 1 }, METADATA, 1, {}));
  const extended = decodeResponse(Uint8Array.from([...frame, 7]), METADATA, 1);
  assert.equal(extended.kind, "malformed");
  assert.throws(() => decodeResponse(frame, 9999, 0), AssertionError);
});
