/**
 * The admin APIs a KRaft broker forwards to the active controller (Kafka's KafkaApis with its
 * ForwardingManager): CreateTopics, DeleteTopics, CreatePartitions, AlterConfigs,
 * IncrementalAlterConfigs, ElectLeaders, AlterPartitionReassignments, ListPartitionReassignments,
 * AlterClientQuotas, AlterUserScramCredentials (where the node can derive SCRAM keys) and
 * UpdateFeatures. The broker serves the versions the controller serves (the request travels at
 * the client's version and the answer comes back unchanged), and a failed forward is answered
 * with the API's own error response, as the controller builds it.
 *
 * BROKER_LOGGER resources of AlterConfigs and IncrementalAlterConfigs are a broker's own
 * business in Kafka (its ConfigAdminManager answers them before forwarding the rest). Sluice
 * has no runtime-adjustable loggers, so it refuses them with INVALID_REQUEST on the broker,
 * forwards the other resources, and answers all in request order.
 */
import { assert, ErrorCode } from "../../common/index.js";
import {
  alterClientQuotasApi,
  alterConfigsApi,
  alterPartitionReassignmentsApi,
  createAclsApi,
  deleteAclsApi,
  alterUserScramCredentialsApi,
  createPartitionsApi,
  createTopicsApi,
  deleteTopicsApi,
  electLeadersApi,
  incrementalAlterConfigsApi,
  listPartitionReassignmentsApi,
  updateFeaturesApi,
  type ControllerApi,
  type ControllerApiResponse,
} from "../../controller/index.js";
import { AclOperation, ConfigResourceType, type MetadataImage } from "../../metadata/index.js";
import {
  typedApiCodec,
  type ApiKey,
  type ApiRequest,
  type ApiResponse,
  type MessageInput,
} from "../../protocol/index.js";
import {
  defineHandler,
  respond,
  type ApiHandler,
  type HandlerContext,
  type HandlerOutcome,
} from "../router/handler.js";
import { controllerErrorResponse } from "./admin-error-responses.js";
import {
  addedPartitionsShown,
  clientQuotasShown,
  createdTopicsShown,
  deletedTopicsShown,
  featureLevelsShown,
  scramChangesShown,
} from "./forwarded-effects.js";
import type { Forwarder } from "./forwarder.js";
import { configChangeRefusal, type ConfigChangeRefusal } from "./config-admin-authorization.js";
import {
  createPartitionsAuthorized,
  createTopicsAuthorized,
  deleteTopicsAuthorized,
  TOPIC_AUTHORIZATION_REFUSAL,
} from "./topic-admin-authorization.js";

/** The APIs whose requests may name BROKER_LOGGER resources. */
type ConfigChangeKey = typeof ApiKey.AlterConfigs | typeof ApiKey.IncrementalAlterConfigs;

const BROKER_LOGGER_REFUSAL = "this broker has no loggers that can be changed at runtime";

/** The handlers of the forwarded admin APIs, in API key order. */
export function forwardedAdminHandlers(
  forwarder: Forwarder,
  options: { readonly servesScramAlter: boolean; readonly image: () => MetadataImage },
): readonly ApiHandler<ApiKey>[] {
  const scram = options.servesScramAlter
    ? [forwardedAdminHandler(alterUserScramCredentialsApi, forwarder, forward, scramChangesShown)]
    : [];
  return [
    forwardedAdminHandler(createTopicsApi, forwarder, forwardCreateTopics, createdTopicsShown),
    forwardedAdminHandler(
      deleteTopicsApi,
      forwarder,
      (api, forwarder, request, context, shows) =>
        deleteTopicsAuthorized(request, context, {
          image: options.image(),
          forward: (allowed) => forward(api, forwarder, allowed, context, shows),
        }),
      (_request, response, image) => deletedTopicsShown(response, image),
    ),
    forwardedAdminHandler(createAclsApi, forwarder),
    forwardedAdminHandler(deleteAclsApi, forwarder),
    forwardedAdminHandler(alterConfigsApi, forwarder, forwardConfigChange),
    forwardedAdminHandler(
      createPartitionsApi,
      forwarder,
      (api, forwarder, request, context, shows) =>
        createPartitionsAuthorized(request, context, (allowed) =>
          forward(api, forwarder, allowed, context, shows),
        ),
      addedPartitionsShown,
    ),
    forwardedAdminHandler(electLeadersApi, forwarder),
    forwardedAdminHandler(incrementalAlterConfigsApi, forwarder, forwardConfigChange),
    forwardedAdminHandler(alterPartitionReassignmentsApi, forwarder),
    forwardedAdminHandler(listPartitionReassignmentsApi, forwarder),
    forwardedAdminHandler(alterClientQuotasApi, forwarder, forward, clientQuotasShown),
    ...scram,
    forwardedAdminHandler(updateFeaturesApi, forwarder, forward, featureLevelsShown),
  ];
}

