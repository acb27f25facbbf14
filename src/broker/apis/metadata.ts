/**
 * Metadata (3, v0-12, as Kafka 3.x brokers serve): live brokers on the request's listener, the
 * cluster id, a live broker as controller id, and the topics asked for (all when the list is
 * null, or empty in v0) with partitions, leader epochs (v7+), offline replicas (v5+) and topic
 * ids (v10+; v10+ may ask by id, UNKNOWN_TOPIC_ID when none matches), and authorized operations
 * when asked (v8+; the cluster's in v8-10), those the authorizer grants. As Kafka: a topic the
 * principal may not DESCRIBE is left out of an all-topics answer and answered
 * TOPIC_AUTHORIZATION_FAILED when named (whether it exists or not, so nothing is learnt of it),
 * and auto-creation needs CREATE on the cluster or the topic. A missing topic is auto-created
 * when `auto.create.topics.enable` is on and the request allows
 * it (always before v4, `allowAutoTopicCreation` from v4): it answers LEADER_NOT_AVAILABLE while
 * the controller creates it, else UNKNOWN_TOPIC_OR_PARTITION; an invalid name is
 * INVALID_TOPIC_EXCEPTION.
 */
import { ErrorCode, ZERO_UUID } from "../../common/index.js";
import { invalidTopicNameReason } from "../../controller/index.js";
import {
  AclOperation,
  AclResourceType,
  type MetadataImage,
  type TopicImage,
} from "../../metadata/index.js";
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  ApiKey,
  authorizedOperations,
  type MessageInput,
  type MetadataRequest,
  type MetadataResponseMetadataResponseTopic,
} from "../../protocol/index.js";
import { partitionsMetadata, type MetadataCache } from "../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";
import type { RequestAuthorization } from "../security/index.js";
import type { TopicAutoCreation } from "./auto-topic-creation.driver.js";

export const METADATA_VERSIONS = { minVersion: 0, maxVersion: 12 } as const;
/** Kafka's internal topics, flagged isInternal. */
export const INTERNAL_TOPICS = new Set(["__consumer_offsets", "__transaction_state"]);

type TopicMetadata = MessageInput<MetadataResponseMetadataResponseTopic>;

export interface MetadataHandlerOptions {
  readonly metadataCache: MetadataCache;
  /** `auto.create.topics.enable`. */
  readonly autoCreateTopicsEnable: boolean;
  readonly autoCreation: TopicAutoCreation;
}

export function metadataHandler(
  options: MetadataHandlerOptions,
): ApiHandler<typeof ApiKey.Metadata> {
  return defineHandler(ApiKey.Metadata, {
    ...METADATA_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, context) => {
      const version = context.header.apiVersion;
      const { metadataCache } = options;
      const image = metadataCache.image;
      const listenerName = context.connection.listenerName;
      const brokers = metadataCache.aliveBrokers(listenerName, image).map((broker) => ({
        nodeId: broker.brokerId,
        host: broker.host,
        port: broker.port,
        rack: broker.rack,
      }));
      const { authorization } = context;
      const query = { request, version, listenerName, authorization };
      const topics = answerTopics(options, image, query);
      const isClusterAsked =
        version >= 8 && version <= 10 && request.includeClusterAuthorizedOperations;
      return respond({
        throttleTimeMs: 0,
        brokers,
        clusterId: metadataCache.clusterId,
        controllerId: metadataCache.controllerIdForClients(image),
        topics: withTopicOperations(
          topics,
          version >= 8 && request.includeTopicAuthorizedOperations,
          authorization,
        ),
        // v8-10 only: v11 moved the cluster's operations to DescribeCluster. Kafka answers 0
        // to a principal that may not DESCRIBE the cluster.
        clusterAuthorizedOperations:
          isClusterAsked && !authorization.authorizeCluster(AclOperation.DESCRIBE)
            ? 0
            : authorizedOperations("cluster", isClusterAsked, authorization.authorizeCluster),
      });
    },
    errorResponse: (request, _context, errorCode) => {
      const topics = (request.topics ?? []).map((topic) => ({
        errorCode,
        name: topic.name,
        topicId: topic.topicId,
        partitions: [],
      }));
      return respond({ throttleTimeMs: 0, brokers: [], controllerId: -1, topics });
    },
  });
}

