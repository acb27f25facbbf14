/**
 * CreateTopics checked per topic on the broker before it is forwarded, as Kafka's KafkaApis and
 * ControllerApis check it: CREATE on the cluster or on each topic, and DESCRIBE_CONFIGS on a
 * topic to see its configs in the answer (v5+; else topicConfigErrorCode is
 * TOPIC_AUTHORIZATION_FAILED). Refused topics are answered TOPIC_AUTHORIZATION_FAILED in their
 * place; the others are forwarded together.
 */
import { assert, ErrorCode } from "../../common/index.js";
import { AclOperation, AclResourceType } from "../../metadata/index.js";
import type {
  CreateTopicsRequest,
  CreateTopicsResponse,
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
