/**
 * The requests and answers of the classic group protocol as the coordinator takes and gives them,
 * independent of the wire version: the handlers fit them to each version of JoinGroup and
 * SyncGroup. An answer may come at once or later, as a delivery to the waiting request.
 */
import type { MemberProtocol } from "./protocol-selection.js";

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

export interface SyncRequest {
  readonly memberId: string;
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
  readonly metadata: Uint8Array;
}

/** What a JoinGroup request gets, at once or when the join phase completes. */
export interface JoinResult {
  readonly errorCode: number;
  readonly generationId: number;
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  readonly leader: string;
  readonly memberId: string;
  /** Every member with its metadata for the chosen protocol, for the leader only. */
  readonly members: readonly JoinedMember[];
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
    memberId,
    members: [],
  };
}

export function syncError(errorCode: number): SyncResult {
  return { errorCode, protocolType: null, protocolName: null, assignment: new Uint8Array(0) };
}
