/**
 * What `sluice groups describe` and `reset-offsets` read about one group: its state and members
 * (DescribeGroups for a classic group, ConsumerGroupDescribe for a KIP-848 consumer group, which
 * DescribeGroups describes as Dead), every offset it committed (OffsetFetch), and the earliest,
 * latest or by-timestamp offsets of partitions (ListOffsets at each leader).
 */
import { brokerId, ErrorCode, type BrokerId } from "../common/index.js";
import {
  consumerGroupDescribe,
  decodeVersionPrefixed,
  describeGroups,
  isDecodeError,
  listGroups,
  listOffsets,
  offsetFetch,
} from "../protocol/index.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { coordinatorOf } from "./consume-group.js";
import type { AdminOptions } from "./admin-command.js";

/** A topic partition as `topic:partition`, the key of the maps below. */
export type PartitionKey = string;

export function partitionKey(topic: string, partition: number): PartitionKey {
  return `${topic}:${partition}`;
}

/** One member and the partitions assigned to it. */
export interface GroupMember {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly assignment: readonly { readonly topic: string; readonly partition: number }[];
}

/** A group as the commands show it. */
export interface GroupDescription {
  readonly groupId: string;
  readonly coordinator: BrokerId;
  /** Kafka's state names: Empty, Stable, PreparingRebalance, ..., Dead for no such group. */
  readonly state: string;
  readonly protocolType: string;
  /** The classic group's assignor, or "" (a consumer group's assignor is not described). */
  readonly protocol: string;
  readonly members: readonly GroupMember[];
}

/** Finds `groupId`'s coordinator and describes the group there. */
export async function describeGroup(
  session: ClusterSession,
  groupId: string,
): Promise<GroupDescription> {
  const coordinator = await coordinatorOf(session, groupId);
  const body = { groups: [groupId], includeAuthorizedOperations: false };
  const response = await session.send(describeGroups, body, { maxVersion: 5, target: coordinator });
  const group = response.groups[0];
  if (group === undefined) throw new CommandFailure(`no description of group ${groupId}`);
  if (group.errorCode !== ErrorCode.NONE) throw kafkaFailure(group.errorCode);
  if (group.groupState === "Dead") {
    const consumerGroup = await describeConsumerGroup(session, coordinator, groupId);
    if (consumerGroup !== undefined) return consumerGroup;
  }
  const isConsumer = group.protocolType === "consumer";
  const members = group.members.map((member) => ({
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    clientId: member.clientId,
    clientHost: member.clientHost,
    assignment: isConsumer ? assignedPartitions(member.memberAssignment) : [],
  }));
  return {
    groupId,
    coordinator,
    state: group.groupState,
    protocolType: group.protocolType,
    protocol: group.protocolData,
    members,
  };
}

/** A KIP-848 consumer group, or undefined when there is none of that id. */
async function describeConsumerGroup(
  session: ClusterSession,
  coordinator: BrokerId,
  groupId: string,
): Promise<GroupDescription | undefined> {
  const body = { groupIds: [groupId], includeAuthorizedOperations: false };
  const response = await session.send(consumerGroupDescribe, body, {
    maxVersion: 0,
    target: coordinator,
  });
  const group = response.groups[0];
  if (group === undefined || group.errorCode === ErrorCode.GROUP_ID_NOT_FOUND) return undefined;
  if (group.errorCode !== ErrorCode.NONE) throw kafkaFailure(group.errorCode, group.errorMessage);
  const members = group.members.map((member) => ({
    memberId: member.memberId,
    groupInstanceId: member.instanceId,
    clientId: member.clientId,
    clientHost: member.clientHost,
    assignment: member.assignment.topicPartitions.flatMap((entry) =>
      entry.partitions.map((partition) => ({ topic: entry.topicName, partition })),
    ),
  }));
  return {
    groupId,
    coordinator,
    state: consumerGroupState(group.groupState),
    protocolType: "consumer",
    protocol: group.assignorName,
    members,
  };
}

/** ConsumerGroupDescribe names states in lower case ("stable"); the tools print Kafka's enum. */
function consumerGroupState(state: string): string {
  const names: Record<string, string> = {
    empty: "Empty",
    assigning: "Assigning",
    reconciling: "Reconciling",
    stable: "Stable",
    dead: "Dead",
  };
  return names[state] ?? state;
}

/** The partitions of a ConsumerProtocolAssignment; none when the bytes do not read as one. */
function assignedPartitions(bytes: Uint8Array): { topic: string; partition: number }[] {
  if (bytes.length === 0) return [];
  try {
    const { data } = decodeVersionPrefixed("ConsumerProtocolAssignment", bytes);
    const topics = data["assignedPartitions"] as { topic: string; partitions: number[] }[];
    return topics.flatMap((entry) =>
      entry.partitions.map((partition) => ({ topic: entry.topic, partition })),
    );
  } catch (error) {
    if (isDecodeError(error)) return [];
    throw error;
  }
}

