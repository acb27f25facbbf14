import { test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError, ErrorCode } from "../../common/index.js";
import { ApiKey, decodeResponse, type RequestHeader } from "../../protocol/index.js";
import { MemoryLogger } from "../network/test-doubles.test-support.js";
import {
  ANONYMOUS_PRINCIPAL,
  closeConnection,
  defineHandler,
  respond,
  type RequestContext,
} from "./handler.js";
import { RequestRouter, type RoutedResponse } from "./request-router.driver.js";

const PRODUCE_KEY = ApiKey.Produce;
const HEARTBEAT_KEY = ApiKey.Heartbeat;
const DESCRIBE_CLUSTER_KEY = ApiKey.DescribeCluster;

function context(apiKey: number, apiVersion: number, body: Record<string, unknown> = {}) {
  const header: RequestHeader = {
    apiKey,
    apiVersion,
    correlationId: 77,
    clientId: "c",
    taggedFields: [],
  };
  const connection = {
    connectionId: "conn-1",
    listenerName: "PLAINTEXT",
    securityProtocol: "PLAINTEXT" as const,
    principal: ANONYMOUS_PRINCIPAL,
    remoteHost: "client",
    remotePort: 1,
    clientSoftwareName: undefined,
    clientSoftwareVersion: undefined,
  };
  return { header, body, connection, nowMs: 0 } satisfies RequestContext;
}

/** The body of a routed frame, decoded as the response to (apiKey, apiVersion). */
function responseBody(routed: RoutedResponse, apiKey: number, apiVersion: number) {
  assert.equal(routed.kind, "frame");
  if (routed.kind !== "frame") throw new Error("unreachable");
  const frame = Buffer.concat(routed.chunks).subarray(4);
  const decoded = decodeResponse(frame, apiKey, apiVersion);
  assert.equal(decoded.kind, "response");
  if (decoded.kind !== "response") throw new Error("unreachable");
  assert.equal(decoded.header.correlationId, 77);
  return decoded.body;
}

test("registering advertises exactly the handler's range", () => {
  const router = new RequestRouter({ logger: new MemoryLogger() });
  router.register(
    defineHandler(HEARTBEAT_KEY, { minVersion: 1, maxVersion: 3, handle: () => respond({}) }),
  );
  assert.deepEqual(router.apiVersions.ranges(), [
    { apiKey: HEARTBEAT_KEY, minVersion: 1, maxVersion: 3 },
  ]);
  assert.equal(router.isSupported(HEARTBEAT_KEY, 0), false);
  assert.equal(router.isSupported(HEARTBEAT_KEY, 3), true);
  assert.throws(
    () =>
      router.register(
        defineHandler(HEARTBEAT_KEY, { minVersion: 0, maxVersion: 0, handle: () => respond({}) }),
      ),
    AssertionError,
  );
});

test("an API without a top-level error code must come with errorResponse", () => {
  const router = new RequestRouter({ logger: new MemoryLogger() });
  assert.throws(
    () =>
      router.register(
        defineHandler(PRODUCE_KEY, { minVersion: 3, maxVersion: 9, handle: () => respond({}) }),
      ),
    /needs errorResponse/,
  );
});

test("a throwing handler's errorResponse builds the UNKNOWN_SERVER_ERROR answer", async () => {
  const logger = new MemoryLogger();
  const router = new RequestRouter({ logger });
  router.register(
    defineHandler(PRODUCE_KEY, {
      minVersion: 3,
      maxVersion: 9,
      handle: () => {
        throw new TypeError("boom");
      },
      errorResponse: (request, _context, errorCode) =>
        respond({
          responses: request.topicData.map((topic) => ({
            name: topic.name,
            partitionResponses: [{ index: 0, errorCode }],
          })),
        }),
    }),
  );
  const request = context(PRODUCE_KEY, 9, { topicData: [{ name: "t", partitionData: [] }] });
  const body = responseBody(await router.route(request), PRODUCE_KEY, 9);
  const responses = body["responses"] as Array<{
    partitionResponses: Array<{ errorCode: number }>;
  }>;
  assert.equal(responses[0]?.partitionResponses[0]?.errorCode, ErrorCode.UNKNOWN_SERVER_ERROR);
  const line = logger.lines.find((entry) => entry.message === "request handler failed");
  assert.equal(line?.fields["api"], "Produce");
  assert.match(String(line?.fields["error"]), /boom/);
});

test("a response that does not encode becomes UNKNOWN_SERVER_ERROR too", async () => {
  const router = new RequestRouter({ logger: new MemoryLogger() });
  router.register(
    defineHandler(DESCRIBE_CLUSTER_KEY, {
      minVersion: 0,
      maxVersion: 1,
      // endpointType exists from v1 on, so v0 cannot carry a value other than its default.
      handle: () => respond({ clusterId: "c", endpointType: 2 }),
    }),
  );
  const routed = await router.route(context(DESCRIBE_CLUSTER_KEY, 0));
  const body = responseBody(routed, DESCRIBE_CLUSTER_KEY, 0);
  assert.equal(body["errorCode"], ErrorCode.UNKNOWN_SERVER_ERROR);
  assert.equal(body["throttleTimeMs"], 0);
});

test("an error response that fails as well closes the connection", async () => {
  const router = new RequestRouter({ logger: new MemoryLogger() });
  router.register(
    defineHandler(HEARTBEAT_KEY, {
      minVersion: 0,
      maxVersion: 4,
      handle: () => Promise.reject(new Error("first")),
      errorResponse: () => {
        throw new Error("second");
      },
    }),
  );
  const routed = await router.route(context(HEARTBEAT_KEY, 4));
  assert.equal(routed.kind, "close");
});

test("an AssertionError in a handler is not turned into a response", async () => {
  const router = new RequestRouter({ logger: new MemoryLogger() });
  router.register(
    defineHandler(HEARTBEAT_KEY, {
      minVersion: 0,
      maxVersion: 4,
      handle: () => {
        throw new AssertionError("invariant");
      },
    }),
  );
  await assert.rejects(router.route(context(HEARTBEAT_KEY, 4)), AssertionError);
});

test("closeConnection and the KIP-511 answer without an ApiVersions handler close", async () => {
  const router = new RequestRouter({ logger: new MemoryLogger() });
  router.register(
    defineHandler(HEARTBEAT_KEY, {
      minVersion: 0,
      maxVersion: 4,
      handle: () => closeConnection("acks=0 produce failed"),
    }),
  );
  assert.deepEqual(await router.route(context(HEARTBEAT_KEY, 4)), {
    kind: "close",
    reason: "acks=0 produce failed",
  });
  const header = context(18, 9).header;
  assert.equal(router.answerUnsupportedApiVersions(header).kind, "close");
});
