/**
 * `sluice consume --group`: the group's committed offsets say where each partition starts, and
 * the positions after the records printed are committed at the end. The command reads the
 * partitions it was given (or all of the topic's) without joining the group as a member, as a
 * Java consumer with assign() and a group.id does: its commits carry no generation, which the
 * coordinator refuses while the group has active members.
 */
import { brokerId, ErrorCode, type BrokerId } from "../common/index.js";
import { findCoordinator, offsetCommit, offsetFetch } from "../protocol/index.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";

/** Partition to committed offset, for the partitions that have one. */
export type GroupOffsets = ReadonlyMap<number, number>;

/** FindCoordinator's key type of a consumer group. */
const GROUP_KEY_TYPE = 0;

/** The broker that coordinates `group`, found with FindCoordinator. */
export async function coordinatorOf(session: ClusterSession, group: string): Promise<BrokerId> {
  // The coordinator is one of the brokers Metadata named, so the session knows its address.
  await session.metadata([]);
  const response = await session.send(
    findCoordinator,
    { key: group, keyType: GROUP_KEY_TYPE },
    // v4 moved the key into a batch; one group needs no batch.
    { maxVersion: 3 },
  );
  const entry = response;
  if (entry.errorCode !== ErrorCode.NONE) throw kafkaFailure(entry.errorCode, entry.errorMessage);
  return brokerId(entry.nodeId);
}

/** The offsets `group` committed for `partitions` of `topic`. */
export async function committedOffsets(
  session: ClusterSession,
  group: string,
  topic: string,
  partitions: readonly number[],
): Promise<GroupOffsets> {
  const coordinator = await coordinatorOf(session, group);
  const body = {
    groupId: group,
    topics: [{ name: topic, partitionIndexes: [...partitions] }],
    requireStable: false,
  };
  const response = await session.send(offsetFetch, body, { maxVersion: 7, target: coordinator });
  if (response.errorCode !== ErrorCode.NONE) throw kafkaFailure(response.errorCode);
  const offsets = new Map<number, number>();
  for (const entry of response.topics[0]?.partitions ?? []) {
    if (entry.errorCode !== ErrorCode.NONE) throw kafkaFailure(entry.errorCode);
    // -1: the group has no offset for the partition.
    if (entry.committedOffset >= 0) offsets.set(entry.partitionIndex, entry.committedOffset);
  }
  return offsets;
}

/** Commits `positions` (partition to next offset to read) for `group`. */
export async function commitOffsets(
  session: ClusterSession,
  group: string,
  topic: string,
  positions: ReadonlyMap<number, number>,
): Promise<void> {
  const coordinator = await coordinatorOf(session, group);
  const partitions = [...positions].map(([partitionIndex, committedOffset]) => ({
    partitionIndex,
    committedOffset,
    committedLeaderEpoch: -1,
    committedMetadata: "",
  }));
  const body = {
    groupId: group,
    generationIdOrMemberEpoch: -1,
    memberId: "",
    groupInstanceId: null,
    retentionTimeMs: -1,
    topics: [{ name: topic, partitions }],
  };
  const response = await session.send(offsetCommit, body, { maxVersion: 8, target: coordinator });
  for (const entry of response.topics[0]?.partitions ?? []) {
    if (entry.errorCode !== ErrorCode.NONE) throw kafkaFailure(entry.errorCode);
  }
  if (response.topics.length === 0) throw new CommandFailure(`no commit result for ${group}`);
}
