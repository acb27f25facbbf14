/**
 * AssignReplicasToDirs (API 73, v0, KIP-858): a broker with several log dirs tells the controller
 * which dir holds each of its replicas, so that the failure of one dir moves exactly the
 * partitions in it. As Kafka's ReplicationControlManager.handleAssignReplicasToDirs: refused as
 * a whole with UNSUPPORTED_VERSION below metadata.version 3.7-IV2 and STALE_BROKER_EPOCH unless
 * the broker is registered with that epoch; per partition UNKNOWN_TOPIC_ID,
 * UNKNOWN_TOPIC_OR_PARTITION, or NOT_LEADER_OR_FOLLOWER for a partition the broker is no replica
 * of. A replica placed in a dir the broker no longer has online also leaves the ISR and the lead.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId, Uuid } from "../../common/index.js";
import type { BrokerRegistration, MetadataImage, TopicImage } from "../../metadata/index.js";
import type {
  AssignReplicasToDirsRequest,
  AssignReplicasToDirsRequestTopicData,
  AssignReplicasToDirsResponse,
  AssignReplicasToDirsResponseTopicData,
} from "../../protocol/index.js";
import { metadataVersionOf } from "../cluster/index.js";
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
  withoutReplicas,
} from "../election/index.js";
import { hasDirectoryAssignment } from "../features/index.js";

interface AssignContext {
  readonly image: MetadataImage;
  readonly broker: BrokerRegistration;
  readonly defaults: ReplicationDefaults;
  readonly changes: PartitionChanges;
}

function refused(errorCode: number): PartitionControlResult<AssignReplicasToDirsResponse> {
  return {
    records: [],
    response: { throttleTimeMs: 0, errorCode, directories: [] },
    elections: [],
  };
}

function assignPartition(
  context: AssignContext,
  topic: TopicImage,
  target: { readonly partitionIndex: number; readonly directory: Uuid },
): number {
  const { image, broker, defaults, changes } = context;
  const partition = topic.partitions.get(target.partitionIndex);
  if (partition === undefined) return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
  if (!partition.replicas.includes(broker.id)) return ErrorCode.NOT_LEADER_OR_FOLLOWER;
  const isDirectoryOffline = !broker.directories.includes(target.directory);
  const trigger = `AssignReplicasToDirs from broker ${broker.id}`;
  const result = changePartition({
    image,
    defaults,
    topic,
    partitionId: target.partitionIndex,
    request: {
      trigger,
      targetDirectory: { replica: broker.id, directory: target.directory },
      ...(isDirectoryOffline
        ? {
            overrides: { leaving: broker.id },
            targetIsr: withoutReplicas(partition.isr, [broker.id]),
          }
        : {}),
    },
  });
  if (result === undefined) return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
  addPartitionChange(image, changes, result);
  return ErrorCode.NONE;
}

function assignTopic(
  context: AssignContext,
  directory: Uuid,
  data: AssignReplicasToDirsRequestTopicData,
): AssignReplicasToDirsResponseTopicData {
  const topic = context.image.topics.byId.get(data.topicId as Uuid);
  const partitions = data.partitions.map(({ partitionIndex }) => ({
    partitionIndex,
    errorCode:
      topic === undefined
        ? ErrorCode.UNKNOWN_TOPIC_ID
        : assignPartition(context, topic, { partitionIndex, directory }),
  }));
  return { topicId: data.topicId, partitions };
}

export function assignReplicasToDirs(
  image: MetadataImage,
  request: AssignReplicasToDirsRequest,
  defaults: ReplicationDefaults = DEFAULT_REPLICATION_DEFAULTS,
): PartitionControlResult<AssignReplicasToDirsResponse> {
  if (!hasDirectoryAssignment(metadataVersionOf(image))) {
    return refused(ErrorCode.UNSUPPORTED_VERSION);
  }
  const broker = image.cluster.brokers.get(request.brokerId as BrokerId);
  if (broker === undefined || broker.epoch !== request.brokerEpoch) {
    return refused(ErrorCode.STALE_BROKER_EPOCH);
  }
  const changes = noPartitionChanges();
  const context: AssignContext = { image, broker, defaults, changes };
  const directories = request.directories.map((directory) => ({
    id: directory.id,
    topics: directory.topics.map((topic) => assignTopic(context, directory.id as Uuid, topic)),
  }));
  const response = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, directories };
  return { records: changes.records, response, elections: changes.elections };
}
