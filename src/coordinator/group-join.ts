/**
 * JoinGroup on a classic group (Kafka's classicGroupJoin): member ids handed out by the
 * coordinator, with the KIP-394 round trip (MEMBER_ID_REQUIRED) from v4 on, the protocol
 * checks, and when a join starts or just waits for a rebalance.
 */
import { ErrorCode } from "../common/index.js";
import type { ClassicGroup, GroupEffects } from "./classic-group.js";
import {
  joinError,
  type Answer,
  type GroupMember,
  type JoinResult,
  type MemberProtocol,
} from "./group-types.js";

/** A JoinGroup request, version-independent. */
export interface JoinRequest {
  readonly memberId: string;
  readonly clientId: string;
  readonly clientHost: string;
  readonly sessionTimeoutMs: number;
  /** Equal to the session timeout for v0, which has no rebalance timeout. */
  readonly rebalanceTimeoutMs: number;
  readonly protocolType: string;
  readonly protocols: readonly MemberProtocol[];
  /** v4+: a new member first gets MEMBER_ID_REQUIRED with its id (KIP-394). */
  readonly requiresKnownMemberId: boolean;
  /** The id to give a new member (the driver draws it: clientId and a random UUID). */
  readonly newMemberId: string;
}

/** Answers a JoinGroup on `group`, which exists and is not Dead. */
export function joinGroup(
  group: ClassicGroup,
  request: JoinRequest,
  nowMs: number,
  effects: GroupEffects,
): Answer<JoinResult> {
  const now = (result: JoinResult): Answer<JoinResult> => ({ kind: "now", result });
  if (!group.acceptsProtocols(request.protocolType, request.protocols)) {
    return now(joinError(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, request.memberId));
  }
  if (request.memberId === "") return joinNewMember(group, request, nowMs, effects);
  const isPending = group.pendingMembers.delete(request.memberId);
  if (isPending) return addMember(group, request, request.memberId, { nowMs, effects });
  const member = group.members.get(request.memberId);
  if (member === undefined) return now(joinError(ErrorCode.UNKNOWN_MEMBER_ID, request.memberId));
  return rejoin(group, member, request, { nowMs, effects });
}

function joinNewMember(
  group: ClassicGroup,
  request: JoinRequest,
  nowMs: number,
  effects: GroupEffects,
): Answer<JoinResult> {
  const memberId = request.newMemberId;
  if (group.members.size + group.pendingMembers.size >= group.config.maxSize) {
    return { kind: "now", result: joinError(ErrorCode.GROUP_MAX_SIZE_REACHED, "") };
  }
  if (request.requiresKnownMemberId) {
    // KIP-394: the member must come back with this id within its session timeout.
    const deadlineMs = nowMs + request.sessionTimeoutMs;
    group.pendingMembers.set(memberId, deadlineMs);
    effects.scheduleDeadline(deadlineMs);
    return { kind: "now", result: joinError(ErrorCode.MEMBER_ID_REQUIRED, memberId) };
  }
  return addMember(group, request, memberId, { nowMs, effects });
}

function addMember(
  group: ClassicGroup,
  request: JoinRequest,
  memberId: string,
  at: { readonly nowMs: number; readonly effects: GroupEffects },
): Answer<JoinResult> {
  const member: GroupMember = {
    memberId,
    clientId: request.clientId,
    clientHost: request.clientHost,
    sessionTimeoutMs: request.sessionTimeoutMs,
    rebalanceTimeoutMs: request.rebalanceTimeoutMs,
    protocols: request.protocols,
    assignment: new Uint8Array(0),
    isAwaitingJoin: true,
    isAwaitingSync: false,
    isNew: true,
    sessionDeadlineMs: at.nowMs + request.sessionTimeoutMs,
  };
  if (group.members.size === 0) group.protocolType = request.protocolType;
  group.members.set(memberId, member);
  if (group.leaderId === null) group.leaderId = memberId;
  group.noteNewMember();
  startOrJoinRebalance(group, at.nowMs, at.effects);
  return { kind: "later", memberId };
}

function rejoin(
  group: ClassicGroup,
  member: GroupMember,
  request: JoinRequest,
  at: { readonly nowMs: number; readonly effects: GroupEffects },
): Answer<JoinResult> {
  const isSameMetadata = sameProtocols(member.protocols, request.protocols);
  const isSettled = group.state === "CompletingRebalance" || group.state === "Stable";
  // A member that lost its join answer, or a follower rejoining unchanged, gets the current
  // generation again without a rebalance (Kafka's rule for both states).
  const isLeader = member.memberId === group.leaderId;
  if (isSettled && isSameMetadata && (group.state === "CompletingRebalance" || !isLeader)) {
    group.refreshSession(member, at.nowMs, at.effects);
    return { kind: "now", result: group.joinResultOf(member.memberId) };
  }
  member.protocols = request.protocols;
  member.sessionTimeoutMs = request.sessionTimeoutMs;
  member.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
  member.isAwaitingJoin = true;
  startOrJoinRebalance(group, at.nowMs, at.effects);
  return { kind: "later", memberId: member.memberId };
}

function startOrJoinRebalance(group: ClassicGroup, nowMs: number, effects: GroupEffects): void {
  if (group.state !== "PreparingRebalance") group.prepareRebalance(nowMs, effects);
  group.maybeCompleteJoin(nowMs, effects);
}

function sameProtocols(left: readonly MemberProtocol[], right: readonly MemberProtocol[]): boolean {
  if (left.length !== right.length) return false;
  return left.every((protocol, index) => {
    const other = right[index];
    return other !== undefined && other.name === protocol.name && bytesEqual(protocol, other);
  });
}

function bytesEqual(left: MemberProtocol, right: MemberProtocol): boolean {
  const a = left.metadata;
  const b = right.metadata;
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}
