/**
 * A consumer group (KIP-848) as Kafka's coordinator records write it to `__consumer_offsets`:
 * ConsumerGroupMetadata (the group epoch), ConsumerGroupPartitionMetadata (the subscribed
 * topics), and per member ConsumerGroupMemberMetadata, ConsumerGroupTargetAssignmentMember and
 * ConsumerGroupCurrentMemberAssignment, with ConsumerGroupTargetAssignmentMetadata (the
 * assignment epoch). A group is written as the difference between its records now and the
 * ones last written (changed values, and tombstones for keys it no longer has); loading keeps
 * the latest value of each key and rebuilds the group from them.
 */
import {
  decodeCoordinatorValue,
  encodeCoordinatorKey,
  encodeCoordinatorValue,
  type CoordinatorKey,
  type NewRecord,
} from "../protocol/index.js";
import type { SubscribedTopic } from "./assignors.js";
import type { Assignment, MemberState, Reconciliation } from "./current-assignment.js";

/** One member as its three records hold it. */
export interface PersistedMember {
  readonly memberId: string;
  readonly instanceId: string | null;
  readonly rackId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly subscribedTopicNames: readonly string[];
  readonly subscribedTopicRegex: string | null;
  readonly rebalanceTimeoutMs: number;
  readonly serverAssignor: string | null;
  readonly target: Assignment;
  readonly reconciliation: Reconciliation;
}

/** One group as its records hold it. */
export interface PersistedConsumerGroup {
  readonly groupEpoch: number;
  readonly assignmentEpoch: number;
  readonly subscribedTopics: readonly SubscribedTopic[];
  readonly members: readonly PersistedMember[];
}

/** One record of a group: its key and value bytes, by a key text unique in the group. */
export interface GroupRecordEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** Kafka's MemberState bytes. */
const STATE_BYTES: Readonly<Record<MemberState, number>> = {
  stable: 0,
  unrevokedPartitions: 1,
  unreleasedPartitions: 2,
};

const RECORD_NAMES = new Set([
  "ConsumerGroupMetadata",
  "ConsumerGroupPartitionMetadata",
  "ConsumerGroupMemberMetadata",
  "ConsumerGroupTargetAssignmentMetadata",
  "ConsumerGroupTargetAssignmentMember",
  "ConsumerGroupCurrentMemberAssignment",
]);

/** Whether a decoded key is one of a consumer group's records. */
export function isConsumerGroupKey(key: CoordinatorKey): boolean {
  return RECORD_NAMES.has(key.name);
}

/** Every record of `group` (undefined: a group that no longer exists, with none). */
export function consumerGroupEntries(
  groupId: string,
  group: PersistedConsumerGroup | undefined,
): Map<string, GroupRecordEntry> {
  const entries = new Map<string, GroupRecordEntry>();
  if (group === undefined) return entries;
  const put = (name: string, memberId: string | null, value: object) => {
    const keyData = memberId === null ? { groupId } : { groupId, memberId };
    entries.set(`${name}\u0000${memberId ?? ""}`, {
      key: encodeCoordinatorKey(name, keyData),
      value: encodeCoordinatorValue(name, 0, value),
    });
  };
  for (const member of group.members) {
    put("ConsumerGroupMemberMetadata", member.memberId, {
      instanceId: member.instanceId,
      rackId: member.rackId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      subscribedTopicNames: [...member.subscribedTopicNames],
      subscribedTopicRegex: member.subscribedTopicRegex,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      serverAssignor: member.serverAssignor,
      classicMemberMetadata: null,
    });
    put("ConsumerGroupTargetAssignmentMember", member.memberId, {
      topicPartitions: wirePartitions(member.target),
    });
    const { reconciliation } = member;
    put("ConsumerGroupCurrentMemberAssignment", member.memberId, {
      memberEpoch: reconciliation.memberEpoch,
      previousMemberEpoch: reconciliation.previousMemberEpoch,
      state: STATE_BYTES[reconciliation.state],
      assignedPartitions: wirePartitions(reconciliation.assigned),
      partitionsPendingRevocation: wirePartitions(reconciliation.pendingRevocation),
    });
  }
  put("ConsumerGroupPartitionMetadata", null, {
    topics: group.subscribedTopics.map((topic) => ({
      topicId: topic.topicId,
      topicName: topic.name,
      numPartitions: topic.partitionCount,
      partitionMetadata: [],
    })),
  });
  put("ConsumerGroupTargetAssignmentMetadata", null, { assignmentEpoch: group.assignmentEpoch });
  put("ConsumerGroupMetadata", null, { epoch: group.groupEpoch });
  return entries;
}

