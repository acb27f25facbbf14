/**
 * ListPartitionReassignments (API 46, v0): the partitions with a reassignment in progress, with
 * their replicas, adding and removing replicas. Null topics list every such partition; named
 * topics that do not exist and partitions without a reassignment are left out, as in Kafka.
 */
import { ErrorCode } from "../../common/index.js";
import type { MetadataImage, TopicImage } from "../../metadata/index.js";
import { sortedEntries } from "../../metadata/index.js";
import type {
  ListPartitionReassignmentsRequest,
  ListPartitionReassignmentsResponse,
  ListPartitionReassignmentsResponseOngoingPartitionReassignment,
  ListPartitionReassignmentsResponseOngoingTopicReassignment,
} from "../../protocol/index.js";
import type { ControllerResult } from "../cluster/controller-result.js";
import { isReassignmentInProgress } from "../election/index.js";

function ongoing(
  topic: TopicImage,
  partitionIds: readonly number[],
): ListPartitionReassignmentsResponseOngoingTopicReassignment | undefined {
  const partitions: ListPartitionReassignmentsResponseOngoingPartitionReassignment[] = [];
  for (const partitionIndex of partitionIds) {
    const partition = topic.partitions.get(partitionIndex);
    if (partition === undefined || !isReassignmentInProgress(partition)) continue;
    partitions.push({
      partitionIndex,
      replicas: partition.replicas.slice(),
      addingReplicas: partition.addingReplicas.slice(),
      removingReplicas: partition.removingReplicas.slice(),
    });
  }
  return partitions.length === 0 ? undefined : { name: topic.name, partitions };
}

/** Answers a ListPartitionReassignments request from `image`; it writes no records. */
export function listPartitionReassignments(
  image: MetadataImage,
  request: ListPartitionReassignmentsRequest,
): ControllerResult<ListPartitionReassignmentsResponse> {
  const wanted: [TopicImage, number[]][] =
    request.topics === null
      ? sortedEntries(image.topics.byName).map(([, topic]) => [
          topic,
          sortedEntries(topic.partitions).map(([partitionId]) => partitionId),
        ])
      : request.topics.flatMap((named) => {
          const topic = image.topics.byName.get(named.name);
          return topic === undefined
            ? []
            : [[topic, named.partitionIndexes] as [TopicImage, number[]]];
        });
  const topics = wanted
    .map(([topic, partitionIds]) => ongoing(topic, partitionIds))
    .filter((topic) => topic !== undefined);
  const response = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, topics };
  return { records: [], response };
}
