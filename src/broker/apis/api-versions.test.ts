import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { API_VERSIONS_KEY, decodeResponse } from "../../protocol/index.js";
import { MemoryLogger } from "../network/test-doubles.test-support.js";
import { ANONYMOUS_PRINCIPAL } from "../router/handler.js";
import { RequestRouter } from "../router/request-router.driver.js";
import { registerApiVersions } from "./api-versions.js";

function request(apiVersion: number, body: Record<string, unknown>) {
  const header = { apiKey: API_VERSIONS_KEY, apiVersion, correlationId: 1, clientId: "c" };
  return {
    header: { ...header, taggedFields: [] },
    body,
    connection: {
      connectionId: "c1",
      listenerName: "PLAINTEXT",
      securityProtocol: "PLAINTEXT" as const,
      principal: ANONYMOUS_PRINCIPAL,
      remoteHost: "h",
      remotePort: 1,
      clientSoftwareName: undefined,
      clientSoftwareVersion: undefined,
    },
    nowMs: 0,
  };
}

/** Routes an ApiVersions request and decodes the response body. */
async function answer(router: RequestRouter, apiVersion: number, body: Record<string, unknown>) {
  const routed = await router.route(request(apiVersion, body));
  assert.equal(routed.kind, "frame");
  if (routed.kind !== "frame") throw new Error("unreachable");
  const decoded = decodeResponse(Buffer.concat(routed.chunks).subarray(4), 18, apiVersion);
  if (decoded.kind !== "response") throw decoded.error;
  return decoded.body;
}

const software = { clientSoftwareName: "x", clientSoftwareVersion: "1" };

test("ApiVersions v3+ reports supported and finalized features, read per request", async () => {
  const router = new RequestRouter({
    logger: new MemoryLogger(),
    supportedFeatures: [{ name: "metadata.version", minVersion: 1, maxVersion: 21 }],
  });
  let level = 7;
  registerApiVersions(router, () => ({
    epoch: 42,
    features: [{ name: "metadata.version", minVersionLevel: level, maxVersionLevel: level }],
  }));
  level = 9;
  const body = await answer(router, 4, software);
  assert.equal(body["errorCode"], ErrorCode.NONE);
  assert.deepEqual(body["apiKeys"], [{ apiKey: 18, minVersion: 0, maxVersion: 4 }]);
  assert.equal(body["finalizedFeaturesEpoch"], 42);
  assert.deepEqual(body["finalizedFeatures"], [
    { name: "metadata.version", minVersionLevel: 9, maxVersionLevel: 9 },
  ]);
  assert.deepEqual(body["supportedFeatures"], [
    { name: "metadata.version", minVersion: 1, maxVersion: 21 },
  ]);
});

test("ApiVersions without a metadata image reports finalized epoch -1", async () => {
  const router = new RequestRouter({ logger: new MemoryLogger() });
  registerApiVersions(router);
  const body = await answer(router, 3, software);
  assert.equal(body["finalizedFeaturesEpoch"], -1);
  assert.deepEqual(body["finalizedFeatures"], []);
});

test("ApiVersions v3 with an invalid client software name is INVALID_REQUEST", async () => {
  const router = new RequestRouter({ logger: new MemoryLogger() });
  registerApiVersions(router);
  const body = await answer(router, 3, { clientSoftwareName: "-bad-", clientSoftwareVersion: "1" });
  assert.equal(body["errorCode"], ErrorCode.INVALID_REQUEST);
});