/** Every offset `groupId` committed, by partition. */
export async function allCommittedOffsets(
  session: ClusterSession,
  group: GroupDescription,
): Promise<Map<PartitionKey, { topic: string; partition: number; offset: number }>> {
  const body = { groupId: group.groupId, topics: null, requireStable: false };
  const response = await session.send(offsetFetch, body, {
    maxVersion: 7,
    target: group.coordinator,
  });
  if (response.errorCode !== ErrorCode.NONE) throw kafkaFailure(response.errorCode);
  const offsets = new Map<PartitionKey, { topic: string; partition: number; offset: number }>();
  for (const topic of response.topics) {
    for (const entry of topic.partitions) {
      if (entry.errorCode !== ErrorCode.NONE) throw kafkaFailure(entry.errorCode);
      if (entry.committedOffset < 0) continue;
      const partition = entry.partitionIndex;
      const value = { topic: topic.name, partition, offset: entry.committedOffset };
      offsets.set(partitionKey(topic.name, partition), value);
    }
  }
  return offsets;
}

/** ListOffsets' timestamps of the log start and the log end. */
export const EARLIEST_TIMESTAMP = -2;
export const LATEST_TIMESTAMP = -1;

/**
 * The offset at `timestamp` (EARLIEST_TIMESTAMP, LATEST_TIMESTAMP or a time in ms) of each
 * partition, asked of its leader; -1 where no record is that late. A partition without a leader
 * (or of a topic that no longer exists) is left out.
 */
export async function offsetsAt(
  session: ClusterSession,
  partitions: readonly { readonly topic: string; readonly partition: number }[],
  timestamp: number,
): Promise<Map<PartitionKey, number>> {
  const offsets = new Map<PartitionKey, number>();
  const topics = [...new Set(partitions.map((entry) => entry.topic))];
  if (topics.length === 0) return offsets;
  const metadata = await session.metadata(topics);
  const byLeader = new Map<number, Map<string, number[]>>();
  for (const { topic, partition } of partitions) {
    const leader = metadata.topics
      .find((entry) => entry.name === topic && entry.errorCode === ErrorCode.NONE)
      ?.partitions.find((entry) => entry.partitionIndex === partition)?.leaderId;
    if (leader === undefined || leader < 0) continue;
    const ofLeader = byLeader.get(leader) ?? new Map<string, number[]>();
    ofLeader.set(topic, [...(ofLeader.get(topic) ?? []), partition]);
    byLeader.set(leader, ofLeader);
  }
  for (const [leader, ofLeader] of byLeader) {
    const body = {
      replicaId: -1,
      isolationLevel: 0,
      topics: [...ofLeader].map(([name, indexes]) => ({
        name,
        partitions: indexes.map((partitionIndex) => ({
          partitionIndex,
          currentLeaderEpoch: -1,
          timestamp,
        })),
      })),
    };
    const target = brokerId(leader);
    const response = await session.send(listOffsets, body, { maxVersion: 7, target });
    for (const topic of response.topics) {
      for (const entry of topic.partitions) {
        if (entry.errorCode !== ErrorCode.NONE) throw kafkaFailure(entry.errorCode);
        offsets.set(partitionKey(topic.name, entry.partitionIndex), entry.offset);
      }
    }
  }
  return offsets;
}

/** A group as ListGroups lists it. */
export interface ListedGroup {
  readonly groupId: string;
  readonly groupType: string;
  readonly groupState: string;
}

/** Every group of the cluster, from each broker's ListGroups. */
export async function listedGroups(session: ClusterSession): Promise<ListedGroup[]> {
  const metadata = await session.metadata([]);
  const groups: ListedGroup[] = [];
  for (const broker of metadata.brokers) {
    const target = brokerId(broker.nodeId);
    const body = { statesFilter: [], typesFilter: [] };
    const response = await session.send(listGroups, body, { maxVersion: 5, target });
    if (response.errorCode !== ErrorCode.NONE) throw kafkaFailure(response.errorCode);
    for (const group of response.groups) {
      const groupType = group.groupType !== "" ? group.groupType : "classic";
      groups.push({ groupId: group.groupId, groupType, groupState: group.groupState });
    }
  }
  return groups.sort((a, b) => a.groupId.localeCompare(b.groupId));
}

/** The `--group`s given, at least one. */
export function requiredGroups(options: AdminOptions): readonly string[] {
  const groups = options.repeated.get("--group") ?? [];
  if (groups.length === 0 || groups.some((group) => group === "")) {
    throw new CommandFailure("--group ID is required (sluice groups list shows the groups)");
  }
  return groups;
}
