/**
 * ListOffsets (2, v1-9, as Kafka 4 serves; v0's multi-offset form is gone): per partition the
 * earliest (-2), latest (-1), max-timestamp (-3, v7+), earliest-local (-4, v8+) offset, or the
 * first offset whose timestamp is at or after the one given. Consumers (replica id -1) see the
 * high watermark for read_uncommitted (and before v2) and the last stable offset for
 * read_committed; any other replica id sees the log end. Only the leader answers, except to the
 * debugging replica id (-2), which any replica answers, as Kafka's fetchOnlyFromLeader rule has it
 * (consumers that fetch from a follower still list offsets at the leader). A partition named
 * twice in one request gets INVALID_REQUEST at each mention, as in Kafka.
 */
import { AclOperation, AclResourceType } from "../../metadata/index.js";
import { ErrorCode } from "../../common/index.js";
import { ApiKey, type ListOffsetsRequest } from "../../protocol/index.js";
import type {
  IsolationLevel,
  OffsetLookup,
  OffsetLookupOptions,
  ReplicaManager,
} from "../../replication/index.js";
import type { TopicPartition } from "../../storage/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export const LIST_OFFSETS_VERSIONS = { minVersion: 1, maxVersion: 9 } as const;

/** The replica id of a consumer's ListOffsets. */
const CONSUMER_REPLICA_ID = -1;

/** The replica id of a debugging tool (Kafka's ListOffsetsRequest.DEBUGGING_REPLICA_ID). */
const DEBUGGING_REPLICA_ID = -2;

export function listOffsetsHandler(
  replicaManager: ReplicaManager,
): ApiHandler<typeof ApiKey.ListOffsets> {
  return defineHandler(ApiKey.ListOffsets, {
    ...LIST_OFFSETS_VERSIONS,
    authorization: { kind: "handler" },
    handle: async (request, context) => {
      const isolation: IsolationLevel | undefined =
        request.replicaId !== CONSUMER_REPLICA_ID
          ? undefined
          : request.isolationLevel === 1
            ? "read_committed"
            : "read_uncommitted";
      const fetchOnlyFromLeader = request.replicaId !== DEBUGGING_REPLICA_ID;
      const duplicates = duplicatePartitions(request);
      const topics = [];
      for (const topic of request.topics) {
        const partitions = [];
        // Kafka's KafkaApis: DESCRIBE on the topic, checked before anything else.
        const isAuthorized = context.authorization.authorize(
          AclOperation.DESCRIBE,
          AclResourceType.TOPIC,
          topic.name,
        );
        for (const partition of topic.partitions) {
          const topicPartition = { topic: topic.name, partition: partition.partitionIndex };
          // Kafka refuses a partition named twice, every time it is named (INVALID_REQUEST).
          const found: OffsetLookup = !isAuthorized
            ? { kind: "error", errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED }
            : duplicates.has(partitionKey(topicPartition))
              ? { kind: "error", errorCode: ErrorCode.INVALID_REQUEST }
              : await lookUpOffset(replicaManager, topicPartition, {
                  timestamp: partition.timestamp,
                  isolation,
                  currentLeaderEpoch: partition.currentLeaderEpoch,
                  fetchOnlyFromLeader,
                });
          partitions.push({
            partitionIndex: partition.partitionIndex,
            ...answerOf(found, context.header.apiVersion),
          });
        }
        topics.push({ name: topic.name, partitions });
      }
      return respond({ throttleTimeMs: 0, topics });
    },
    errorResponse: (request, context, errorCode) => {
      const topics = request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({
          partitionIndex,
          ...answerOf({ kind: "error", errorCode }, context.header.apiVersion),
        })),
      }));
      return respond({ throttleTimeMs: 0, topics });
    },
  });
}

/** The offset one partition's leader finds, or the error of a partition not led here. */
async function lookUpOffset(
  replicaManager: ReplicaManager,
  topicPartition: TopicPartition,
  asked: OffsetLookupOptions & { readonly timestamp: number },
): Promise<OffsetLookup> {
  const lookup = replicaManager.getPartitionOrError(topicPartition);
  if (lookup.kind === "error") return lookup;
  const { timestamp, ...options } = asked;
  return lookup.partition.fetchOffsetForTimestamp(timestamp, options);
}

function partitionKey(topicPartition: TopicPartition): string {
  return `${topicPartition.topic}\u0000${topicPartition.partition}`;
}

/** The partitions the request names more than once (Kafka's duplicatePartitions). */
function duplicatePartitions(request: ListOffsetsRequest): Set<string> {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const topic of request.topics) {
    for (const { partitionIndex } of topic.partitions) {
      const key = partitionKey({ topic: topic.name, partition: partitionIndex });
      if (seen.has(key)) duplicates.add(key);
      seen.add(key);
    }
  }
  return duplicates;
}

/** One partition's answer; `leaderEpoch` exists from v4 and may not be set before. */
function answerOf(found: OffsetLookup, version: number) {
  const answer = answerFieldsOf(found);
  if (version >= 4) return answer;
  const { leaderEpoch: _leaderEpoch, ...withoutEpoch } = answer;
  return withoutEpoch;
}

function answerFieldsOf(found: OffsetLookup) {
  switch (found.kind) {
    case "found":
      return {
        errorCode: ErrorCode.NONE,
        timestamp: found.timestamp,
        offset: found.offset,
        leaderEpoch: found.leaderEpoch,
      };
    case "notFound":
      return { errorCode: ErrorCode.NONE, timestamp: -1, offset: -1, leaderEpoch: -1 };
    case "error":
      return { errorCode: found.errorCode, timestamp: -1, offset: -1, leaderEpoch: -1 };
  }
}
