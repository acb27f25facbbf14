/**
 * AlterPartition (API 56, v0-3): a partition leader asks to change its ISR, or to mark itself
 * recovered after an unclean election. The request is refused as a whole (STALE_BROKER_EPOCH)
 * unless it comes from a registered broker with its current epoch; each partition entry is then
 * checked (see alter-partition-validation.ts) and applied with the PartitionChangeBuilder, which
 * also completes a reassignment once every adding replica is in the ISR. When that completion
 * moves leadership away from the requester, it hears NEW_LEADER_ELECTED (FENCED_LEADER_EPOCH
 * before version 2) although the change is written; otherwise it gets the new partition state.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage, TopicImage } from "../../metadata/index.js";
import { NO_LEADER_CHANGE, leaderRecoveryStateValue } from "../../metadata/index.js";
import type {
  AlterPartitionRequest,
  AlterPartitionRequestPartitionData,
  AlterPartitionRequestTopicData,
  AlterPartitionResponse,
  AlterPartitionResponsePartitionData,
  AlterPartitionResponseTopicData,
} from "../../protocol/index.js";
import type {
  PartitionChanges,
  PartitionControlResult,
  ReplicationDefaults,
} from "../election/index.js";
import {
  DEFAULT_REPLICATION_DEFAULTS,
  addPartitionChange,
  changePartition,
  noPartitionChanges,
} from "../election/index.js";
import { LeaderRecoveryStateCode, validateAlterPartition } from "./alter-partition-validation.js";
import type { IsrMember } from "./alter-partition-validation.js";

/** The first AlterPartition version that names topics by id rather than by name. */
const TOPIC_ID_VERSION = 2;
/** The first AlterPartition version that sends each ISR member's broker epoch (KIP-903). */
const ISR_WITH_EPOCHS_VERSION = 3;

interface AlterContext {
  readonly image: MetadataImage;
  readonly request: AlterPartitionRequest;
  readonly requestVersion: number;
  readonly defaults: ReplicationDefaults;
  readonly changes: PartitionChanges;
}

function failed(partitionIndex: number, errorCode: number): AlterPartitionResponsePartitionData {
  return {
    partitionIndex,
    errorCode,
    leaderId: -1,
    leaderEpoch: -1,
    isr: [],
    leaderRecoveryState: LeaderRecoveryStateCode.RECOVERED,
    partitionEpoch: -1,
  };
}

function newIsrOf(data: AlterPartitionRequestPartitionData, requestVersion: number): IsrMember[] {
  if (requestVersion >= ISR_WITH_EPOCHS_VERSION) {
    return data.newIsrWithEpochs.map((member) => ({
      brokerId: member.brokerId as BrokerId,
      brokerEpoch: member.brokerEpoch,
    }));
  }
  return data.newIsr.map((replica) => ({ brokerId: replica as BrokerId, brokerEpoch: -1 }));
}

function alterOne(
  context: AlterContext,
  topic: TopicImage,
  data: AlterPartitionRequestPartitionData,
): AlterPartitionResponsePartitionData {
  const { image, request, requestVersion, defaults, changes } = context;
  const brokerId = request.brokerId as BrokerId;
  const partitionId = data.partitionIndex;
  const partition = topic.partitions.get(partitionId);
  if (partition === undefined) return failed(partitionId, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  const newIsr = newIsrOf(data, requestVersion);
  const proposed = { ...data, newIsr };
  const error = validateAlterPartition({ image, brokerId, partition, proposed, requestVersion });
  if (error !== ErrorCode.NONE) return failed(partitionId, error);
  const result = changePartition({
    image,
    defaults,
    topic,
    partitionId,
    request: {
      trigger: `AlterPartition from broker ${brokerId}`,
      targetIsr: newIsr.map((member) => member.brokerId),
      targetLeaderRecoveryState: data.leaderRecoveryState === 1 ? "recovering" : "recovered",
    },
  });
  if (result === undefined) return failed(partitionId, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  addPartitionChange(image, changes, result);
  const leader = result.record?.leader ?? NO_LEADER_CHANGE;
  if (leader !== NO_LEADER_CHANGE && leader !== brokerId) {
    const code =
      requestVersion >= TOPIC_ID_VERSION
        ? ErrorCode.NEW_LEADER_ELECTED
        : ErrorCode.FENCED_LEADER_EPOCH;
    return failed(partitionId, code);
  }
  const after = result.partition;
  return {
    partitionIndex: partitionId,
    errorCode: ErrorCode.NONE,
    leaderId: after.leader,
    leaderEpoch: after.leaderEpoch,
    isr: after.isr.slice(),
    leaderRecoveryState: leaderRecoveryStateValue(after.leaderRecoveryState),
    partitionEpoch: after.partitionEpoch,
  };
}

function alterTopic(
  context: AlterContext,
  data: AlterPartitionRequestTopicData,
): AlterPartitionResponseTopicData {
  const { image, requestVersion } = context;
  const isById = requestVersion >= TOPIC_ID_VERSION;
  const topic = isById
    ? image.topics.byId.get(data.topicId as TopicImage["id"])
    : image.topics.byName.get(data.topicName);
  const response = { topicName: data.topicName, topicId: data.topicId };
  if (topic === undefined) {
    const code = isById ? ErrorCode.UNKNOWN_TOPIC_ID : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    return {
      ...response,
      partitions: data.partitions.map((partition) => failed(partition.partitionIndex, code)),
    };
  }
  return {
    ...response,
    partitions: data.partitions.map((partition) => alterOne(context, topic, partition)),
  };
}

/** True when `brokerId` is registered with exactly `brokerEpoch` (Kafka's checkBrokerEpoch). */
function isCurrentBrokerEpoch(
  image: MetadataImage,
  brokerId: number,
  brokerEpoch: number,
): boolean {
  return image.cluster.brokers.get(brokerId as BrokerId)?.epoch === brokerEpoch;
}

export function alterPartition(
  image: MetadataImage,
  request: AlterPartitionRequest,
  requestVersion: number,
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionControlResult<AlterPartitionResponse> {
  if (!isCurrentBrokerEpoch(image, request.brokerId, request.brokerEpoch)) {
    const response = { throttleTimeMs: 0, errorCode: ErrorCode.STALE_BROKER_EPOCH, topics: [] };
    return { records: [], response, elections: [] };
  }
  const changes = noPartitionChanges();
  const context: AlterContext = { image, request, requestVersion, defaults, changes };
  const topics = request.topics.map((topic) => alterTopic(context, topic));
  const response = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, topics };
  return { records: changes.records, response, elections: changes.elections };
}
