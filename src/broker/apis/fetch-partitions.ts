/**
 * The partitions a Fetch names: those it asks for and those it forgets (by name, or by topic id
 * from v13), and the ones to read with their names, as the image knows them, refused when the
 * principal may not read them.
 */
import { ZERO_UUID, ErrorCode } from "../../common/index.js";
import { AclOperation, AclResourceType, type MetadataImage } from "../../metadata/index.js";
import type { FetchRequest } from "../../protocol/index.js";
import type { FetchPartitionRequest } from "../fetch-session/index.js";
import type { RequestAuthorization } from "../security/index.js";
import type { PartitionToRead } from "./fetch-read.driver.js";

/**
 * The partitions to read, by name. Kafka's KafkaApis: a follower needs CLUSTER_ACTION on the
 * cluster, a consumer READ on each topic; a refused partition is answered
 * TOPIC_AUTHORIZATION_FAILED and is not read.
 */
export function partitionsToRead(
  image: MetadataImage,
  partitions: readonly FetchPartitionRequest[],
  options: {
    readonly usesTopicIds: boolean;
    readonly replicaId: number;
    readonly authorization: RequestAuthorization;
  },
): PartitionToRead[] {
  const { usesTopicIds, replicaId, authorization } = options;
  const isFollowerAllowed =
    replicaId < 0 || authorization.authorizeCluster(AclOperation.CLUSTER_ACTION);
  const isReadable = (topic: string) =>
    replicaId >= 0
      ? isFollowerAllowed
      : authorization.authorize(AclOperation.READ, AclResourceType.TOPIC, topic);
  return partitions.map((partition) => {
    const name = usesTopicIds
      ? image.topics.byId.get(partition.topicId as Parameters<typeof image.topics.byId.get>[0])
          ?.name
      : partition.topicName;
    if (!isFollowerAllowed || (name !== undefined && !isReadable(name))) {
      const refusal = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
      return { request: partition, topicPartition: undefined, refusal };
    }
    const topicPartition =
      name === undefined ? undefined : { topic: name, partition: partition.partition };
    return { request: partition, topicPartition };
  });
}

export function requestedPartitions(
  request: FetchRequest,
  usesTopicIds: boolean,
): FetchPartitionRequest[] {
  return request.topics.flatMap((topic) =>
    topic.partitions.map((partition) => ({
      topicId: usesTopicIds ? topic.topicId : ZERO_UUID,
      topicName: usesTopicIds ? "" : topic.topic,
      partition: partition.partition,
      fetchOffset: partition.fetchOffset,
      partitionMaxBytes: partition.partitionMaxBytes,
      currentLeaderEpoch: partition.currentLeaderEpoch,
      lastFetchedEpoch: partition.lastFetchedEpoch,
      logStartOffset: partition.logStartOffset,
    })),
  );
}

export function forgottenPartitions(request: FetchRequest, usesTopicIds: boolean) {
  return request.forgottenTopicsData.flatMap((topic) =>
    topic.partitions.map((partition) => ({
      topicId: usesTopicIds ? topic.topicId : ZERO_UUID,
      topicName: usesTopicIds ? "" : topic.topic,
      partition,
    })),
  );
}
