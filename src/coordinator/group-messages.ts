/**
 * The requests and answers of the classic group protocol as the coordinator takes and gives them,
 * independent of the wire version: the handlers fit them to each version of JoinGroup and
 * SyncGroup. An answer may come at once or later, as a delivery to the waiting request.
 */
import type { MemberProtocol } from "./protocol-selection.js";

export interface JoinRequest {
  readonly memberId: string;
  /** v5+: a static member's `group.instance.id` (KIP-345); null for a dynamic member. */
  readonly groupInstanceId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly sessionTimeoutMs: number;
  /** Equal to the session timeout for v0, which has no rebalance timeout. */
  readonly rebalanceTimeoutMs: number;
  readonly protocolType: string;
  readonly protocols: readonly MemberProtocol[];
  /** v4+: a new member first gets MEMBER_ID_REQUIRED with its id (KIP-394). */
  readonly requiresKnownMemberId: boolean;
  /** The id to give a new member (the driver draws it: clientId, or instance id, and a UUID). */
  readonly newMemberId: string;
  /** v9+: a restarted static leader may be told to skip the assignment (KIP-814). */
  readonly supportsSkippingAssignment: boolean;
}

export interface SyncRequest {
  readonly memberId: string;
  /** v3+; null for a dynamic member. */
  readonly groupInstanceId: string | null;
  readonly generationId: number;
  /** v5+; null when not sent. */
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  /** The leader's assignments; empty from followers. */
  readonly assignments: readonly { readonly memberId: string; readonly assignment: Uint8Array }[];
}

/** A member as the JoinGroup answer to the leader lists it. */
export interface JoinedMember {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly metadata: Uint8Array;
}

/** What a JoinGroup request gets, at once or when the join phase completes. */
export interface JoinResult {
  readonly errorCode: number;
  readonly generationId: number;
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  readonly leader: string;
  /** v9+: the leader (a restarted static one) keeps the assignment it made, in a Stable group. */
  readonly skipAssignment: boolean;
  readonly memberId: string;
  /** Every member with its metadata for the chosen protocol, for the leader only. */
  readonly members: readonly JoinedMember[];
}

/** The member a Heartbeat, LeaveGroup or OffsetCommit speaks for. */
export interface MemberIdentity {
  readonly memberId: string;
  /** Null for a dynamic member. */
  readonly groupInstanceId: string | null;
}

/** What a SyncGroup request gets, at once or when the leader's assignment arrives. */
export interface SyncResult {
  readonly errorCode: number;
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  readonly assignment: Uint8Array;
}

/** A JoinGroup or SyncGroup answer for a member whose request waits in the driver. */
export type GroupDelivery =
  | {
      readonly kind: "join";
      readonly groupId: string;
      readonly memberId: string;
      readonly result: JoinResult;
    }
  | {
      readonly kind: "sync";
      readonly groupId: string;
      readonly memberId: string;
      readonly result: SyncResult;
    };

/** The answer of a JoinGroup or SyncGroup call: now, or later as a delivery to `memberId`. */
export type Answer<Result> =
  | { readonly kind: "now"; readonly result: Result }
  | { readonly kind: "later"; readonly memberId: string };

export function joinError(errorCode: number, memberId: string): JoinResult {
  return {
    errorCode,
    generationId: -1,
    protocolType: null,
    protocolName: null,
    leader: "",
    skipAssignment: false,
    memberId,
    members: [],
  };
}

export function syncError(errorCode: number): SyncResult {
  return { errorCode, protocolType: null, protocolName: null, assignment: new Uint8Array(0) };
}

/** The refusals, with `errorCode`, of a member's JoinGroup and SyncGroup that wait. */
export function refusalsOfWaiting(
  groupId: string,
  member: {
    readonly memberId: string;
    readonly isAwaitingJoin: boolean;
    readonly isAwaitingSync: boolean;
  },
  errorCode: number,
): GroupDelivery[] {
  const { memberId } = member;
  const deliveries: GroupDelivery[] = [];
  if (member.isAwaitingJoin) {
    deliveries.push({ kind: "join", groupId, memberId, result: joinError(errorCode, memberId) });
  }
  if (member.isAwaitingSync) {
    deliveries.push({ kind: "sync", groupId, memberId, result: syncError(errorCode) });
  }
  return deliveries;
}