interface TopicsQuery {
  readonly request: MetadataRequest;
  readonly version: number;
  readonly listenerName: string;
  readonly authorization: RequestAuthorization;
}

function answerTopics(
  options: MetadataHandlerOptions,
  image: MetadataImage,
  query: TopicsQuery,
): TopicMetadata[] {
  const { request, version, authorization } = query;
  const mayDescribe = (name: string) =>
    authorization.authorize(AclOperation.DESCRIBE, AclResourceType.TOPIC, name);
  const mayCreate = (name: string) =>
    authorization.authorizeCluster(AclOperation.CREATE) ||
    authorization.authorize(AclOperation.CREATE, AclResourceType.TOPIC, name);
  const refused = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
  const isAllTopics = request.topics === null || (version === 0 && request.topics.length === 0);
  if (isAllTopics) {
    return [...image.topics.byName.values()]
      .filter((topic) => mayDescribe(topic.name))
      .sort((left, right) => (left.name < right.name ? -1 : 1))
      .map((topic) => existingTopic(image, topic, query));
  }
  const answers: TopicMetadata[] = [];
  const toCreate: string[] = [];
  const isAutoCreate =
    options.autoCreateTopicsEnable && (version < 4 || request.allowAutoTopicCreation);
  for (const asked of request.topics ?? []) {
    if (asked.name === null) {
      const topic = image.topics.byId.get(
        asked.topicId as Parameters<typeof image.topics.byId.get>[0],
      );
      // Kafka does not hold topic ids secret: a refused id is answered with the id alone.
      answers.push(
        topic === undefined
          ? missingTopic(ErrorCode.UNKNOWN_TOPIC_ID, null, asked.topicId)
          : mayDescribe(topic.name)
            ? existingTopic(image, topic, query)
            : missingTopic(refused, null, asked.topicId),
      );
      continue;
    }
    const topic = image.topics.byName.get(asked.name);
    if (!mayDescribe(asked.name)) {
      answers.push(missingTopic(refused, asked.name, ZERO_UUID));
    } else if (topic !== undefined) {
      answers.push(existingTopic(image, topic, query));
    } else if (invalidTopicNameReason(asked.name) !== undefined) {
      answers.push(missingTopic(ErrorCode.INVALID_TOPIC_EXCEPTION, asked.name, ZERO_UUID));
    } else if (isAutoCreate && !mayCreate(asked.name)) {
      answers.push(missingTopic(refused, asked.name, ZERO_UUID));
    } else if (isAutoCreate) {
      toCreate.push(asked.name);
      answers.push(missingTopic(ErrorCode.LEADER_NOT_AVAILABLE, asked.name, ZERO_UUID));
    } else {
      answers.push(missingTopic(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, asked.name, ZERO_UUID));
    }
  }
  if (toCreate.length > 0) options.autoCreation.createTopics(toCreate);
  return answers;
}

/**
 * Sets each named topic's operations when the request asked (v8+), as Kafka does for every
 * topic it looked up by name; a topic id that matched nothing has no name and keeps the
 * not-asked value, as in Kafka.
 */
function withTopicOperations(
  topics: TopicMetadata[],
  asked: boolean,
  authorization: RequestAuthorization,
): TopicMetadata[] {
  if (!asked) return topics;
  return topics.map((topic) => {
    const { name } = topic;
    if (name === null || name === undefined) return topic;
    if (topic.errorCode === ErrorCode.TOPIC_AUTHORIZATION_FAILED) return topic;
    const isAllowed = (operation: number) =>
      authorization.authorize(operation, AclResourceType.TOPIC, name);
    return { ...topic, topicAuthorizedOperations: authorizedOperations("topic", true, isAllowed) };
  });
}

function existingTopic(image: MetadataImage, topic: TopicImage, query: TopicsQuery): TopicMetadata {
  const partitions = partitionsMetadata(image, topic, {
    listenerName: query.listenerName,
    errorUnavailableEndpoints: query.version === 0,
    errorUnavailableListeners: query.version >= 6,
  });
  return {
    errorCode: ErrorCode.NONE,
    name: topic.name,
    topicId: topic.id,
    isInternal: INTERNAL_TOPICS.has(topic.name),
    partitions,
    topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}

function missingTopic(errorCode: number, name: string | null, topicId: string): TopicMetadata {
  return {
    errorCode,
    name,
    topicId,
    isInternal: false,
    partitions: [],
    topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  };
}
