/**
 * The topic admin APIs checked per topic on the broker before they are forwarded, as Kafka's
 * KafkaApis and ControllerApis check them; the topics allowed are forwarded together, and the
 * refused ones answered TOPIC_AUTHORIZATION_FAILED.
 *
 * - CreateTopics: CREATE on the cluster or on each topic, and DESCRIBE_CONFIGS on a topic to see
 *   its configs in the answer (v5+; else topicConfigErrorCode is TOPIC_AUTHORIZATION_FAILED).
 *   Refused topics are answered in their place.
 * - DeleteTopics: DELETE on the cluster allows all; else DELETE on each topic (which implies
 *   DESCRIBE). A name without DESCRIBE is refused whether the topic exists or not, so that its
 *   existence is not told; with DESCRIBE only, an existing topic is refused and an unknown one
 *   goes on to be answered UNKNOWN_TOPIC_OR_PARTITION. An id is resolved in this broker's image:
 *   unknown, it goes on (UNKNOWN_TOPIC_ID); known and refused, its name is answered only when the
 *   principal may describe it.
 * - CreatePartitions: ALTER on each topic.
 */
import { assert, ErrorCode, ZERO_UUID, type Uuid } from "../../common/index.js";
import { AclOperation, AclResourceType, type MetadataImage } from "../../metadata/index.js";
import type {
  CreatePartitionsRequest,
  CreatePartitionsResponse,
  CreateTopicsRequest,
  CreateTopicsResponse,
  DeleteTopicsRequest,
  DeleteTopicsResponse,
  MessageInput,
} from "../../protocol/index.js";
import { respond, type HandlerContext, type HandlerOutcome } from "../router/handler.js";

/** What a refused topic is answered, with the message Kafka's ApiError gives the code. */
export const TOPIC_AUTHORIZATION_REFUSAL = {
  errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
  message: "Authorization failed.",
} as const;

type CreatableTopic = CreateTopicsRequest["topics"][number];
type TopicAnswer = NonNullable<MessageInput<CreateTopicsResponse>["topics"]>[number];

export async function createTopicsAuthorized(
  request: CreateTopicsRequest,
  context: HandlerContext,
  options: {
    readonly forward: (
      request: CreateTopicsRequest,
    ) => Promise<HandlerOutcome<CreateTopicsResponse>>;
    readonly refused: (topic: CreatableTopic) => TopicAnswer;
  },
): Promise<HandlerOutcome<CreateTopicsResponse>> {
  const { authorization } = context;
  const type = AclResourceType.TOPIC;
  const mayCreateAll = authorization.authorizeCluster(AclOperation.CREATE);
  const isAllowed = (topic: CreatableTopic) =>
    mayCreateAll || authorization.authorize(AclOperation.CREATE, type, topic.name);
  const allowed = request.topics.filter(isAllowed);
  let answered: MessageInput<CreateTopicsResponse> = { throttleTimeMs: 0, topics: [] };
  if (allowed.length > 0) {
    const outcome = await options.forward({ ...request, topics: allowed });
    assert(outcome.kind === "respond", "a forwarded request is answered");
    answered = outcome.body;
  }
  const byName = new Map((answered.topics ?? []).map((answer) => [answer.name, answer]));
  const topics = request.topics.map((topic) => {
    const answer = isAllowed(topic) ? byName.get(topic.name) : undefined;
    if (answer === undefined) return options.refused(topic);
    if (authorization.authorize(AclOperation.DESCRIBE_CONFIGS, type, topic.name)) return answer;
    const topicConfigErrorCode = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
    return { ...answer, configs: [], topicConfigErrorCode };
  });
  return respond({ ...answered, topics });
}

type DeletionResult = DeleteTopicsResponse["responses"][number];

/** DeleteTopics: the topics the principal may delete are forwarded; see the file comment. */
export async function deleteTopicsAuthorized(
  request: DeleteTopicsRequest,
  context: HandlerContext,
  options: {
    readonly image: MetadataImage;
    readonly forward: (
      request: DeleteTopicsRequest,
    ) => Promise<HandlerOutcome<DeleteTopicsResponse>>;
  },
): Promise<HandlerOutcome<DeleteTopicsResponse>> {
  const { authorization } = context;
  if (authorization.authorizeCluster(AclOperation.DELETE)) return options.forward(request);
  const { topics: known } = options.image;
  const may = (operation: number, name: string) =>
    authorization.authorize(operation, AclResourceType.TOPIC, name);
  const refusals: DeletionResult[] = [];
  const refuse = (name: string | null, topicId: string): false => {
    const { errorCode, message: errorMessage } = TOPIC_AUTHORIZATION_REFUSAL;
    refusals.push({ name, topicId, errorCode, errorMessage });
    return false;
  };
  const isNameAllowed = (name: string): boolean =>
    may(AclOperation.DESCRIBE, name) && (!known.byName.has(name) || may(AclOperation.DELETE, name))
      ? true
      : refuse(name, ZERO_UUID);
  const topicNames = request.topicNames.filter(isNameAllowed);
  const topics = request.topics.filter(({ name, topicId }) => {
    // An entry with both a name and an id is the controller's to refuse.
    if (name !== null) return topicId !== ZERO_UUID || isNameAllowed(name);
    const found = known.byId.get(topicId as Uuid);
    if (found === undefined || may(AclOperation.DELETE, found.name)) return true;
    return refuse(may(AclOperation.DESCRIBE, found.name) ? found.name : null, topicId);
  });
  if (refusals.length === 0) return options.forward(request);
  let answered: MessageInput<DeleteTopicsResponse> = { throttleTimeMs: 0, responses: [] };
  if (topicNames.length + topics.length > 0) {
    const outcome = await options.forward({ ...request, topicNames, topics });
    assert(outcome.kind === "respond", "a forwarded request is answered");
    answered = outcome.body;
  }
  return respond({ ...answered, responses: [...(answered.responses ?? []), ...refusals] });
}

/** CreatePartitions: the topics the principal may ALTER are forwarded, the others refused. */
export async function createPartitionsAuthorized(
  request: CreatePartitionsRequest,
  context: HandlerContext,
  forward: (request: CreatePartitionsRequest) => Promise<HandlerOutcome<CreatePartitionsResponse>>,
): Promise<HandlerOutcome<CreatePartitionsResponse>> {
  const isAllowed = (topic: { readonly name: string }) =>
    context.authorization.authorize(AclOperation.ALTER, AclResourceType.TOPIC, topic.name);
  const allowed = request.topics.filter(isAllowed);
  if (allowed.length === request.topics.length) return forward(request);
  let answered: MessageInput<CreatePartitionsResponse> = { throttleTimeMs: 0, results: [] };
  if (allowed.length > 0) {
    const outcome = await forward({ ...request, topics: allowed });
    assert(outcome.kind === "respond", "a forwarded request is answered");
    answered = outcome.body;
  }
  const refused = request.topics.filter((topic) => !isAllowed(topic));
  const refusals = refused.map(({ name }) => ({
    name,
    errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    errorMessage: null,
  }));
  return respond({ ...answered, results: [...(answered.results ?? []), ...refusals] });
}
