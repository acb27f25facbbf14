/**
 * DescribeTopicPartitions (75, v0, KIP-966), as Kafka's DescribeTopicPartitionsRequestHandler:
 * the topics asked for (every topic when none is named, then skipping those with errors), in
 * name order from the cursor's topic and partition on, at most `responsePartitionLimit`
 * partitions (bounded by Kafka's default `max.request.partition.size.limit`, 2000) with a
 * `nextCursor` where the answer stopped. Each partition carries its leader (-1 when not reachable
 * on the request's listener), replicas, ISR, ELR, last known ELR and offline replicas. A cursor
 * whose topic is not among those named, or with a negative partition, is INVALID_REQUEST.
 * As Kafka's, a topic needs DESCRIBE to be shown: a named one without it is answered
 * TOPIC_AUTHORIZATION_FAILED after the others, whether it exists or not, and left out of an
 * answer of every topic; each topic's authorized operations are the principal's.
 */
import { ErrorCode, ZERO_UUID } from "../../common/index.js";
import { invalidTopicNameReason } from "../../controller/index.js";
import {
  AclOperation,
  AclResourceType,
  sortedEntries,
  type MetadataImage,
  type TopicImage,
} from "../../metadata/index.js";
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  ApiKey,
  authorizedOperations,
  type DescribeTopicPartitionsRequest,
  type DescribeTopicPartitionsResponse,
  type DescribeTopicPartitionsResponseDescribeTopicPartitionsResponseTopic,
  type MessageInput,
} from "../../protocol/index.js";
import { partitionsMetadata, type MetadataCache } from "../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";
import { INTERNAL_TOPICS } from "./metadata.js";

export const DESCRIBE_TOPIC_PARTITIONS_VERSIONS = { minVersion: 0, maxVersion: 0 } as const;

/** Kafka's default `max.request.partition.size.limit`: the most partitions one answer holds. */
export const RESPONSE_PARTITIONS_MAX = 2000;

type Topic = MessageInput<DescribeTopicPartitionsResponseDescribeTopicPartitionsResponseTopic>;

export function describeTopicPartitionsHandler(
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.DescribeTopicPartitions> {
  return defineHandler(ApiKey.DescribeTopicPartitions, {
    ...DESCRIBE_TOPIC_PARTITIONS_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, context) => {
      const image = metadataCache.image;
      const asked = topicNamesOf(request, image);
      if (asked === undefined) return respond(topicErrors(request, ErrorCode.INVALID_REQUEST));
      const { authorization } = context;
      const operationsOn = (name: string) =>
        authorizedOperations("topic", true, (operation) =>
          authorization.authorize(operation, AclResourceType.TOPIC, name),
        );
      const mayDescribe = (name: string) =>
        authorization.authorize(AclOperation.DESCRIBE, AclResourceType.TOPIC, name);
      const names = asked.filter(mayDescribe);
      const refused = request.topics.length === 0 ? [] : asked.filter((name) => !mayDescribe(name));
      const finish = (
        topics: Topic[],
        nextCursor: { topicName: string; partitionIndex: number } | null,
      ) =>
        respond<DescribeTopicPartitionsResponse>(
          answered([...topics, ...refused.map(refusedTopic)], nextCursor),
        );
      const limit = Math.max(Math.min(RESPONSE_PARTITIONS_MAX, request.responsePartitionLimit), 1);
      const cursor = request.cursor;
      const answer = { image, listenerName: context.connection.listenerName, operationsOn };
      const topics: Topic[] = [];
      let remaining = limit;
      for (const name of names) {
        const topic = image.topics.byName.get(name);
        if (remaining === 0) {
          return finish(topics, { topicName: name, partitionIndex: 0 });
        }
        if (topic === undefined) {
          if (request.topics.length > 0) topics.push(missingTopic(name, operationsOn(name)));
          continue;
        }
        const start = name === cursor?.topicName ? cursor.partitionIndex : 0;
        const described = describeTopic(topic, { ...answer, start, limit: remaining });
        topics.push(described.topic);
        if (described.nextPartition !== undefined) {
          return finish(topics, { topicName: name, partitionIndex: described.nextPartition });
        }
        remaining -= described.topic.partitions?.length ?? 0;
      }
      return finish(topics, null);
    },
    errorResponse: (request, _context, errorCode) => respond(topicErrors(request, errorCode)),
  });
}

