import { test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError, ErrorCode } from "../common/index.js";
import {
  API_VERSIONS_KEY,
  ApiVersionsTable,
  answerApiVersions,
  defaultApiVersionsTable,
} from "./api-versions.js";
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse } from "./request.js";
import type { RequestHeader } from "./headers.js";

function header(apiVersion: number, correlationId = 1): RequestHeader {
  return { apiKey: API_VERSIONS_KEY, apiVersion, correlationId, clientId: "c", taggedFields: [] };
}

const validBody = { clientSoftwareName: "sluice-test", clientSoftwareVersion: "1.0.0" };

test("the default table advertises only ApiVersions 0-4", () => {
  const table = defaultApiVersionsTable();
  assert.deepEqual(table.ranges(), [{ apiKey: 18, minVersion: 0, maxVersion: 4 }]);
  assert.equal(table.isSupported(18, 4), true);
  assert.equal(table.isSupported(18, 5), false);
  assert.equal(table.isSupported(0, 7), false, "Produce is not served yet");
});

test("registering refuses duplicates, empty ranges and versions beyond the codec", () => {
  const table = defaultApiVersionsTable();
  const refuses = (apiKey: number, minVersion: number, maxVersion: number): void => {
    assert.throws(() => table.register({ apiKey, minVersion, maxVersion }), AssertionError);
  };
  refuses(18, 0, 1);
  refuses(3, 2, 1);
  refuses(3, 0, 999);
  refuses(4242, 0, 0);
  table.register({ apiKey: 3, minVersion: 0, maxVersion: 12 });
  table.register({ apiKey: 0, minVersion: 3, maxVersion: 11 });
  assert.deepEqual(
    table.ranges().map((range) => range.apiKey),
    [0, 3, 18],
  );
});

test("a served version gets errorCode 0, the whole table and no throttling", () => {
  const table = defaultApiVersionsTable();
  table.register({ apiKey: 3, minVersion: 0, maxVersion: 12 });
  for (const apiVersion of [0, 1, 2, 3, 4]) {
    const reply = answerApiVersions({ header: header(apiVersion, 9), body: validBody }, table);
    assert.equal(reply.apiVersion, apiVersion);
    assert.deepEqual(reply.header, { correlationId: 9, taggedFields: [] });
    assert.equal(reply.body.errorCode, ErrorCode.NONE);
    assert.deepEqual(reply.body.apiKeys, table.ranges());
    assert.equal(reply.body.throttleTimeMs, 0);
  }
});

test("features: supported from the table, finalized as given, no zero minimums before v4", () => {
  const table = new ApiVersionsTable([
    { name: "metadata.version", minVersion: 7, maxVersion: 22 },
    { name: "group.version", minVersion: 0, maxVersion: 1 },
  ]);
  table.register({ apiKey: API_VERSIONS_KEY, minVersion: 0, maxVersion: 4 });
  const finalized = {
    epoch: 5,
    features: [{ name: "metadata.version", minVersionLevel: 22, maxVersionLevel: 22 }],
  };
  const v3 = answerApiVersions({ header: header(3), body: validBody }, table, finalized);
  assert.deepEqual(
    v3.body.supportedFeatures.map((feature) => feature.name),
    ["metadata.version"],
  );
  assert.equal(v3.body.finalizedFeaturesEpoch, 5);
  assert.deepEqual(v3.body.finalizedFeatures, finalized.features);
  const v4 = answerApiVersions({ header: header(4), body: validBody }, table, finalized);
  assert.equal(v4.body.supportedFeatures.length, 2);
  const none = answerApiVersions({ header: header(4), body: validBody }, table);
  assert.equal(none.body.finalizedFeaturesEpoch, -1);
  assert.deepEqual(none.body.finalizedFeatures, []);
});

test("KIP-511: an unknown version gets a v0 body with UNSUPPORTED_VERSION and the ranges", () => {
  const table = defaultApiVersionsTable();
  table.register({ apiKey: 3, minVersion: 0, maxVersion: 4 });
  for (const apiVersion of [5, 99, 0x7fff, -1]) {
    const reply = answerApiVersions({ header: header(apiVersion, 4), body: undefined }, table);
    assert.equal(reply.apiVersion, 0);
    assert.equal(reply.body.errorCode, ErrorCode.UNSUPPORTED_VERSION);
    assert.deepEqual(reply.body.apiKeys, [
      { apiKey: 3, minVersion: 0, maxVersion: 4 },
      { apiKey: 18, minVersion: 0, maxVersion: 4 },
    ]);
    assert.equal(reply.header.correlationId, 4);
  }
});

test("v3+ with a client software name outside Kafka's pattern is an INVALID_REQUEST", () => {
  const table = defaultApiVersionsTable();
  for (const body of [
    { clientSoftwareName: "", clientSoftwareVersion: "1" },
    { clientSoftwareName: "bad name", clientSoftwareVersion: "1" },
    { clientSoftwareName: "-lead", clientSoftwareVersion: "1" },
    { clientSoftwareName: "ok", clientSoftwareVersion: "trail." },
  ]) {
    const reply = answerApiVersions({ header: header(3), body }, table);
    assert.equal(reply.body.errorCode, ErrorCode.INVALID_REQUEST, JSON.stringify(body));
    assert.equal(reply.apiVersion, 3);
  }
  const older = answerApiVersions({ header: header(2), body: {} }, table);
  assert.equal(older.body.errorCode, ErrorCode.NONE, "before v3 there is no name to check");
});

test("end to end: a too-new flexible ApiVersions request gets a v0 answer a client reads", () => {
  const table = defaultApiVersionsTable();
  // A client from the future: version 9, flexible header, and a body in a layout we never saw.
  const request = Uint8Array.of(0, 18, 0, 9, 0, 0, 0, 77, 0, 3, 0x66, 0x6f, 0x6f, 0, 4, 1, 2, 3);
  const decoded = decodeRequest(request, (key, version) => table.isSupported(key, version));
  assert.equal(decoded.kind, "unsupportedVersion");
  const reply = answerApiVersions({ header: decoded.header, body: undefined }, table);
  const chunks = encodeResponse(reply.header, 18, reply.apiVersion, reply.body);
  const frame = Uint8Array.from(Buffer.concat(chunks));
  const response = decodeResponse(frame.subarray(4), 18, 0);
  assert.equal(response.kind, "response");
  assert.equal(response.header.correlationId, 77);
  assert.equal(response.body["errorCode"], 35);
  assert.deepEqual(response.body["apiKeys"], [{ apiKey: 18, minVersion: 0, maxVersion: 4 }]);
});

test("every served version's answer encodes and decodes through the codec", () => {
  const table = defaultApiVersionsTable();
  for (let apiVersion = 0; apiVersion <= 4; apiVersion++) {
    const requestHeader = { ...header(apiVersion, apiVersion + 100) };
    const request = Buffer.concat(encodeRequest(requestHeader, validBody)).subarray(4);
    const decoded = decodeRequest(Uint8Array.from(request));
    assert.equal(decoded.kind, "request");
    const reply = answerApiVersions({ header: decoded.header, body: decoded.body }, table);
    const frame = Buffer.concat(encodeResponse(reply.header, 18, reply.apiVersion, reply.body));
    const response = decodeResponse(Uint8Array.from(frame.subarray(4)), 18, apiVersion);
    assert.equal(response.kind, "response");
    assert.equal(response.header.correlationId, apiVersion + 100);
    assert.equal(response.body["errorCode"], 0);
    assert.deepEqual(response.body["apiKeys"], table.ranges());
  }
});
