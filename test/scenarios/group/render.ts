/**
 * Renders the group coordinator's answers and groups as the short lines group scenario files
 * expect: an error name first, then only the fields a reader needs, in a fixed order, so that a
 * diff shows a change of behaviour.
 */
import { ErrorCode, errorName } from "../../../src/common/index.js";
import type {
  ClassicGroup,
  GroupCoordinatorState,
  GroupDelivery,
  GroupDescription,
  JoinResult,
  SyncResult,
} from "../../../src/coordinator/index.js";

const UTF8 = new TextDecoder();

/** A list as `a,b`, or `-` when empty. */
export function listOf(items: readonly string[]): string {
  return items.length === 0 ? "-" : items.join(",");
}

function textOf(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}

/** The bytes as text, or `-` when there are none. */
function textOr(bytes: Uint8Array): string {
  return bytes.length === 0 ? "-" : textOf(bytes);
}

/**
 * `JoinGroup <ERROR> ...`: on success the generation, leader and protocol, and for the leader
 * every member (with its metadata for the chosen protocol, when it has any). `member=` shows the
 * id the coordinator handed out, when the request came without one.
 */
export function joinLine(result: JoinResult, options: { readonly isNewMember: boolean }): string {
  const parts = ["JoinGroup", errorName(result.errorCode)];
  if (options.isNewMember && result.memberId !== "") parts.push(`member=${result.memberId}`);
  if (result.errorCode !== ErrorCode.NONE) return parts.join(" ");
  parts.push(`generation=${result.generationId}`, `leader=${result.leader || "-"}`);
  parts.push(`protocol=${result.protocolName ?? "-"}`);
  if (result.skipAssignment) parts.push("skip-assignment");
  if (result.members.length > 0) {
    const members = result.members.map(({ memberId, metadata }) =>
      metadata.length === 0 ? memberId : `${memberId}:${textOf(metadata)}`,
    );
    parts.push(`members=${members.join(",")}`);
  }
  return parts.join(" ");
}

/** `SyncGroup <ERROR>`, and on success the member's assignment (`-` when empty). */
export function syncLine(result: SyncResult): string {
  const error = errorName(result.errorCode);
  if (result.errorCode !== ErrorCode.NONE) return `SyncGroup ${error}`;
  return `SyncGroup ${error} assignment=${textOr(result.assignment)}`;
}

/** A JoinGroup or SyncGroup answer that reached a waiting request. */
export function deliveryLine(delivery: GroupDelivery): string {
  const answer =
    delivery.kind === "join"
      ? joinLine(delivery.result, { isNewMember: false })
      : syncLine(delivery.result);
  return `${delivery.memberId}: ${answer}`;
}

/** DescribeGroups: the group, then a line per member with its metadata and assignment. */
export function describeLines(described: GroupDescription): string[] {
  const protocol = `${described.protocolType || "-"}/${described.protocolName || "-"}`;
  const head =
    `${described.groupId}: DescribeGroups ${errorName(described.errorCode)} ${described.state}` +
    ` protocol=${protocol}`;
  const members = described.members.map(
    (member) =>
      `  ${member.memberId}: client=${member.clientId} host=${member.clientHost}` +
      (member.groupInstanceId === null ? "" : ` instance=${member.groupInstanceId}`) +
      ` metadata=${textOr(member.metadata)} assignment=${textOr(member.assignment)}`,
  );
  return [head, ...members];
}

/** What a group is now, one line, to print when it changes: state, generation, leader, members. */
export function summaryOf(group: ClassicGroup): string {
  return [
    group.state,
    `generation=${group.generationId}`,
    `leader=${group.leaderId ?? "-"}`,
    `members=${listOf([...group.members.keys()])}`,
  ].join(" ");
}

/** The summary of every group, by id. */
export function summaries(state: GroupCoordinatorState): Map<string, string> {
  const all = new Map<string, string>();
  for (const { groupId } of state.list()) {
    const group = state.group(groupId);
    if (group !== undefined) all.set(groupId, summaryOf(group));
  }
  return all;
}

/** A line per group that changed between two summaries, or that is gone. */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [groupId, summary] of after) {
    if (before.get(groupId) !== summary) lines.push(`${groupId}: ${summary}`);
  }
  for (const groupId of before.keys()) {
    if (!after.has(groupId)) lines.push(`${groupId}: removed`);
  }
  return lines;
}

/** A group with its protocol, and a line per member and per pending member id. */
export function describeGroup(group: ClassicGroup): string[] {
  const head = [
    `${group.groupId}: ${summaryOf(group)}`,
    `type=${group.protocolType ?? "-"}`,
    `protocol=${group.protocolName ?? "-"}`,
    `since=${group.stateChangedMs}`,
  ];
  if (group.rebalanceDeadlineMs !== undefined) {
    head.push(`rebalance-deadline=${group.rebalanceDeadlineMs}`);
  }
  const lines = [head.join(" ")];
  for (const member of group.members.values()) {
    const parts = [
      `  ${member.memberId}: session-deadline=${member.sessionDeadlineMs}`,
      ...(member.groupInstanceId === null ? [] : [`instance=${member.groupInstanceId}`]),
      `protocols=${listOf(member.protocols.map((protocol) => protocol.name))}`,
      `assignment=${textOr(member.assignment)}`,
    ];
    if (member.isAwaitingJoin) parts.push("awaiting=join");
    if (member.isAwaitingSync) parts.push("awaiting=sync");
    lines.push(parts.join(" "));
  }
  for (const [memberId, deadlineMs] of group.pendingMembers) {
    lines.push(`  ${memberId}: pending until ${deadlineMs}`);
  }
  return lines;
}

/** What `check <group>` may assert; a group the coordinator does not hold is Dead. */
export function factsOf(state: GroupCoordinatorState, groupId: string): Record<string, string> {
  const offsets = state.offsets
    .offsetsOf(groupId)
    .map(({ topic, partition, committed }) => `${topic}-${partition}:${committed.offset}`);
  const group = state.group(groupId);
  if (group === undefined) return { exists: "no", state: "Dead", offsets: listOf(offsets) };
  const members = [...group.members.values()];
  const idsWhere = (isIt: (member: (typeof members)[number]) => boolean) =>
    listOf(members.filter(isIt).map((member) => member.memberId));
  return {
    exists: "yes",
    state: group.state,
    generation: String(group.generationId),
    leader: group.leaderId ?? "-",
    type: group.protocolType ?? "-",
    protocol: group.protocolName ?? "-",
    members: idsWhere(() => true),
    instances: listOf(
      members.flatMap(({ memberId, groupInstanceId }) =>
        groupInstanceId === null ? [] : [`${groupInstanceId}:${memberId}`],
      ),
    ),
    pending: listOf([...group.pendingMembers.keys()]),
    "awaiting-join": idsWhere((member) => member.isAwaitingJoin),
    "awaiting-sync": idsWhere((member) => member.isAwaitingSync),
    offsets: listOf(offsets),
  };
}
