/**
 * Script arguments made into the coordinator's requests as the group API handlers build them
 * from the wire, with the defaults the group scenario README lists.
 */
import assert from "node:assert/strict";
import {
  DEFAULT_GROUP_CONFIG,
  type GroupConfig,
  type JoinRequest,
  type MemberIdentity,
  type MemberProtocol,
  type OffsetRecord,
  type SyncRequest,
} from "../../../src/coordinator/index.js";
import { optionsOf } from "../script.js";

const UTF8 = new TextEncoder();

/** `coordinator [initial-delay=…] [min-session=…] [max-session=…] [max-size=…]`. */
export function configOf(args: string[]): GroupConfig {
  const options = optionsOf(args);
  const numberOr = (key: string, fallback: number): number =>
    options.has(key) ? Number(options.get(key)) : fallback;
  const defaults = DEFAULT_GROUP_CONFIG;
  return {
    ...defaults,
    initialRebalanceDelayMs: numberOr("initial-delay", defaults.initialRebalanceDelayMs),
    minSessionTimeoutMs: numberOr("min-session", defaults.minSessionTimeoutMs),
    maxSessionTimeoutMs: numberOr("max-session", defaults.maxSessionTimeoutMs),
    maxSize: numberOr("max-size", defaults.maxSize),
  };
}

/**
 * A JoinGroup as the handler builds it for version `v` (default 3): v0 has no rebalance
 * timeout (the session timeout stands for it), from v4 a new member needs a known id (KIP-394),
 * from v9 a leader may be told to skip its assignment; `instance=` makes a static member.
 */
export function joinRequestOf(
  memberId: string,
  isNewMember: boolean,
  options: Map<string, string>,
): JoinRequest {
  const version = Number(options.get("v") ?? "3");
  const sessionTimeoutMs = Number(options.get("session") ?? "10000");
  const rebalanceTimeoutMs = Number(options.get("rebalance") ?? "30000");
  const protocols: MemberProtocol[] = (options.get("protocols") ?? "range")
    .split(",")
    .filter((entry) => entry !== "")
    .map((entry) => {
      const [name = "", metadata = ""] = entry.split(":");
      return { name, metadata: UTF8.encode(metadata) };
    });
  return {
    memberId: isNewMember ? "" : memberId,
    groupInstanceId: instanceOf(options),
    clientId: "client",
    clientHost: "/127.0.0.1",
    sessionTimeoutMs,
    rebalanceTimeoutMs: version === 0 ? sessionTimeoutMs : rebalanceTimeoutMs,
    protocolType: options.get("type") ?? "consumer",
    protocols,
    requiresKnownMemberId: version >= 4,
    newMemberId: memberId,
    supportsSkippingAssignment: version >= 9,
  };
}

/** The `instance=<id>` of a command: a static member's group.instance.id, else null. */
export function instanceOf(options: Map<string, string>): string | null {
  return options.get("instance") ?? null;
}

/** A member of `leave`: `<member>`, `<member>@<instance>`, or `@<instance>` (no member id). */
export function leavingMemberOf(text: string): MemberIdentity {
  const at = text.indexOf("@");
  if (at < 0) return { memberId: text, groupInstanceId: null };
  return { memberId: text.slice(0, at), groupInstanceId: text.slice(at + 1) };
}

export function generationOf(options: Map<string, string>): number {
  const generation = options.get("gen");
  assert.ok(generation !== undefined, "the command needs gen=<generation>");
  return Number(generation);
}

/** `orders-0` as topic "orders", partition 0. */
export function topicPartitionOf(text: string): { topic: string; partition: number } {
  const at = text.lastIndexOf("-");
  assert.ok(at > 0, `${text} is <topic>-<partition>`);
  return { topic: text.slice(0, at), partition: Number(text.slice(at + 1)) };
}

/** `gen=<n> [assign=<member>:<text>,…] [type=…] [protocol=…]` of `sync`. */
export function syncRequestOf(memberId: string, options: Map<string, string>): SyncRequest {
  const assign = options.get("assign") ?? "";
  const assignments = (assign === "" ? [] : assign.split(",")).map((entry) => {
    const [assignee = "", text = ""] = entry.split(":");
    return { memberId: assignee, assignment: UTF8.encode(text) };
  });
  return {
    memberId,
    groupInstanceId: instanceOf(options),
    generationId: generationOf(options),
    protocolType: options.get("type") ?? null,
    protocolName: options.get("protocol") ?? null,
    assignments,
  };
}

/** The `<topic>-<partition>=<offset>` arguments of `commit` as OffsetCommit records. */
export function commitRecordsOf(
  groupId: string,
  options: Map<string, string>,
  nowMs: number,
): OffsetRecord[] {
  return [...options]
    .filter(([key]) => key !== "gen" && key !== "instance")
    .map(([partition, offset]) => ({
      key: { groupId, ...topicPartitionOf(partition) },
      value: {
        offset: Number(offset),
        leaderEpoch: -1,
        metadata: "",
        commitTimestampMs: nowMs,
        expireTimestampMs: -1,
      },
    }));
}
