/**
 * The JoinGroup and SyncGroup answers of a classic group's current generation, computed from
 * what the group shows. Pure.
 */
import { ErrorCode } from "../common/index.js";
import type { ClassicGroupView } from "./classic-group-records.js";
import type { GroupMember } from "./group-member.js";
import type { JoinedMember, JoinResult, SyncResult } from "./group-messages.js";

/** The JoinGroup answer of `memberId`: only the leader's lists the members. */
export function joinResultOf(group: ClassicGroupView, memberId: string): JoinResult {
  const isLeader = memberId === group.leaderId;
  const members = isLeader
    ? [...group.members.values()].map((member) => joinedMemberOf(group, member))
    : [];
  return {
    errorCode: ErrorCode.NONE,
    generationId: group.generationId,
    protocolType: group.protocolType,
    protocolName: group.protocolName,
    leader: group.leaderId ?? "",
    skipAssignment: false,
    memberId,
    members,
  };
}

/** A member as the leader's JoinGroup answer lists it, with its chosen protocol's metadata. */
function joinedMemberOf(group: ClassicGroupView, member: GroupMember): JoinedMember {
  const protocol = member.protocols.find((candidate) => candidate.name === group.protocolName);
  const metadata = protocol?.metadata ?? new Uint8Array(0);
  return { memberId: member.memberId, groupInstanceId: member.groupInstanceId, metadata };
}

/** The SyncGroup answer of a member: its assignment in the current generation. */
export function assignmentOf(group: ClassicGroupView, member: GroupMember): SyncResult {
  return {
    errorCode: ErrorCode.NONE,
    protocolType: group.protocolType,
    protocolName: group.protocolName,
    assignment: member.assignment,
  };
}
