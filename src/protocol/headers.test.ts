import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ByteReader } from "./codec/reader.js";
import { ByteWriter } from "./codec/writer.js";
import { isDecodeError } from "./codec/decode-error.js";
import {
  decodeRequestHeader,
  decodeResponseHeader,
  encodeRequestHeader,
  encodeResponseHeader,
  requestHeaderVersion,
  responseHeaderVersion,
} from "./headers.js";
import type { RequestHeader, RequestHeaderVersion, ResponseHeaderVersion } from "./headers.js";

const PRODUCE = 0;
const METADATA = 3;
const CONTROLLED_SHUTDOWN = 7;
const API_VERSIONS = 18;

test("request header v2 for flexible versions, v1 before, v0 for ControlledShutdown v0", () => {
  assert.equal(requestHeaderVersion(PRODUCE, 8), 1);
  assert.equal(requestHeaderVersion(PRODUCE, 9), 2);
  assert.equal(requestHeaderVersion(METADATA, 8), 1);
  assert.equal(requestHeaderVersion(METADATA, 9), 2);
  assert.equal(requestHeaderVersion(API_VERSIONS, 2), 1);
  assert.equal(requestHeaderVersion(API_VERSIONS, 3), 2);
  assert.equal(requestHeaderVersion(API_VERSIONS, 77), 2, "a version above the max (KIP-511)");
  assert.equal(requestHeaderVersion(CONTROLLED_SHUTDOWN, 0), 0);
  assert.equal(requestHeaderVersion(CONTROLLED_SHUTDOWN, 1), 1);
  assert.equal(requestHeaderVersion(9999, 0), undefined);
});

test("response header v1 for flexible versions, except ApiVersions which always uses v0", () => {
  assert.equal(responseHeaderVersion(PRODUCE, 8), 0);
  assert.equal(responseHeaderVersion(PRODUCE, 9), 1);
  assert.equal(responseHeaderVersion(METADATA, 9), 1);
  assert.equal(responseHeaderVersion(API_VERSIONS, 0), 0);
  assert.equal(responseHeaderVersion(API_VERSIONS, 3), 0);
  assert.equal(responseHeaderVersion(API_VERSIONS, 4), 0);
  assert.equal(responseHeaderVersion(-1, 0), undefined);
});

const arbTaggedFields = fc.array(
  fc
    .tuple(fc.nat({ max: 0xffffffff }), fc.uint8Array({ maxLength: 40 }))
    .map(([tag, data]) => ({ tag, data })),
  { maxLength: 4 },
);
const arbInt16 = fc.integer({ min: -0x8000, max: 0x7fff });
const arbRequestHeader = fc
  .tuple(
    arbInt16,
    arbInt16,
    fc.integer({ min: -0x80000000, max: 0x7fffffff }),
    fc.option(fc.string({ maxLength: 30 }), { nil: null }),
    arbTaggedFields,
  )
  .map(([apiKey, apiVersion, correlationId, clientId, taggedFields]): RequestHeader => {
    return { apiKey, apiVersion, correlationId, clientId, taggedFields };
  });

/** What a header of `version` keeps of `header`: fields the version lacks read back empty. */
function expected(header: RequestHeader, version: RequestHeaderVersion): RequestHeader {
  return {
    ...header,
    clientId: version >= 1 ? header.clientId : null,
    taggedFields: version >= 2 ? header.taggedFields : [],
  };
}

test("request headers of every version survive a round trip, unknown tags included", () => {
  const arbVersion = fc.constantFrom<RequestHeaderVersion>(0, 1, 2);
  fc.assert(
    fc.property(arbRequestHeader, arbVersion, (header, version) => {
      const writer = new ByteWriter();
      encodeRequestHeader(header, version, writer);
      const bytes = writer.finish();
      const reader = new ByteReader(bytes);
      assert.deepEqual(decodeRequestHeader(reader, version), expected(header, version));
      assert.equal(reader.remaining, 0);
    }),
    { seed: 1511, numRuns: 500 },
  );
});

test("response headers survive a round trip", () => {
  const arbVersion = fc.constantFrom<ResponseHeaderVersion>(0, 1);
  const arbCorrelationId = fc.integer({ min: -0x80000000, max: 0x7fffffff });
  fc.assert(
    fc.property(arbCorrelationId, arbTaggedFields, arbVersion, (correlationId, tags, version) => {
      const writer = new ByteWriter();
      encodeResponseHeader({ correlationId, taggedFields: tags }, version, writer);
      const reader = new ByteReader(writer.finish());
      const header = decodeResponseHeader(reader, version);
      assert.deepEqual(header, { correlationId, taggedFields: version >= 1 ? tags : [] });
      assert.equal(reader.remaining, 0);
    }),
    { seed: 2511, numRuns: 300 },
  );
});

test("a v2 header keeps the client id as a classic int16-length string", () => {
  // apiKey 18, version 3, correlation id 1, client id "ab" (int16 length 2), one tagged field
  // with tag 5 and two bytes of data.
  const bytes = Uint8Array.of(0, 18, 0, 3, 0, 0, 0, 1, 0, 2, 0x61, 0x62, 1, 5, 2, 0xaa, 0xbb);
  const header = decodeRequestHeader(new ByteReader(bytes), 2);
  assert.equal(header.clientId, "ab");
  assert.deepEqual(header.taggedFields, [{ tag: 5, data: Uint8Array.of(0xaa, 0xbb) }]);
  const writer = new ByteWriter();
  encodeRequestHeader(header, 2, writer);
  assert.deepEqual(writer.finish(), bytes);
});

test("a null client id is length -1", () => {
  const bytes = Uint8Array.of(0, 0, 0, 7, 0, 0, 0, 9, 0xff, 0xff);
  const header = decodeRequestHeader(new ByteReader(bytes), 1);
  assert.equal(header.clientId, null);
  assert.equal(header.correlationId, 9);
});

test("malformed headers throw DecodeError, never anything else", () => {
  const truncated = Uint8Array.of(0, 18, 0, 3, 0, 0);
  assert.throws(() => decodeRequestHeader(new ByteReader(truncated), 1), isDecodeError);
  // A tagged-field count larger than the bytes left is refused before any field is read.
  const manyTags = Uint8Array.of(0, 18, 0, 3, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0x0f);
  assert.throws(
    () => decodeRequestHeader(new ByteReader(manyTags), 2),
    (error: unknown) => isDecodeError(error) && error.kind === "tooLarge",
  );
  const shortTag = Uint8Array.of(0, 0, 0, 1, 1, 7, 9);
  assert.throws(() => decodeResponseHeader(new ByteReader(shortTag), 1), isDecodeError);
});
