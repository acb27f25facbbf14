/**
 * The values of the classic group protocol: states, members, and the answers JoinGroup and
 * SyncGroup give, independent of any wire version (the handlers fit them to the version).
 */

/**
 * The states of a classic group (Kafka's ClassicGroupState). Allowed transitions:
 * Empty → PreparingRebalance (a member joins) or Dead (deleted, all offsets gone);
 * PreparingRebalance → CompletingRebalance (every member rejoined, or the rebalance timeout) or
 * Empty (nobody rejoined); CompletingRebalance → Stable (the leader's SyncGroup) or
 * PreparingRebalance (a member joins, leaves or expires); Stable → PreparingRebalance.
 */
export type GroupState = "Empty" | "PreparingRebalance" | "CompletingRebalance" | "Stable" | "Dead";

/** One protocol a member offers in JoinGroup: an assignor name and its opaque metadata. */
export interface MemberProtocol {
  readonly name: string;
  readonly metadata: Uint8Array;
}

/** A member of a classic group. */
export interface GroupMember {
  readonly memberId: string;
  readonly clientId: string;
  readonly clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocols: readonly MemberProtocol[];
  /** What the leader assigned it in the current generation (empty until then). */
  assignment: Uint8Array;
  /** It sent JoinGroup for the rebalance under way and waits for the answer. */
  isAwaitingJoin: boolean;
  /** It sent SyncGroup in CompletingRebalance and waits for the leader's assignment. */
  isAwaitingSync: boolean;
  /** It joined during the rebalance under way (not yet part of a generation). */
  isNew: boolean;
  /** When its session ends unless it heartbeats (monotonic ms). */
  sessionDeadlineMs: number;
}

/** A member as the JoinGroup answer to the leader lists it. */
export interface JoinedMember {
  readonly memberId: string;
  readonly metadata: Uint8Array;
}

/** What a JoinGroup request gets, at once or when the rebalance completes. */
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

/** The error-only JoinGroup answer. */
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

/** The error-only SyncGroup answer. */
export function syncError(errorCode: number): SyncResult {
  return { errorCode, protocolType: null, protocolName: null, assignment: new Uint8Array(0) };
}
