/**
 * The admin APIs a KRaft broker forwards to the active controller (Kafka's KafkaApis with its
 * ForwardingManager): CreateTopics, DeleteTopics, CreatePartitions, AlterConfigs,
 * IncrementalAlterConfigs, ElectLeaders, AlterPartitionReassignments and
 * ListPartitionReassignments. The broker serves the versions the controller serves (the request
 * travels at the client's version and the answer comes back unchanged), and a failed forward
 * is answered with the API's own error response, as the controller builds it.
 *
 * BROKER_LOGGER resources of AlterConfigs and IncrementalAlterConfigs are a broker's own
 * business in Kafka (its ConfigAdminManager answers them before forwarding the rest). Sluice
 * has no runtime-adjustable loggers, so it refuses them with INVALID_REQUEST on the broker,
 * forwards the other resources, and answers all in request order.
 */
import { assert, ErrorCode } from "../../common/index.js";
import type { ControllerApi } from "../../controller/index.js";
import { ConfigResourceType } from "../../metadata/index.js";
import { apiCodec } from "../../protocol/index.js";
import {
  respond,
  type ApiHandler,
  type HandlerOutcome,
  type RequestContext,
} from "../router/handler.js";
import { controllerErrorResponse, FORWARDED_CONTROLLER_APIS } from "./admin-error-responses.js";
import type { Forwarder } from "./forwarder.js";

/** A forwarded API: the controller's handler, whose versions and error response are used. */
export type ForwardedApi = ControllerApi;

/** The APIs whose requests a broker forwards, in API key order. */
export const FORWARDED_ADMIN_APIS: readonly ForwardedApi[] = FORWARDED_CONTROLLER_APIS;

/** The APIs whose requests may name BROKER_LOGGER resources. */
const CONFIG_CHANGE_API_KEYS: ReadonlySet<number> = new Set([33, 44]);
const BROKER_LOGGER_REFUSAL = "this broker has no loggers that can be changed at runtime";

interface ConfigResource {
  readonly resourceType: number;
  readonly resourceName: string;
}

/** The handler that forwards `api`'s requests through `forwarder`. */
export function forwardedAdminHandler(api: ForwardedApi, forwarder: Forwarder): ApiHandler {
  return {
    minVersion: api.minVersion,
    maxVersion: api.maxVersion,
    handle: (context) =>
      CONFIG_CHANGE_API_KEYS.has(api.apiKey)
        ? forwardConfigChange(api, forwarder, context)
        : forward(api, forwarder, context),
    errorResponse: (context, errorCode) =>
      respond(controllerErrorResponse(api, context, { errorCode, message: null })),
  };
}

/** Forwards the request and answers with the controller's response or the error response. */
async function forward(
  api: ForwardedApi,
  forwarder: Forwarder,
  context: RequestContext,
): Promise<HandlerOutcome> {
  const codec = apiCodec(api.apiKey);
  assert(codec !== undefined, `API ${api.apiKey} has a codec`);
  const result = await forwarder.forward(codec, context.header.apiVersion, context.body);
  if (result.kind === "response") return respond(result.body);
  const failure = { errorCode: result.errorCode, message: result.message };
  return respond(controllerErrorResponse(api, context, failure));
}

/** AlterConfigs and IncrementalAlterConfigs: loggers refused here, the rest forwarded. */
async function forwardConfigChange(
  api: ForwardedApi,
  forwarder: Forwarder,
  context: RequestContext,
): Promise<HandlerOutcome> {
  const resources = context.body["resources"] as readonly ConfigResource[];
  const isLogger = (resource: ConfigResource) =>
    resource.resourceType === ConfigResourceType.BROKER_LOGGER;
  if (!resources.some(isLogger)) return forward(api, forwarder, context);
  const others = resources.filter((resource) => !isLogger(resource));
  let forwarded: { throttleTimeMs?: number; responses: ConfigResource[] } = { responses: [] };
  if (others.length > 0) {
    const narrowed = { ...context, body: { ...context.body, resources: others } };
    const outcome = await forward(api, forwarder, narrowed);
    assert(outcome.kind === "respond", "a forwarded request is answered");
    forwarded = outcome.body as typeof forwarded;
  }
  // The controller answers its resources in request order; each takes its place again.
  const answers = [...forwarded.responses];
  const responses = resources.map((resource) => {
    if (isLogger(resource)) {
      const { resourceType, resourceName } = resource;
      const errorMessage = BROKER_LOGGER_REFUSAL;
      return { errorCode: ErrorCode.INVALID_REQUEST, errorMessage, resourceType, resourceName };
    }
    const answer = answers.shift();
    assert(answer !== undefined, "the controller answers every forwarded resource");
    return answer;
  });
  return respond({ throttleTimeMs: forwarded.throttleTimeMs ?? 0, responses });
}
