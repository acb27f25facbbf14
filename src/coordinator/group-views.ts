/**
 * ListGroups' view of every group, DescribeGroups' view of a classic group, and whether a
 * group may be deleted or its offsets removed. Kafka's coordinator looks up only classic groups
 * for DescribeGroups, so a consumer group id is described as a missing one (Dead, no error);
 * ConsumerGroupDescribe describes those.
 */
import { ErrorCode } from "../common/index.js";
import type { ClassicGroup, GroupState } from "./classic-group.js";
import type { ConsumerGroup } from "./consumer-group.js";
import { usesConsumerProtocol } from "./group-member.js";

/** A group as DescribeGroups shows it. */
export interface GroupDescription {
  readonly errorCode: number;
  readonly groupId: string;
  readonly state: GroupState;
  readonly protocolType: string;
  readonly protocolName: string;
  readonly members: readonly {
    readonly memberId: string;
    readonly groupInstanceId: string | null;
    readonly clientId: string;
    readonly clientHost: string;
    readonly metadata: Uint8Array;
    readonly assignment: Uint8Array;
  }[];
}

/** DescribeGroups of one classic group; a missing group is described as Dead with no error. */
export function describeClassicGroup(
  groupId: string,
  group: ClassicGroup | undefined,
): GroupDescription {
  if (group === undefined) {
    const base = { groupId, protocolType: "", protocolName: "", members: [] };
    return { ...base, errorCode: ErrorCode.NONE, state: "Dead" };
  }
  const isStable = group.state === "Stable";
  const members = [...group.members.values()].map((member) => ({
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    clientId: member.clientId,
    clientHost: member.clientHost,
    // Kafka shows member metadata only once a protocol is chosen, and assignments when Stable.
    metadata:
      member.protocols.find((protocol) => protocol.name === group.protocolName)?.metadata ??
      new Uint8Array(0),
    assignment: isStable ? member.assignment : new Uint8Array(0),
  }));
  return {
    errorCode: ErrorCode.NONE,
    groupId,
    state: group.state,
    protocolType: group.protocolType ?? "",
    protocolName: isStable ? (group.protocolName ?? "") : "",
    members,
  };
}

/** A group as ListGroups shows it. */
export interface GroupListing {
  readonly groupId: string;
  readonly protocolType: string;
  readonly state: string;
  readonly groupType: "classic" | "consumer";
}

/** ListGroups: the classic groups, then the consumer groups (protocol type `consumer`). */
export function listGroups(
  classicGroups: Iterable<ClassicGroup>,
  consumerGroups: Iterable<ConsumerGroup>,
): GroupListing[] {
  const classic = [...classicGroups].map((group) => ({
    groupId: group.groupId,
    protocolType: group.protocolType ?? "",
    state: group.state,
    groupType: "classic" as const,
  }));
  const consumer = [...consumerGroups].map((group) => ({
    groupId: group.groupId,
    protocolType: "consumer",
    state: group.state,
    groupType: "consumer" as const,
  }));
  return [...classic, ...consumer];
}

/** Whether a group may be deleted: it must exist and be Empty (NON_EMPTY_GROUP otherwise). */
export function deletableError(
  group: ClassicGroup | undefined,
  consumerGroup: ConsumerGroup | undefined,
): number {
  if (consumerGroup !== undefined) {
    return consumerGroup.state === "Empty" ? ErrorCode.NONE : ErrorCode.NON_EMPTY_GROUP;
  }
  if (group === undefined || group.state === "Dead") return ErrorCode.GROUP_ID_NOT_FOUND;
  if (group.state !== "Empty") return ErrorCode.NON_EMPTY_GROUP;
  return ErrorCode.NONE;
}

/**
 * Whether OffsetDelete may remove offsets of a group (Kafka's validateOffsetDelete): a classic
 * group must exist (GROUP_ID_NOT_FOUND) and be Empty or use the consumer protocol.
 */
export function offsetsDeletableError(
  group: ClassicGroup | undefined,
  consumerGroup: ConsumerGroup | undefined,
): number {
  // A consumer group (KIP-848) may always delete offsets of topics it does not consume.
  if (consumerGroup !== undefined) return ErrorCode.NONE;
  if (group === undefined || group.state === "Dead") return ErrorCode.GROUP_ID_NOT_FOUND;
  const isEmpty = group.state === "Empty";
  if (!isEmpty && !usesConsumerProtocol(group.protocolType)) return ErrorCode.NON_EMPTY_GROUP;
  return ErrorCode.NONE;
}

/** Whether the members of a group of either kind consume `topicName`. */
export function consumesTopic(
  group: ClassicGroup | undefined,
  consumerGroup: ConsumerGroup | undefined,
  topicName: string,
): boolean {
  if (consumerGroup !== undefined) return consumerGroup.subscribedTopicNames().has(topicName);
  return group?.isSubscribedTo(topicName) ?? false;
}
