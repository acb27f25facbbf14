/**
 * SyncGroup, Heartbeat and LeaveGroup on a classic group (Kafka's classicGroupSync,
 * classicGroupHeartbeat and classicGroupLeave): generation and member checks, the leader's
 * assignment handed to every member, session refreshes, and members leaving.
 */
import { ErrorCode, assertNever } from "../common/index.js";
import type { ClassicGroup, GroupEffects } from "./classic-group.js";
import { syncError, type Answer, type SyncResult } from "./group-types.js";

/** A SyncGroup request, version-independent. */
export interface SyncRequest {
  readonly memberId: string;
  readonly generationId: number;
  /** v5+; null when not sent. */
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  /** The leader's assignments; empty from followers. */
  readonly assignments: readonly { readonly memberId: string; readonly assignment: Uint8Array }[];
}

/** Answers a SyncGroup on `group`. */
export function syncGroup(
  group: ClassicGroup,
  request: SyncRequest,
  nowMs: number,
  effects: GroupEffects,
): Answer<SyncResult> {
  const now = (errorCode: number): Answer<SyncResult> => ({
    kind: "now",
    result: syncError(errorCode),
  });
  const member = group.members.get(request.memberId);
  if (member === undefined) return now(ErrorCode.UNKNOWN_MEMBER_ID);
  if (request.generationId !== group.generationId) return now(ErrorCode.ILLEGAL_GENERATION);
  const isTypeWrong = request.protocolType !== null && request.protocolType !== group.protocolType;
  const isNameWrong = request.protocolName !== null && request.protocolName !== group.protocolName;
  if (isTypeWrong || isNameWrong) return now(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
  switch (group.state) {
    case "Empty":
    case "Dead":
      return now(ErrorCode.UNKNOWN_MEMBER_ID);
    case "PreparingRebalance":
      return now(ErrorCode.REBALANCE_IN_PROGRESS);
    case "Stable":
      group.refreshSession(member, nowMs, effects);
      return {
        kind: "now",
        result: {
          errorCode: ErrorCode.NONE,
          protocolType: group.protocolType,
          protocolName: group.protocolName,
          assignment: member.assignment,
        },
      };
    case "CompletingRebalance":
      member.isAwaitingSync = true;
      group.refreshSession(member, nowMs, effects);
      if (member.memberId === group.leaderId) applyAssignment(group, request, nowMs, effects);
      return { kind: "later", memberId: member.memberId };
    default:
      return assertNever(group.state);
  }
}

/** The leader's assignment: members it left out get an empty one, as in Kafka. */
function applyAssignment(
  group: ClassicGroup,
  request: SyncRequest,
  nowMs: number,
  effects: GroupEffects,
): void {
  const assignments = new Map(request.assignments.map((a) => [a.memberId, a.assignment]));
  for (const member of group.members.values()) {
    member.assignment = assignments.get(member.memberId) ?? new Uint8Array(0);
  }
  group.transitionTo("Stable", nowMs);
  for (const member of group.members.values()) group.answerSync(member, effects);
}

/** Answers a Heartbeat: refreshes the session, or says why the member must rejoin. */
export function heartbeat(
  group: ClassicGroup,
  request: { readonly memberId: string; readonly generationId: number },
  nowMs: number,
  effects: GroupEffects,
): number {
  if (group.state === "Dead") return ErrorCode.COORDINATOR_NOT_AVAILABLE;
  if (group.state === "Empty") return ErrorCode.UNKNOWN_MEMBER_ID;
  const member = group.members.get(request.memberId);
  if (member === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
  if (request.generationId !== group.generationId) return ErrorCode.ILLEGAL_GENERATION;
  group.refreshSession(member, nowMs, effects);
  return group.state === "PreparingRebalance" ? ErrorCode.REBALANCE_IN_PROGRESS : ErrorCode.NONE;
}

/** Removes one member that asked to leave; returns its per-member error code. */
export function leaveGroup(
  group: ClassicGroup,
  memberId: string,
  nowMs: number,
  effects: GroupEffects,
): number {
  if (group.state === "Dead") return ErrorCode.COORDINATOR_NOT_AVAILABLE;
  if (group.pendingMembers.delete(memberId)) {
    group.maybeCompleteJoin(nowMs, effects);
    return ErrorCode.NONE;
  }
  const member = group.members.get(memberId);
  if (member === undefined) return ErrorCode.UNKNOWN_MEMBER_ID;
  group.removeMember(member, nowMs, effects);
  return ErrorCode.NONE;
}