/** The records that take the log from `written` to `next`: changed values, then tombstones. */
export function recordsBetween(
  written: ReadonlyMap<string, GroupRecordEntry>,
  next: ReadonlyMap<string, GroupRecordEntry>,
  nowMs: number,
): NewRecord[] {
  const records: NewRecord[] = [];
  for (const [text, entry] of next) {
    const before = written.get(text);
    if (before === undefined || !sameBytes(before.value, entry.value)) {
      records.push({ timestamp: nowMs, key: entry.key, value: entry.value });
    }
  }
  for (const [text, entry] of written) {
    if (!next.has(text)) records.push({ timestamp: nowMs, key: entry.key, value: null });
  }
  return records;
}

/**
 * The latest records of every group seen while loading a partition, by group id; a
 * tombstone removes its key.
 */
export class LoadedConsumerGroups {
  private readonly groups = new Map<string, Map<string, Record<string, unknown>>>();

  replay(key: CoordinatorKey, value: Uint8Array | null): void {
    const groupId = key.data["groupId"] as string;
    const memberId = (key.data["memberId"] as string | undefined) ?? "";
    const records = this.groups.get(groupId) ?? new Map<string, Record<string, unknown>>();
    const text = `${key.name}\u0000${memberId}`;
    if (value === null) records.delete(text);
    else records.set(text, decodeCoordinatorValue(key.name, value).data);
    if (records.size === 0) this.groups.delete(groupId);
    else this.groups.set(groupId, records);
  }

  /** Every group that has a ConsumerGroupMetadata record, rebuilt from its records. */
  *rebuilt(): IterableIterator<[string, PersistedConsumerGroup]> {
    for (const [groupId, records] of this.groups) {
      const metadata = records.get("ConsumerGroupMetadata\u0000");
      if (metadata === undefined) continue;
      yield [groupId, rebuild(records, metadata["epoch"] as number)];
    }
  }
}

function rebuild(
  records: ReadonlyMap<string, Record<string, unknown>>,
  groupEpoch: number,
): PersistedConsumerGroup {
  const target = records.get("ConsumerGroupTargetAssignmentMetadata\u0000");
  const partitionMetadata = records.get("ConsumerGroupPartitionMetadata\u0000");
  const topics = (partitionMetadata?.["topics"] ?? []) as Record<string, unknown>[];
  const members: PersistedMember[] = [];
  for (const [text, metadata] of records) {
    const [name, memberId = ""] = text.split("\u0000");
    if (name !== "ConsumerGroupMemberMetadata") continue;
    const current = records.get(`ConsumerGroupCurrentMemberAssignment\u0000${memberId}`);
    const targetMember = records.get(`ConsumerGroupTargetAssignmentMember\u0000${memberId}`);
    members.push(rebuildMember(memberId, metadata, { current, targetMember }));
  }
  return {
    groupEpoch,
    assignmentEpoch: (target?.["assignmentEpoch"] as number | undefined) ?? 0,
    subscribedTopics: topics.map((topic) => ({
      name: topic["topicName"] as string,
      topicId: topic["topicId"] as string,
      partitionCount: topic["numPartitions"] as number,
    })),
    members,
  };
}

function rebuildMember(
  memberId: string,
  metadata: Record<string, unknown>,
  records: {
    readonly current: Record<string, unknown> | undefined;
    readonly targetMember: Record<string, unknown> | undefined;
  },
): PersistedMember {
  const { current, targetMember } = records;
  const stateByte = (current?.["state"] as number | undefined) ?? 0;
  const state = (Object.keys(STATE_BYTES) as MemberState[]).find(
    (name) => STATE_BYTES[name] === stateByte,
  );
  return {
    memberId,
    instanceId: metadata["instanceId"] as string | null,
    rackId: metadata["rackId"] as string | null,
    clientId: metadata["clientId"] as string,
    clientHost: metadata["clientHost"] as string,
    subscribedTopicNames: metadata["subscribedTopicNames"] as string[],
    subscribedTopicRegex: metadata["subscribedTopicRegex"] as string | null,
    rebalanceTimeoutMs: metadata["rebalanceTimeoutMs"] as number,
    serverAssignor: metadata["serverAssignor"] as string | null,
    target: assignmentOf(targetMember?.["topicPartitions"]),
    reconciliation: {
      state: state ?? "stable",
      memberEpoch: (current?.["memberEpoch"] as number | undefined) ?? 0,
      previousMemberEpoch: (current?.["previousMemberEpoch"] as number | undefined) ?? -1,
      assigned: assignmentOf(current?.["assignedPartitions"]),
      pendingRevocation: assignmentOf(current?.["partitionsPendingRevocation"]),
    },
  };
}

function wirePartitions(assignment: Assignment) {
  return [...assignment.keys()].sort().map((topicId) => ({
    topicId,
    partitions: [...(assignment.get(topicId) ?? [])].sort((a, b) => a - b),
  }));
}

function assignmentOf(wire: unknown): Assignment {
  const assignment = new Map<string, ReadonlySet<number>>();
  for (const topic of (wire ?? []) as { topicId: string; partitions: number[] }[]) {
    assignment.set(topic.topicId, new Set(topic.partitions));
  }
  return assignment;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
