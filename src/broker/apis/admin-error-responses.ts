/**
 * The error responses of the APIs a broker answers with the controller's code (the forwarded
 * admin APIs and DescribeConfigs), taken from the controller's own API table (src/controller/apis)
 * so that Kafka's getErrorResponse of each API is stated once. The router sends them when a
 * handler fails, the forwarding handlers when the controller cannot be reached in time.
 */
import type { ControllerApi, ControllerApiResponse } from "../../controller/index.js";
import type { ApiKey, ApiRequest } from "../../protocol/index.js";
import type { HandlerContext } from "../router/handler.js";

/** The error response `api` gives to `request`, fitted to its version. */
export function controllerErrorResponse<K extends ApiKey>(
  api: ControllerApi<K>,
  request: ApiRequest<K>,
  context: Pick<HandlerContext, "header" | "connection">,
  failure: { readonly errorCode: number; readonly message: string | null },
): ControllerApiResponse<K> {
  const { header, connection } = context;
  const listenerName = connection.listenerName;
  return api.errorResponse(
    { header, body: request, listenerName },
    failure.errorCode,
    failure.message,
  );
}
