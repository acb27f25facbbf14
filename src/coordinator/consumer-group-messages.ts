/**
 * ConsumerGroupHeartbeat as the consumer group state machine takes and answers it (KIP-848),
 * and the member as ConsumerGroupDescribe shows it.
 */
import type { Assignment, MemberState, OwnedPartitions } from "./current-assignment.js";

/** A member epoch of -1 leaves the group; 0 joins (or rejoins after being fenced). */
export const LEAVE_GROUP_MEMBER_EPOCH = -1;
/** A static member's temporary leave (KIP-848 keeps its assignment for its session). */
export const LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2;

/**
 * A heartbeat's fields; null means the member did not send the field (it sends only what
 * changed, except on a full request).
 */
export interface ConsumerHeartbeat {
  /** The member id; a joining member's is chosen by the coordinator before this call. */
  readonly memberId: string;
  readonly memberEpoch: number;
  /** A static member's `group.instance.id` (KIP-345 in KIP-848 groups); null when dynamic. */
  readonly instanceId: string | null;
  readonly rackId: string | null;
  /** -1 when not sent. */
  readonly rebalanceTimeoutMs: number;
  readonly subscribedTopicNames: readonly string[] | null;
  /** v1 and later; "" clears the member's regex. */
  readonly subscribedTopicRegex: string | null;
  readonly serverAssignor: string | null;
  readonly topicPartitions: readonly OwnedPartitions[] | null;
  readonly clientId: string;
  readonly clientHost: string;
}

export interface ConsumerHeartbeatResult {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly memberId: string;
  readonly memberEpoch: number;
  readonly heartbeatIntervalMs: number;
  /** The member's assignment when it changed or the request was full; null otherwise. */
  readonly assignment: Assignment | null;
}

/** A member of a consumer group as ConsumerGroupDescribe shows it. */
export interface ConsumerMemberDescription {
  readonly memberId: string;
  readonly instanceId: string | null;
  readonly rackId: string | null;
  readonly memberEpoch: number;
  readonly clientId: string;
  readonly clientHost: string;
  readonly subscribedTopicNames: readonly string[];
  readonly subscribedTopicRegex: string | null;
  readonly assignment: Assignment;
  readonly targetAssignment: Assignment;
  readonly state: MemberState;
}

export function heartbeatError(
  errorCode: number,
  request: { readonly memberId: string; readonly memberEpoch: number },
  errorMessage: string | null = null,
): ConsumerHeartbeatResult {
  return {
    errorCode,
    errorMessage,
    memberId: request.memberId,
    memberEpoch: request.memberEpoch,
    heartbeatIntervalMs: 0,
    assignment: null,
  };
}
