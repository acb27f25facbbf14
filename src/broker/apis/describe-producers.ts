/**
 * DescribeProducers (61, v0, KIP-664): the producers each asked partition holds state for, on
 * its leader or a follower alike, as Kafka's KafkaApis and ReplicaManager.activeProducerState
 * answer it. A topic name that is not valid is INVALID_TOPIC_EXCEPTION and one the metadata does
 * not know UNKNOWN_TOPIC_OR_PARTITION, for each partition asked; a partition this broker does
 * not host is NOT_LEADER_OR_FOLLOWER (or UNKNOWN_TOPIC_OR_PARTITION when the topic lacks it),
 * an offline one KAFKA_STORAGE_ERROR. A topic the principal may not READ is
 * TOPIC_AUTHORIZATION_FAILED, before its existence is looked at.
 */
import { ErrorCode } from "../../common/index.js";
import { invalidTopicNameReason } from "../../controller/index.js";
import { AclOperation, AclResourceType } from "../../metadata/index.js";
import {
  ApiKey,
  type DescribeProducersRequest,
  type DescribeProducersResponse,
  type DescribeProducersResponsePartitionResponse,
} from "../../protocol/index.js";
import type { ReplicaManager } from "../../replication/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export const DESCRIBE_PRODUCERS_VERSIONS = { minVersion: 0, maxVersion: 0 } as const;

type PartitionAnswer = Pick<DescribeProducersResponsePartitionResponse, "errorCode"> &
  Partial<Pick<DescribeProducersResponsePartitionResponse, "errorMessage" | "activeProducers">>;

function partitionsAnswer(
  request: DescribeProducersRequest,
  answerOf: (topic: string, partitionIndex: number) => PartitionAnswer,
) {
  return respond<DescribeProducersResponse>({
    throttleTimeMs: 0,
    topics: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitionIndexes.map((partitionIndex) => ({
        partitionIndex,
        activeProducers: [],
        errorMessage: null,
        ...answerOf(topic.name, partitionIndex),
      })),
    })),
  });
}

export function describeProducersHandler(
  replicaManager: ReplicaManager,
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.DescribeProducers> {
  return defineHandler(ApiKey.DescribeProducers, {
    ...DESCRIBE_PRODUCERS_VERSIONS,
    authorization: { kind: "handler" },
    handle: (request, { authorization }) => {
      const image = metadataCache.image;
      return partitionsAnswer(request, (topic, partition) => {
        const invalid = invalidTopicNameReason(topic);
        if (invalid !== undefined) {
          return { errorCode: ErrorCode.INVALID_TOPIC_EXCEPTION, errorMessage: invalid };
        }
        if (!authorization.authorize(AclOperation.READ, AclResourceType.TOPIC, topic)) {
          return { errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED };
        }
        if (!image.topics.byName.has(topic)) {
          return { errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION };
        }
        const lookup = replicaManager.getPartitionOrError({ topic, partition });
        if (lookup.kind === "error") return { errorCode: lookup.errorCode };
        const activeProducers = lookup.partition.activeProducers();
        return { errorCode: ErrorCode.NONE, activeProducers };
      });
    },
    errorResponse: (request, _context, errorCode) =>
      partitionsAnswer(request, () => ({ errorCode })),
  });
}