/**
 * The topics to describe, in name order from the cursor's on; undefined when the cursor is
 * invalid (Kafka's InvalidRequestException).
 */
function topicNamesOf(
  request: DescribeTopicPartitionsRequest,
  image: MetadataImage,
): string[] | undefined {
  const from = request.cursor?.topicName ?? "";
  const asked =
    request.topics.length === 0
      ? [...image.topics.byName.keys()]
      : request.topics.map((topic) => topic.name);
  const names = [...new Set(asked.filter((name) => name >= from))].sort();
  const cursor = request.cursor;
  if (cursor !== null && request.topics.length > 0 && !names.includes(cursor.topicName)) {
    return undefined;
  }
  if (cursor !== null && cursor.partitionIndex < 0) return undefined;
  return names;
}

/** The partitions of `topic` from `start`, at most `limit`, and where the next answer starts. */
function describeTopic(
  topic: TopicImage,
  at: {
    readonly image: MetadataImage;
    readonly listenerName: string;
    readonly start: number;
    readonly limit: number;
    readonly operationsOn: (name: string) => number;
  },
): { topic: Topic; nextPartition: number | undefined } {
  const count = topic.partitions.size;
  const upper = Math.min(count, at.start + at.limit);
  const options = { listenerName: at.listenerName, errorUnavailableEndpoints: false };
  const described = partitionsMetadata(at.image, topic, {
    ...options,
    errorUnavailableListeners: false,
  });
  // Index for index: partitionsMetadata lists the partitions in the order of sortedEntries.
  const partitions = sortedEntries(topic.partitions).flatMap(([index, registration], position) =>
    index < at.start || index >= upper
      ? []
      : [
          {
            ...described[position],
            partitionIndex: index,
            // No per-partition error: a partition without a reachable leader shows leader -1.
            errorCode: ErrorCode.NONE,
            eligibleLeaderReplicas: [...registration.eligibleLeaderReplicas],
            lastKnownElr: [...registration.lastKnownElr],
          },
        ],
  );
  return {
    topic: {
      errorCode: ErrorCode.NONE,
      name: topic.name,
      topicId: topic.id,
      isInternal: INTERNAL_TOPICS.has(topic.name),
      partitions,
      topicAuthorizedOperations: at.operationsOn(topic.name),
    },
    nextPartition: upper < count ? upper : undefined,
  };
}

function missingTopic(name: string, topicAuthorizedOperations: number): Topic {
  const isValid = invalidTopicNameReason(name) === undefined;
  return {
    errorCode: isValid ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION : ErrorCode.INVALID_TOPIC_EXCEPTION,
    name,
    topicId: ZERO_UUID,
    isInternal: INTERNAL_TOPICS.has(name),
    partitions: [],
    topicAuthorizedOperations,
  };
}

/** A named topic the principal may not describe; its existence is not told. */
function refusedTopic(name: string): Topic {
  const errorCode = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
  const unknown = { topicId: ZERO_UUID, isInternal: false, partitions: [] };
  return { errorCode, name, ...unknown, topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED };
}

function answered(
  topics: Topic[],
  nextCursor: { topicName: string; partitionIndex: number } | null,
): MessageInput<DescribeTopicPartitionsResponse> {
  return { throttleTimeMs: 0, topics, nextCursor };
}

/** Kafka's getErrorResponse: each topic named, with `errorCode` (INVALID_REQUEST for a cursor). */
function topicErrors(
  request: DescribeTopicPartitionsRequest,
  errorCode: number,
): MessageInput<DescribeTopicPartitionsResponse> {
  const topics = request.topics.map(({ name }) => ({
    errorCode,
    name,
    topicId: ZERO_UUID,
    isInternal: false,
    partitions: [],
    topicAuthorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
  }));
  return answered(topics, null);
}
