/**
 * The request path of the group API tests: requests are encoded, decoded as the broker would
 * read them, routed, and their responses decoded at the version asked for.
 */
import type { RequestRouter } from "../../src/broker/index.js";
import { decodeRequest, decodeResponse, encodeRequest } from "../../src/protocol/index.js";
import type { LogHarness } from "../storage/log-harness.js";
import { join } from "../broker/apis/harness.js";

let correlationId = 0;

/** Calls through `router`; each response must be a frame that decodes. */
export function requestPath(router: RequestRouter, harness: LogHarness) {
  const route = (apiKey: number, apiVersion: number, body: object) => {
    const header = { apiKey, apiVersion, correlationId: ++correlationId, clientId: "test" };
    const decoded = decodeRequest(join(encodeRequest(header, body)).subarray(4));
    if (decoded.kind !== "request") throw new Error(`request does not decode: ${decoded.kind}`);
    return router.route({
      header: decoded.header,
      body: decoded.body as Record<string, unknown>,
      connection: {
        connectionId: "c1",
        listenerName: "PLAINTEXT",
        securityProtocol: "PLAINTEXT",
        principal: { principalType: "User", name: "ANONYMOUS" },
        remoteHost: "127.0.0.1",
        remotePort: 50000,
        clientSoftwareName: undefined,
        clientSoftwareVersion: undefined,
      },
      nowMs: harness.node.clock.nowMs(),
    });
  };
  const call = async (apiKey: number, apiVersion: number, body: object) => {
    const routed = await harness.run(route(apiKey, apiVersion, body));
    if (routed.kind !== "frame") throw new Error(`API ${apiKey} v${apiVersion}: ${routed.kind}`);
    const decoded = decodeResponse(join(routed.chunks).subarray(4), apiKey, apiVersion);
    if (decoded.kind !== "response") throw decoded.error;
    return decoded.body;
  };
  return { call };
}
