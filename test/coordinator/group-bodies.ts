/**
 * Request bodies of the group APIs at any version: fields a version lacks are left out (the
 * codec refuses a non-default value it cannot send), the others hold what a client would send.
 */
export const API = {
  offsetCommit: 8,
  offsetFetch: 9,
  findCoordinator: 10,
  joinGroup: 11,
  heartbeat: 12,
  leaveGroup: 13,
  syncGroup: 14,
  describeGroups: 15,
  listGroups: 16,
  deleteGroups: 42,
  offsetDelete: 47,
} as const;

/** The assignment the leader hands itself, and the metadata of its one protocol. */
/** A ConsumerGroupHeartbeat (KIP-848) that joins group "cg" subscribed to "orders". */
export const CONSUMER_GROUP_JOIN = {
  groupId: "cg",
  memberId: "",
  memberEpoch: 0,
  instanceId: null,
  rackId: null,
  rebalanceTimeoutMs: 30_000,
  subscribedTopicNames: ["orders"],
  serverAssignor: null,
  topicPartitions: [],
};

export const ASSIGNMENT = new Uint8Array([0, 1, 2, 3]);
export const PROTOCOL_METADATA = new Uint8Array([9, 8, 7]);

/** FindCoordinator of a group: one key before v4, a list of keys from v4 on. */
export function findCoordinatorBody(version: number, groupId: string) {
  if (version >= 4) return { keyType: 0, coordinatorKeys: [groupId] };
  return version === 0 ? { key: groupId } : { key: groupId, keyType: 0 };
}

/** JoinGroup of a consumer offering the "range" protocol; v0 has no rebalance timeout. */
export function joinGroupBody(version: number, groupId: string, memberId: string) {
  const body = {
    groupId,
    sessionTimeoutMs: 10_000,
    memberId,
    protocolType: "consumer",
    protocols: [{ name: "range", metadata: PROTOCOL_METADATA }],
  };
  return version === 0 ? body : { ...body, rebalanceTimeoutMs: 20_000 };
}

/** SyncGroup of the leader with its own assignment; v5 names the protocol. */
export function syncGroupBody(version: number, groupId: string, memberId: string) {
  const body = {
    groupId,
    generationId: 1,
    memberId,
    assignments: [{ memberId, assignment: ASSIGNMENT }],
  };
  return version >= 5 ? { ...body, protocolType: "consumer", protocolName: "range" } : body;
}

/** Heartbeat of a member in generation 1. */
export function heartbeatBody(groupId: string, memberId: string) {
  return { groupId, generationId: 1, memberId };
}

/** LeaveGroup of members: one before v3, a batch from v3 on. */
export function leaveGroupBody(version: number, groupId: string, memberIds: readonly string[]) {
  if (version >= 3) return { groupId, members: memberIds.map((memberId) => ({ memberId })) };
  return { groupId, memberId: memberIds[0] ?? "" };
}

/** OffsetCommit of partition 0 of "orders"; v0 carries no member or generation. */
export function offsetCommitBody(
  version: number,
  groupId: string,
  commit: { readonly memberId: string; readonly generationId: number; readonly offset: number },
) {
  const partition = { partitionIndex: 0, committedOffset: commit.offset, committedMetadata: "m" };
  const topics = [
    {
      name: "orders",
      partitions: [version >= 6 ? { ...partition, committedLeaderEpoch: 2 } : partition],
    },
  ];
  if (version === 0) return { groupId, topics };
  return {
    groupId,
    generationIdOrMemberEpoch: commit.generationId,
    memberId: commit.memberId,
    topics,
  };
}

/** OffsetFetch of partition 0 of "orders". */
export function offsetFetchBody(groupId: string) {
  return { groupId, topics: [{ name: "orders", partitionIndexes: [0] }] };
}

/** A version of an API for round `round` of a sweep: the round, held within the API's range. */
export function versionFor(round: number, range: { minVersion: number; maxVersion: number }) {
  return Math.min(Math.max(round, range.minVersion), range.maxVersion);
}