/**
 * What the broker checks before forwarding, as Kafka's KafkaApis and ControllerApis check it on
 * the cluster. The APIs of PER_RESOURCE check each resource themselves
 * (topic-admin-authorization.ts, config-admin-authorization.ts).
 */
const CLUSTER_OPERATIONS: ReadonlyMap<number, number> = new Map<number, number>([
  [createAclsApi.apiKey, AclOperation.ALTER],
  [deleteAclsApi.apiKey, AclOperation.ALTER],
  [electLeadersApi.apiKey, AclOperation.ALTER],
  [alterPartitionReassignmentsApi.apiKey, AclOperation.ALTER],
  [listPartitionReassignmentsApi.apiKey, AclOperation.DESCRIBE],
  [updateFeaturesApi.apiKey, AclOperation.ALTER],
  [alterClientQuotasApi.apiKey, AclOperation.ALTER_CONFIGS],
  [alterUserScramCredentialsApi.apiKey, AclOperation.ALTER],
]);

const PER_RESOURCE: ReadonlySet<number> = new Set([
  createTopicsApi.apiKey,
  deleteTopicsApi.apiKey,
  createPartitionsApi.apiKey,
  alterConfigsApi.apiKey,
  incrementalAlterConfigsApi.apiKey,
]);

/** What the router checks of API `apiKey`. */
function authorizationOf(apiKey: number) {
  if (PER_RESOURCE.has(apiKey)) return { authorization: { kind: "handler" } } as const;
  const operation = CLUSTER_OPERATIONS.get(apiKey);
  return operation === undefined
    ? {}
    : ({ authorization: { kind: "cluster", operation } } as const);
}

/** How a request of API `K` reaches the controller. */
type Forwarding<K extends ApiKey> = (
  api: ControllerApi<K>,
  forwarder: Forwarder,
  request: ApiRequest<K>,
  context: HandlerContext,
  shows?: Shows<K>,
) => Promise<HandlerOutcome<ApiResponse<K>>>;

/** Whether this broker's image shows the effect of the controller's answer to `request`. */
type Shows<K extends ApiKey> = (
  request: ApiRequest<K>,
  response: ApiResponse<K>,
  image: MetadataImage,
) => boolean;

/**
 * The handler that forwards `api`'s requests through `forwarder`, at the versions the
 * controller serves and with its error response.
 */
function forwardedAdminHandler<K extends ApiKey>(
  api: ControllerApi<K>,
  forwarder: Forwarder,
  forwarding: Forwarding<K> = forward,
  shows?: Shows<K>,
): ApiHandler<K> {
  return defineHandler(api.apiKey, {
    minVersion: api.minVersion,
    maxVersion: api.maxVersion,
    ...authorizationOf(api.apiKey),
    handle: (request, context) => forwarding(api, forwarder, request, context, shows),
    errorResponse: (request, context, errorCode) =>
      respond(controllerErrorResponse(api, request, context, { errorCode, message: null })),
  });
}

