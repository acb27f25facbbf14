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
  /** Sends requests at once (they may wait for each other); their responses in order. */
  const callAll = async (requests: readonly (readonly [number, number, object])[]) => {
    const routes = requests.map(([apiKey, apiVersion, body]) => route(apiKey, apiVersion, body));
    const routed = await harness.run(Promise.all(routes));
    return routed.map((answer, index) => {
      const [apiKey = -1, apiVersion = -1] = requests[index] ?? [];
      if (answer.kind !== "frame") throw new Error(`API ${apiKey} v${apiVersion}: ${answer.kind}`);
      const decoded = decodeResponse(join(answer.chunks).subarray(4), apiKey, apiVersion);
      if (decoded.kind !== "response") throw decoded.error;
      return decoded.body;
    });
  };
  const call = async (apiKey: number, apiVersion: number, body: object) => {
    const [answer] = await callAll([[apiKey, apiVersion, body]]);
    if (answer === undefined) throw new Error(`API ${apiKey} v${apiVersion}: no answer`);
    return answer;
  };
  return { call, callAll };
}
