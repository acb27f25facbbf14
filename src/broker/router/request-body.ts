import { assert } from "../../common/index.js";
import type { ApiKey, ApiRequest } from "../../protocol/index.js";
import type { RequestContext } from "./handler.js";

/**
 * The one place where a decoded request body meets its type. The connection decodes each body
 * with the codec of the API its header names (decodeRequest), and the router passes it only to
 * the handler registered under that key, so the body is that API's request; the key is checked.
 * The tidy test allows this assertion here and refuses casts of bodies in other handler code.
 */
export function requestBodyOf<K extends ApiKey>(
  apiKey: K,
  request: Pick<RequestContext, "header" | "body">,
): ApiRequest<K> {
  assert(request.header.apiKey === apiKey, "a body is routed to the handler of its own API");
  return request.body as ApiRequest<K>;
}