/**
 * Forwards the request and answers with the controller's response, once this broker's image
 * `shows` its effect when that is given, or with the error response.
 */
async function forward<K extends ApiKey>(
  api: ControllerApi<K>,
  forwarder: Forwarder,
  request: ApiRequest<K>,
  context: HandlerContext,
  shows?: Shows<K>,
): Promise<HandlerOutcome<ApiResponse<K>>> {
  const codec = typedApiCodec(api.apiKey);
  const shownBy =
    shows === undefined
      ? undefined
      : (response: ApiResponse<K>, image: MetadataImage) => shows(request, response, image);
  const forwarding = forwarder.forward(codec, context.header.apiVersion, request, shownBy);
  const result = await (context.remote?.wait(forwarding) ?? forwarding);
  if (result.kind === "response") return respond(result.body);
  const failure = { errorCode: result.errorCode, message: result.message };
  return respond(controllerErrorResponse(api, request, context, failure));
}

/** CreateTopics: the topics the principal may create are forwarded, the others refused. */
const forwardCreateTopics: Forwarding<typeof ApiKey.CreateTopics> = (
  api,
  forwarder,
  request,
  context,
  shows,
) =>
  createTopicsAuthorized(request, context, {
    forward: (allowed) => forward(api, forwarder, allowed, context, shows),
    refused: (topic) => {
      const refusal = { ...request, topics: [topic] };
      const answer = controllerErrorResponse(api, refusal, context, TOPIC_AUTHORIZATION_REFUSAL);
      const refusedTopic = answer.topics?.[0];
      assert(refusedTopic !== undefined, "an error response answers each topic");
      return refusedTopic;
    },
  });

/**
 * AlterConfigs and IncrementalAlterConfigs: the resources the principal may not change are
 * refused here (config-admin-authorization.ts), and so are logger resources, with the API's own
 * error response for each; the rest is forwarded, and the answers keep the request's order.
 */
async function forwardConfigChange<K extends ConfigChangeKey>(
  api: ControllerApi<K>,
  forwarder: Forwarder,
  request: ApiRequest<K>,
  context: HandlerContext,
): Promise<HandlerOutcome<ApiResponse<K>>> {
  const { resources } = request;
  const refusals = resources.map(
    (resource) => configChangeRefusal(resource, context) ?? loggerRefusal(resource),
  );
  const firstRefusal = refusals.find((refusal) => refusal !== undefined);
  if (firstRefusal === undefined) return forward(api, forwarder, request, context);
  const others = resources.filter((_, index) => refusals[index] === undefined);
  let answer: ControllerApiResponse<K> | undefined;
  if (others.length > 0) {
    const outcome = await forward(api, forwarder, { ...request, resources: others }, context);
    assert(outcome.kind === "respond", "a forwarded request is answered");
    answer = outcome.body;
  }
  // The controller answers its resources in request order; each takes its place again.
  const forwarded = [...(answer === undefined ? [] : responsesOf(answer))];
  const responses = resources.map((resource, index) => {
    const refusal = refusals[index];
    const alone = { ...request, resources: [resource] };
    const response =
      refusal === undefined
        ? forwarded.shift()
        : responsesOf(controllerErrorResponse(api, alone, context, refusal))[0];
    assert(response !== undefined, "every resource is answered");
    return response;
  });
  return respond({
    ...(answer ?? controllerErrorResponse(api, request, context, firstRefusal)),
    responses,
  });
}

/** A logger resource is refused: this broker has none to change at runtime. */
function loggerRefusal(resource: {
  readonly resourceType: number;
}): ConfigChangeRefusal | undefined {
  if (resource.resourceType !== ConfigResourceType.BROKER_LOGGER) return undefined;
  return { errorCode: ErrorCode.INVALID_REQUEST, message: BROKER_LOGGER_REFUSAL };
}

function responsesOf(answer: MessageInput<ApiResponse<ConfigChangeKey>>) {
  return answer.responses ?? [];
}
