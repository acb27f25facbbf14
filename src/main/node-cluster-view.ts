/**
 * The cluster view the node's HTTP endpoint serves (`GET /v1/cluster` and the dashboard's
 * stream), read from its live state at the moment of asking: the metadata image's brokers and
 * topics, this broker's replicas and their offsets, the quorum as the Raft node describes it,
 * this node's log dirs, and the groups its coordinator owns.
 */
import {
  brokerId,
  ErrorCode,
  leaderEpoch,
  offset,
  partitionIndex,
  type BrokerId,
} from "../common/index.js";
import type {
  BrokerView,
  ClusterView,
  ControllerView,
  GroupView,
  QuorumReplicaView,
  ReplicaManagerView,
  TopicView,
} from "../http/index.js";
import { EMPTY_IMAGE, sortedEntries, type TopicImage } from "../metadata/index.js";
import { partitionConfigOf, type ReplicationSummary } from "../replication/index.js";
import { partitionFolderName } from "../storage/index.js";
import type { NodeHttpState } from "./node-http.js";
import { defaultPartitionConfigOf } from "./node-settings.js";

export function clusterViewOf(state: NodeHttpState): ClusterView {
  const image = state.image() ?? EMPTY_IMAGE;
  const brokers: BrokerView[] = sortedEntries(image.cluster.brokers).map(([, broker]) => ({
    id: broker.id,
    epoch: broker.epoch,
    isFenced: broker.isFenced,
    inControlledShutdown: broker.isInControlledShutdown,
    rack: broker.rack ?? undefined,
    endpoints: broker.listeners.map((endpoint) => ({
      name: endpoint.name,
      host: endpoint.host,
      port: endpoint.port,
      securityProtocol: endpoint.securityProtocol === 0 ? "PLAINTEXT" : "OTHER",
    })),
    directories: broker.directories,
  }));
  // Topic configs resolve as this node's replica manager resolves them.
  const configs = {
    defaults: defaultPartitionConfigOf(state.config),
    brokerId: state.identity.nodeId,
  };
  const summary = state.replication?.replicaManager.replicationSummary();
  const lags = new Map<string, number>();
  for (const { topicPartition, lag } of summary?.followerLags ?? []) {
    lags.set(partitionFolderName(topicPartition), lag);
  }
  const topics = sortedEntries(image.topics.byName).map(([, topic]) => {
    const { minInsyncReplicas } = partitionConfigOf(image, topic.name, configs);
    return topicView(state, topic, { minInsyncReplicas, lags });
  });
  return {
    clusterId: state.identity.clusterId,
    nodeId: state.identity.nodeId,
    roles: state.config.processRoles,
    controller: controllerView(state),
    replicaManager: replicaManagerView(summary),
    brokers,
    topics,
    logDirs: state.config.log.logDirs.map((path) => ({
      path,
      isOnline: state.logManager === undefined || state.logManager.isLogDirOnline(path),
    })),
    groups: groupViews(state),
  };
}

function controllerView(state: NodeHttpState): ControllerView {
  const quorum = state.quorum();
  const [partition] = state.describeQuorum().topics[0]?.partitions ?? [];
  const isDescribed = partition !== undefined && partition.errorCode === ErrorCode.NONE;
  // Kafka's kafka-metadata-quorum lag: the leader's log end offset minus the replica's.
  const leaderEnd = partition?.currentVoters.find(
    (voter) => voter.replicaId === partition.leaderId,
  )?.logEndOffset;
  const replicaOf = (replica: { replicaId: number; logEndOffset: number }): QuorumReplicaView => ({
    id: brokerId(replica.replicaId),
    logEndOffset: replica.logEndOffset,
    lag:
      leaderEnd === undefined || replica.logEndOffset < 0 ? -1 : leaderEnd - replica.logEndOffset,
  });
  return {
    leaderId: quorum.leaderId === null ? undefined : brokerId(quorum.leaderId),
    leaderEpoch: leaderEpoch(quorum.epoch),
    voters: state.config.quorum.voters.map((voter): BrokerId => brokerId(voter.nodeId)),
    highWatermark: quorum.highWatermark ?? undefined,
    logEndOffset: quorum.logEndOffset,
    replicas: isDescribed
      ? {
          voters: partition.currentVoters.map(replicaOf),
          observers: partition.observers.map(replicaOf),
        }
      : undefined,
  };
}

/** The groups this node's coordinator owns, with the high watermarks of replicas it hosts. */
function groupViews(state: NodeHttpState): GroupView[] | undefined {
  const groups = state.groups();
  if (groups === undefined) return undefined;
  return groups.list().map((listed) => ({
    groupId: listed.groupId,
    groupType: listed.groupType,
    state: listed.state,
    offsets: groups.offsets.offsetsOf(listed.groupId).map(({ topic, partition, committed }) => ({
      topic,
      partition,
      committedOffset: committed.offset,
      highWatermark: state.logManager?.highWatermarkOf({ topic, partition }),
    })),
  }));
}

/** The summary's numbers but the lag of each partition, which the page does not show. */
function replicaManagerView(
  summary: ReplicationSummary | undefined,
): ReplicaManagerView | undefined {
  if (summary === undefined) return undefined;
  const { followerLags: _perPartition, ...counts } = summary;
  return counts;
}

function topicView(
  state: NodeHttpState,
  topic: TopicImage,
  local: { readonly minInsyncReplicas: number; readonly lags: ReadonlyMap<string, number> },
): TopicView {
  const partitions = sortedEntries(topic.partitions).map(([index, registration]) => {
    const topicPartition = { topic: topic.name, partition: index };
    const lookup = state.logManager?.getLog(topicPartition);
    const highWatermark = state.logManager?.highWatermarkOf(topicPartition);
    const hosted = lookup?.kind === "online";
    return {
      partition: partitionIndex(index),
      leader: registration.leader < 0 ? undefined : registration.leader,
      leaderEpoch: registration.leaderEpoch,
      replicas: registration.replicas,
      isr: registration.isr,
      elr: registration.eligibleLeaderReplicas,
      lastKnownElr: registration.lastKnownElr,
      highWatermark: hosted && highWatermark !== undefined ? offset(highWatermark) : undefined,
      logEndOffset: hosted ? offset(lookup.log.logEndOffset) : undefined,
      followerLag: local.lags.get(partitionFolderName(topicPartition)),
    };
  });
  return {
    name: topic.name,
    topicId: topic.id,
    minInsyncReplicas: local.minInsyncReplicas,
    partitions,
  };
}
