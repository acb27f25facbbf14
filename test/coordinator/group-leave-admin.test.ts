import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import {
  DEFAULT_GROUP_CONFIG,
  GroupCoordinatorState,
  type JoinRequest,
} from "../../src/coordinator/index.js";

const config = { ...DEFAULT_GROUP_CONFIG, initialRebalanceDelayMs: 0 };
const protocols = [{ name: "range", metadata: new Uint8Array([1]) }];
/** Members without an instance id, as LeaveGroup names them. */
function dynamicMembers(memberIds: readonly string[]) {
  return memberIds.map((memberId) => ({ memberId, groupInstanceId: null }));
}

const DYNAMIC = { groupInstanceId: null, supportsSkippingAssignment: false } as const;

/** A join of a consumer that already has its member id (the second join of KIP-394). */
function knownJoin(memberId: string): JoinRequest {
  const base = { clientId: "c", clientHost: "/h", sessionTimeoutMs: 10_000 };
  const rest = { rebalanceTimeoutMs: 20_000, protocolType: "consumer", protocols };
  return { ...base, ...rest, memberId, requiresKnownMemberId: false, newMemberId: "", ...DYNAMIC };
}

/** A Stable group "g" whose members are `memberIds`. */
function stableGroup(memberIds: readonly string[]): GroupCoordinatorState {
  const state = new GroupCoordinatorState(config);
  const [leader] = memberIds;
  assert.ok(leader !== undefined);
  // Unknown-member joins without KIP-394 get the new member id at once. The first completes
  // generation 1 alone; the others start a rebalance that waits for the leader to rejoin.
  for (const memberId of memberIds) {
    state.join("g", { ...knownJoin(""), newMemberId: memberId }, 0);
  }
  if (memberIds.length > 1) state.join("g", knownJoin(leader), 0);
  const generationId = state.group("g")?.generationId ?? -1;
  const assignments = memberIds.map((memberId) => ({ memberId, assignment: new Uint8Array() }));
  const sync = {
    groupInstanceId: null,
    generationId,
    protocolType: null,
    protocolName: null,
    assignments,
  };
  state.sync("g", { ...sync, memberId: leader }, 1);
  // The group turns Stable once its record is durable.
  state.takeClassicStores();
  state.onClassicStored("g", { generationId, errorCode: ErrorCode.NONE }, 1);
  assert.equal(state.group("g")?.state, "Stable");
  return state;
}

test("a single member leaving (LeaveGroup v0-2) empties its group", () => {
  const state = stableGroup(["m1"]);
  assert.deepEqual(state.leave("g", dynamicMembers(["m1"]), 2).result, [ErrorCode.NONE]);
  assert.equal(state.group("g")?.state, "Empty");
  assert.equal(state.group("g")?.members.size, 0);
});

test("a batch leave (LeaveGroup v3+) answers each member and rebalances the rest", () => {
  const state = stableGroup(["m1", "m2", "m3"]);
  const outcome = state.leave("g", dynamicMembers(["m2", "nobody", "m3"]), 2);
  assert.deepEqual(outcome.result, [ErrorCode.NONE, ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.NONE]);
  const group = state.group("g");
  assert.deepEqual([...(group?.members.keys() ?? [])], ["m1"]);
  assert.equal(group?.state, "PreparingRebalance", "the remaining member must rejoin");
  assert.equal(
    state.heartbeat("g", { memberId: "m1", groupInstanceId: null, generationId: 2 }, 3).result,
    ErrorCode.REBALANCE_IN_PROGRESS,
  );
});

test("leaving a group that does not exist, or as a stranger, is UNKNOWN_MEMBER_ID", () => {
  const state = stableGroup(["m1"]);
  assert.deepEqual(state.leave("g", dynamicMembers(["stranger"]), 2).result, [
    ErrorCode.UNKNOWN_MEMBER_ID,
  ]);
  assert.equal(state.group("g")?.state, "Stable", "a stranger's leave changes nothing");
  assert.deepEqual(state.leave("missing", dynamicMembers(["m1", "m2"]), 2).result, [
    ErrorCode.UNKNOWN_MEMBER_ID,
    ErrorCode.UNKNOWN_MEMBER_ID,
  ]);
});

test("DescribeGroups shows a Stable group's members, and a missing group as Dead", () => {
  const state = new GroupCoordinatorState(config);
  state.join("g", { ...knownJoin(""), newMemberId: "m1" }, 0);
  const assignment = new Uint8Array([4, 2]);
  const sync = {
    memberId: "m1",
    groupInstanceId: null,
    generationId: 1,
    protocolType: null,
    protocolName: null,
  };
  state.sync("g", { ...sync, assignments: [{ memberId: "m1", assignment }] }, 1);
  state.takeClassicStores();
  state.onClassicStored("g", { generationId: 1, errorCode: ErrorCode.NONE }, 1);
  const described = state.describe("g");
  assert.equal(described.state, "Stable");
  assert.equal(described.protocolType, "consumer");
  assert.equal(described.protocolName, "range");
  assert.deepEqual(
    described.members.map((member) => [
      member.memberId,
      [...member.metadata],
      [...member.assignment],
    ]),
    [["m1", [1], [4, 2]]],
  );
  const missing = state.describe("missing");
  assert.equal(missing.errorCode, ErrorCode.NONE);
  assert.equal(missing.state, "Dead");
  assert.deepEqual(missing.members, []);
});

test("ListGroups lists every group with its state", () => {
  const state = stableGroup(["m1"]);
  assert.equal(
    state.validateCommit(
      "admin-only",
      { memberId: "", groupInstanceId: null, generationId: -1 },
      0,
    ),
    0,
  );
  assert.deepEqual(
    state.list().sort((a, b) => a.groupId.localeCompare(b.groupId)),
    [
      { groupId: "admin-only", protocolType: "", state: "Empty", groupType: "classic" },
      { groupId: "g", protocolType: "consumer", state: "Stable", groupType: "classic" },
    ],
  );
});

test("only an Empty group is deletable: NON_EMPTY_GROUP, then GROUP_ID_NOT_FOUND", () => {
  const state = stableGroup(["m1"]);
  assert.equal(state.checkDeletable("g"), ErrorCode.NON_EMPTY_GROUP);
  assert.equal(state.checkDeletable("missing"), ErrorCode.GROUP_ID_NOT_FOUND);
  state.leave("g", dynamicMembers(["m1"]), 2);
  assert.equal(state.checkDeletable("g"), ErrorCode.NONE);
  state.removeGroup("g");
  assert.equal(state.checkDeletable("g"), ErrorCode.GROUP_ID_NOT_FOUND);
  assert.deepEqual(state.list(), []);
});
