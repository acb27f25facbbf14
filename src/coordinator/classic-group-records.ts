/**
 * A classic group as Kafka writes it to `__consumer_offsets`: one GroupMetadata record (key
 * version 2, the group id) whose value holds the protocol type, generation, chosen protocol,
 * leader, the time of the last state change and every member with its subscription (its
 * metadata for the chosen protocol) and assignment; a null value (tombstone) removes the
 * group. Values of every version Kafka reads (0-4) are decoded, and version 3 is written, as
 * Kafka writes it today (the highest version that is not flexible); a group is made from its
 * record as Kafka's replay makes it. Pure.
 */
import {
  decodeCoordinatorValue,
  encodeCoordinatorKey,
  encodeCoordinatorValue,
  type NewRecord,
} from "../protocol/index.js";
import type { GroupMember } from "./group-member.js";

/** One member as its group's record holds it. */
export interface PersistedClassicMember {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly rebalanceTimeoutMs: number;
  readonly sessionTimeoutMs: number;
  /** The member's metadata for the chosen protocol. */
  readonly subscription: Uint8Array;
  readonly assignment: Uint8Array;
}

/** A classic group as its record holds it. */
export interface PersistedClassicGroup {
  /** "" when the group has none (a group made empty before any member joined). */
  readonly protocolType: string;
  readonly generationId: number;
  readonly protocolName: string | null;
  readonly leaderId: string | null;
  /** Wall-clock ms of the last state change, or -1 (value versions 0 and 1 lack it). */
  readonly currentStateTimestampMs: number;
  readonly members: readonly PersistedClassicMember[];
}

/** A classic group's record to write: its value, or its tombstone (null). */
export interface ClassicGroupStore {
  readonly groupId: string;
  readonly record: PersistedClassicGroup | null;
}

/** The GroupMetadataKey version (the one that tells the record family apart). */
const GROUP_METADATA_KEY_VERSION = 2;
/** The GroupMetadataValue version Kafka writes (MetadataVersion.groupMetadataValueVersion). */
export const GROUP_METADATA_VALUE_VERSION = 3;

export function encodeGroupMetadataKey(groupId: string): Uint8Array {
  return encodeCoordinatorKey("GroupMetadata", { group: groupId }, GROUP_METADATA_KEY_VERSION);
}

/** The value of a group's record at `version` (fields a version lacks are left out). */
export function encodeGroupMetadataValue(
  group: PersistedClassicGroup,
  version: number = GROUP_METADATA_VALUE_VERSION,
): Uint8Array {
  return encodeCoordinatorValue("GroupMetadata", version, {
    protocolType: group.protocolType,
    generation: group.generationId,
    protocol: group.protocolName,
    leader: group.leaderId,
    currentStateTimestamp: group.currentStateTimestampMs,
    members: group.members.map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      rebalanceTimeout: member.rebalanceTimeoutMs,
      sessionTimeout: member.sessionTimeoutMs,
      subscription: member.subscription,
      assignment: member.assignment,
    })),
  });
}

/**
 * A group from its record's value, at any version. A member written without a rebalance
 * timeout (version 0) takes its session timeout, as Kafka's replay does. Throws DecodeError.
 */
export function decodeGroupMetadataValue(bytes: Uint8Array): PersistedClassicGroup {
  const { data } = decodeCoordinatorValue("GroupMetadata", bytes);
  const members = data["members"] as Record<string, unknown>[];
  return {
    protocolType: data["protocolType"] as string,
    generationId: data["generation"] as number,
    protocolName: data["protocol"] as string | null,
    leaderId: data["leader"] as string | null,
    currentStateTimestampMs: data["currentStateTimestamp"] as number,
    members: members.map((member) => {
      const sessionTimeoutMs = member["sessionTimeout"] as number;
      const rebalanceTimeoutMs = member["rebalanceTimeout"] as number;
      return {
        memberId: member["memberId"] as string,
        groupInstanceId: member["groupInstanceId"] as string | null,
        clientId: member["clientId"] as string,
        clientHost: member["clientHost"] as string,
        rebalanceTimeoutMs: rebalanceTimeoutMs === -1 ? sessionTimeoutMs : rebalanceTimeoutMs,
        sessionTimeoutMs,
        subscription: member["subscription"] as Uint8Array,
        assignment: member["assignment"] as Uint8Array,
      };
    }),
  };
}

/** The record of a group (null: its tombstone), stamped `nowMs`. */
export function groupMetadataRecord(
  groupId: string,
  group: PersistedClassicGroup | null,
  nowMs: number,
): NewRecord {
  const value = group === null ? null : encodeGroupMetadataValue(group);
  return { timestamp: nowMs, key: encodeGroupMetadataKey(groupId), value };
}

/** What a classic group shows of itself, as its record is made from it. */
export interface ClassicGroupView {
  readonly protocolType: string | null;
  readonly generationId: number;
  readonly protocolName: string | null;
  readonly leaderId: string | null;
  readonly members: ReadonlyMap<string, GroupMember>;
}

/**
 * The record of `group` (its state-change time left for the writer to stamp): each member with
 * its metadata for the chosen protocol and its part of `assignments` (the members' own
 * assignments when not given).
 */
export function recordOf(
  group: ClassicGroupView,
  assignments?: ReadonlyMap<string, Uint8Array>,
): PersistedClassicGroup {
  const members = [...group.members.values()].map((member) => {
    const chosen = member.protocols.find((protocol) => protocol.name === group.protocolName);
    return {
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      clientId: member.clientId,
      clientHost: member.clientHost,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      sessionTimeoutMs: member.sessionTimeoutMs,
      subscription: chosen?.metadata ?? new Uint8Array(0),
      assignment: assignments?.get(member.memberId) ?? member.assignment,
    };
  });
  return {
    protocolType: group.protocolType ?? "",
    generationId: group.generationId,
    protocolName: group.protocolName,
    leaderId: group.leaderId,
    currentStateTimestampMs: -1,
    members,
  };
}

/**
 * A member loaded from its group's record (Kafka's replay of GroupMetadata): it offers only
 * the chosen protocol, with its subscription as metadata, and its session starts at `nowMs`.
 */
export function loadedMember(
  member: PersistedClassicMember,
  protocolName: string | null,
  nowMs: number,
): GroupMember {
  return {
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    clientId: member.clientId,
    clientHost: member.clientHost,
    sessionTimeoutMs: member.sessionTimeoutMs,
    rebalanceTimeoutMs: member.rebalanceTimeoutMs,
    protocols: [{ name: protocolName ?? "", metadata: member.subscription }],
    assignment: member.assignment,
    isAwaitingJoin: false,
    isAwaitingSync: false,
    sessionDeadlineMs: nowMs + member.sessionTimeoutMs,
  };
}
