/**
 * A member of a classic group as its group shows it, and the topics a consumer group's members
 * subscribe to, read from their protocol metadata as Kafka's ClassicGroup.computeSubscribedTopics
 * reads it (for OffsetDelete's GROUP_SUBSCRIBED_TO_TOPIC). Pure.
 */
import { ByteReader, decodeData, isDecodeError } from "../protocol/index.js";
import type { JoinRequest } from "./group-messages.js";

/** A member as its group shows it, with what it last joined with; only the group changes it. */
export interface GroupMember extends Pick<
  JoinRequest,
  | "memberId"
  | "groupInstanceId"
  | "clientId"
  | "clientHost"
  | "sessionTimeoutMs"
  | "rebalanceTimeoutMs"
  | "protocols"
> {
  /** What the leader assigned it in the current generation (empty until then). */
  readonly assignment: Uint8Array;
  /** It sent JoinGroup for the rebalance under way and waits for the answer. */
  readonly isAwaitingJoin: boolean;
  /** It sent SyncGroup in CompletingRebalance and waits for the leader's assignment. */
  readonly isAwaitingSync: boolean;
  /** When its session ends unless it heartbeats (monotonic ms). */
  readonly sessionDeadlineMs: number;
}

/** The protocol type of Kafka's consumers, whose metadata is a ConsumerProtocolSubscription. */
const CONSUMER_PROTOCOL_TYPE = "consumer";

/**
 * The topics the members subscribe to in the chosen protocol: empty for a consumer group with no
 * member; undefined when not known (not a consumer group, no protocol chosen, or metadata that
 * does not parse). As Kafka, any version is read as version 0, its common prefix.
 */
export function subscribedTopicsOf(group: {
  readonly protocolType: string | null;
  readonly protocolName: string | null;
  readonly members: readonly GroupMember[];
}): ReadonlySet<string> | undefined {
  if (!usesConsumerProtocol(group.protocolType)) return undefined;
  if (group.members.length === 0) return new Set();
  if (group.protocolName === null) return undefined;
  const topics = new Set<string>();
  for (const member of group.members) {
    const chosen = member.protocols.find((protocol) => protocol.name === group.protocolName);
    try {
      const reader = new ByteReader(chosen?.metadata ?? new Uint8Array(0));
      reader.int16();
      const subscription = decodeData("ConsumerProtocolSubscription", 0, reader);
      for (const topic of subscription["topics"] as string[]) topics.add(topic);
    } catch (error) {
      if (!isDecodeError(error)) throw error;
      return undefined;
    }
  }
  return topics;
}

/** Whether a group uses Kafka's consumer protocol (Kafka's usesConsumerGroupProtocol). */
export function usesConsumerProtocol(protocolType: string | null): boolean {
  return protocolType === CONSUMER_PROTOCOL_TYPE;
}

/** Kafka's isSubscribedToTopic: when the topics are not known, a consumer group counts as one. */
export function isSubscribedTo(
  topics: ReadonlySet<string> | undefined,
  group: { readonly protocolType: string | null; readonly topic: string },
): boolean {
  return topics === undefined
    ? group.protocolType === CONSUMER_PROTOCOL_TYPE
    : topics.has(group.topic);
}
