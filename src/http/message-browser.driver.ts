/**
 * The `GET /v1/messages` route (message-browser.ts): parses the query, waits for the node's
 * `MessageSource` to read the records and answers them as JSON, or the refusal as
 * `{"error": ...}` with its status.
 */
import { jsonResponse, type HttpRequest, type HttpResponse, type HttpRoute } from "./http-types.js";
import { browseJson, parseBrowseQuery, type MessageSource } from "./message-browser.js";

/** A node without the broker role hosts no records to browse. */
export const NO_MESSAGES: MessageSource = {
  browse: async () => ({
    kind: "refused",
    status: 404,
    message: "this node has no broker role, so no records: browse on a broker",
  }),
};

async function browse(source: MessageSource, request: HttpRequest): Promise<HttpResponse> {
  const parsed = parseBrowseQuery(request.query);
  if (parsed.kind === "bad") return jsonResponse(400, { error: parsed.message });
  const result = await source.browse(parsed.request);
  if (result.kind === "refused") return jsonResponse(result.status, { error: result.message });
  return jsonResponse(200, browseJson(parsed.request, result, parsed.format));
}

/** `GET /v1/messages`: a partition's records from `source`. */
export function messageBrowserRoute(source: MessageSource): HttpRoute {
  return { method: "GET", path: "/v1/messages", handle: (request) => browse(source, request) };
}
