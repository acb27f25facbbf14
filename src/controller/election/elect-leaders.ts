/**
 * ElectLeaders (API 43, v0-2), as Kafka's controller answers it. A PREFERRED election moves
 * leadership to the first replica when it is in the ISR and eligible (ELECTION_NOT_NEEDED when it
 * already leads, PREFERRED_LEADER_NOT_AVAILABLE when nothing would change); an UNCLEAN election
 * gives a leaderless partition a leader, from outside the ISR if it must (ELECTION_NOT_NEEDED
 * when it has one, ELIGIBLE_LEADERS_NOT_AVAILABLE when no replica is eligible). Null topic
 * partitions mean every partition, and then partitions that need no election are left out.
 */
import { ErrorCode, errorCodeInfo } from "../../common/index.js";
import type { MetadataImage, TopicImage } from "../../metadata/index.js";
import { NO_LEADER, sortedEntries } from "../../metadata/index.js";
import type {
  ElectLeadersRequest,
  ElectLeadersResponse,
  ElectLeadersResponsePartitionResult,
  ElectLeadersResponseReplicaElectionResult,
} from "../../protocol/index.js";
import type { PartitionChanges, PartitionControlResult } from "./partition-changes.js";
import { addPartitionChange, changePartition, noPartitionChanges } from "./partition-changes.js";
import { DEFAULT_REPLICATION_DEFAULTS } from "./topic-settings.js";
import type { ReplicationDefaults } from "./topic-settings.js";

/** ElectLeadersRequest.electionType: 0 is PREFERRED (the only type of v0), 1 is UNCLEAN. */
export const ElectionTypeCode = { PREFERRED: 0, UNCLEAN: 1 } as const;

type ElectionTypeName = "preferred" | "unclean";

function result(
  partitionId: number,
  errorCode: number,
  errorMessage?: string,
): ElectLeadersResponsePartitionResult {
  const message =
    errorCode === ErrorCode.NONE
      ? null
      : (errorMessage ?? errorCodeInfo(errorCode)?.description ?? null);
  return { partitionId, errorCode, errorMessage: message };
}

function electOne(options: {
  image: MetadataImage;
  defaults: ReplicationDefaults;
  changes: PartitionChanges;
  topicName: string;
  partitionId: number;
  type: ElectionTypeName;
}): ElectLeadersResponsePartitionResult {
  const { image, defaults, changes, topicName, partitionId, type } = options;
  const topic = image.topics.byName.get(topicName);
  const partition = topic?.partitions.get(partitionId);
  if (topic === undefined || partition === undefined) {
    const message = `there is no partition ${topicName}-${partitionId}`;
    return result(partitionId, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, message);
  }
  const isNotNeeded =
    type === "preferred"
      ? partition.leader === partition.replicas[0]
      : partition.leader !== NO_LEADER;
  if (isNotNeeded) return result(partitionId, ErrorCode.ELECTION_NOT_NEEDED);
  const change = changePartition({
    image,
    defaults,
    topic,
    partitionId,
    request: { trigger: `ElectLeaders ${type}`, mode: type },
  });
  if (change?.record === undefined) {
    const code =
      type === "preferred"
        ? ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE
        : ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE;
    return result(partitionId, code);
  }
  addPartitionChange(image, changes, change);
  return result(partitionId, ErrorCode.NONE);
}

function electAll(
  image: MetadataImage,
  defaults: ReplicationDefaults,
  changes: PartitionChanges,
  type: ElectionTypeName,
): ElectLeadersResponseReplicaElectionResult[] {
  const topics: TopicImage[] = sortedEntries(image.topics.byName).map(([, topic]) => topic);
  return topics.map((topic) => {
    const partitionResult = sortedEntries(topic.partitions)
      .map(([partitionId]) => {
        const topicName = topic.name;
        return electOne({ image, defaults, changes, topicName, partitionId, type });
      })
      .filter((outcome) => outcome.errorCode !== ErrorCode.ELECTION_NOT_NEEDED);
    return { topic: topic.name, partitionResult };
  });
}

function invalidElectionType(request: ElectLeadersRequest): ElectLeadersResponse {
  const message = `election type ${request.electionType} is not defined`;
  const replicaElectionResults = (request.topicPartitions ?? []).map((topic) => ({
    topic: topic.topic,
    partitionResult: topic.partitions.map((partitionId) =>
      result(partitionId, ErrorCode.INVALID_REQUEST, message),
    ),
  }));
  return { throttleTimeMs: 0, errorCode: ErrorCode.INVALID_REQUEST, replicaElectionResults };
}

export function electLeaders(
  image: MetadataImage,
  request: ElectLeadersRequest,
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionControlResult<ElectLeadersResponse> {
  const type: ElectionTypeName | undefined =
    request.electionType === ElectionTypeCode.PREFERRED
      ? "preferred"
      : request.electionType === ElectionTypeCode.UNCLEAN
        ? "unclean"
        : undefined;
  if (type === undefined)
    return { records: [], response: invalidElectionType(request), elections: [] };
  const changes = noPartitionChanges();
  const replicaElectionResults =
    request.topicPartitions === null
      ? electAll(image, defaults, changes, type)
      : request.topicPartitions.map((topic) => ({
          topic: topic.topic,
          partitionResult: topic.partitions.map((partitionId) =>
            electOne({ image, defaults, changes, topicName: topic.topic, partitionId, type }),
          ),
        }));
  const response = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, replicaElectionResults };
  return { records: changes.records, response, elections: changes.elections };
}
