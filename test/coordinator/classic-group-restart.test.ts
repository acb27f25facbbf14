/**
 * Classic groups are written to `__consumer_offsets` as GroupMetadata records and rebuilt when
 * the partition is loaded again: after a restart of the coordinator a Stable group keeps its
 * generation, leader, members and assignments, and its members go on without a rebalance; a
 * static member that restarts gets its assignment back; loaded members whose sessions end
 * leave an Empty group, which stays Empty (with its protocol type) after the next restart; a
 * deleted group stays gone.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";
import { API, PROTOCOL_METADATA, joinGroupBody, offsetCommitBody } from "./group-bodies.js";

type Answer = Record<string, unknown>;

/** A JoinGroup: v3 for a dynamic member, v5 for a static one (no MEMBER_ID_REQUIRED round). */
function joinRequest(memberId: string, groupInstanceId: string | null = null) {
  const version = groupInstanceId === null ? 3 : 5;
  const body = joinGroupBody(version, "g", memberId);
  const request = groupInstanceId === null ? body : { ...body, groupInstanceId };
  return [API.joinGroup, version, request] as const;
}

function join(broker: GroupBroker, memberId: string, groupInstanceId: string | null = null) {
  return broker.call(...joinRequest(memberId, groupInstanceId));
}

function syncRequest(
  member: { readonly memberId: string; readonly generationId: number },
  assignments: readonly { memberId: string; assignment: Uint8Array }[] = [],
  groupInstanceId: string | null = null,
) {
  const body = { groupId: "g", ...member, groupInstanceId, assignments };
  return [API.syncGroup, 3, body] as const;
}

function sync(broker: GroupBroker, ...args: Parameters<typeof syncRequest>) {
  return broker.call(...syncRequest(...args));
}

function heartbeat(
  broker: GroupBroker,
  memberId: string,
  generationId: number,
  groupInstanceId: string | null = null,
) {
  return broker.call(API.heartbeat, 3, { groupId: "g", generationId, memberId, groupInstanceId });
}

async function describe(broker: GroupBroker): Promise<Answer> {
  const described = await broker.call(API.describeGroups, 5, {
    groups: ["g"],
    includeAuthorizedOperations: false,
  });
  return at(described, "groups", 0) as Answer;
}

function bytesOf(answer: Answer, ...path: (string | number)[]): number[] {
  return [...(at(answer, ...path) as Uint8Array)];
}

/** A Stable group "g" of two dynamic members at generation 2: m1 has [1], m2 has [2]. */
async function stableGroupOfTwo(
  broker: GroupBroker,
): Promise<{ leader: string; follower: string }> {
  const first = await join(broker, "");
  const leader = at(first, "memberId") as string;
  assert.equal(at(first, "generationId"), 1);
  const alone = await sync(broker, { memberId: leader, generationId: 1 }, []);
  assert.equal(at(alone, "errorCode"), ErrorCode.NONE);
  // The second member's join waits for the leader to rejoin.
  const [second = {}, rejoined = {}] = await broker.callAll([joinRequest(""), joinRequest(leader)]);
  const follower = at(second, "memberId") as string;
  assert.equal(at(rejoined, "generationId"), 2);
  const member = { generationId: 2 };
  const assignments = [
    { memberId: leader, assignment: Uint8Array.of(1) },
    { memberId: follower, assignment: Uint8Array.of(2) },
  ];
  const [followerSync = {}, leaderSync = {}] = await broker.callAll([
    syncRequest({ ...member, memberId: follower }),
    syncRequest({ ...member, memberId: leader }, assignments),
  ]);
  assert.deepEqual(bytesOf(leaderSync, "assignment"), [1]);
  assert.deepEqual(bytesOf(followerSync, "assignment"), [2]);
  assert.equal((await describe(broker))["groupState"], "Stable");
  return { leader, follower };
}

test("a classic group's generation, members and assignments survive a restart", async () => {
  const harness = new LogHarness(131);
  const before = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await before.untilLoaded("g");
  const { leader, follower } = await stableGroupOfTwo(before);
  const described = await describe(before);
  await before.close();

  const after = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await after.untilLoaded("g");
  assert.deepEqual(await describe(after), described);
  assert.equal(after.coordinator.state.group("g")?.generationId, 2);
  assert.equal(after.coordinator.state.group("g")?.leaderId, leader);
  const members = described["members"] as Answer[];
  assert.deepEqual(
    members.map((member) => member["memberId"]),
    [leader, follower],
  );
  assert.deepEqual(bytesOf(members[0] ?? {}, "memberMetadata"), [...PROTOCOL_METADATA]);
  // Both go on in generation 2: heartbeats, a follower's unchanged rejoin, a SyncGroup.
  for (const memberId of [leader, follower]) {
    assert.equal(at(await heartbeat(after, memberId, 2), "errorCode"), ErrorCode.NONE);
  }
  const rejoined = await join(after, follower);
  assert.equal(at(rejoined, "errorCode"), ErrorCode.NONE);
  assert.equal(at(rejoined, "generationId"), 2, "no rebalance after the restart");
  const synced = await sync(after, { memberId: follower, generationId: 2 });
  assert.deepEqual(bytesOf(synced, "assignment"), [2]);
  const listed = await after.call(API.listGroups, 4, { statesFilter: [] });
  assert.deepEqual(at(listed, "groups"), [
    { groupId: "g", protocolType: "consumer", groupState: "Stable", groupType: "" },
  ]);
  await after.close();
});

test("a static member that restarts after the coordinator did keeps its assignment", async () => {
  const harness = new LogHarness(132);
  const before = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await before.untilLoaded("g");
  const joined = await join(before, "", "instance-1");
  const first = at(joined, "memberId") as string;
  const assignments = [{ memberId: first, assignment: Uint8Array.of(7, 7) }];
  const synced = await sync(
    before,
    { memberId: first, generationId: 1 },
    assignments,
    "instance-1",
  );
  assert.deepEqual(bytesOf(synced, "assignment"), [7, 7]);
  await before.close();

  const after = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await after.untilLoaded("g");
  assert.equal(at(await describe(after), "members", 0, "groupInstanceId"), "instance-1");
  const restarted = await join(after, "", "instance-1");
  assert.equal(at(restarted, "errorCode"), ErrorCode.NONE);
  assert.equal(at(restarted, "generationId"), 1, "no rebalance");
  const second = at(restarted, "memberId") as string;
  const resynced = await sync(after, { memberId: second, generationId: 1 }, [], "instance-1");
  assert.deepEqual(bytesOf(resynced, "assignment"), [7, 7]);
  await after.close();
});

test("loaded members whose sessions end leave an Empty group that stays so", async () => {
  const harness = new LogHarness(133);
  const first = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await first.untilLoaded("g");
  const { leader } = await stableGroupOfTwo(first);
  const commit = offsetCommitBody(3, "g", { memberId: leader, generationId: 2, offset: 11 });
  const committed = await first.call(API.offsetCommit, 3, commit);
  assert.equal(at(committed, "topics", 0, "partitions", 0, "errorCode"), ErrorCode.NONE);
  await first.close();

  const second = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await second.untilLoaded("g");
  assert.equal((await describe(second))["groupState"], "Stable");
  // No heartbeat for longer than the members' session timeout (10 s): both expire.
  const { timers } = harness.node;
  await harness.run(new Promise<void>((resolve) => timers.schedule(11_000, resolve)));
  assert.equal((await describe(second))["groupState"], "Empty");
  assert.equal(second.coordinator.state.group("g")?.generationId, 3);
  await second.close();

  const third = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await third.untilLoaded("g");
  const described = await describe(third);
  assert.equal(described["groupState"], "Empty");
  assert.equal(described["protocolType"], "consumer");
  assert.deepEqual(described["members"], []);
  assert.equal(third.coordinator.state.group("g")?.generationId, 3);
  const deleted = await third.call(API.deleteGroups, 2, { groupsNames: ["g"] });
  assert.equal(at(deleted, "results", 0, "errorCode"), ErrorCode.NONE);
  await third.close();

  const fourth = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await fourth.untilLoaded("g");
  assert.equal((await describe(fourth))["groupState"], "Dead");
  assert.equal(fourth.coordinator.state.group("g"), undefined);
  await fourth.close();
});

test("an Empty group without offsets is forgotten and stays gone after a restart", async () => {
  const harness = new LogHarness(134);
  const first = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await first.untilLoaded("g");
  const { leader, follower } = await stableGroupOfTwo(first);
  const left = await first.call(API.leaveGroup, 3, {
    groupId: "g",
    members: [{ memberId: leader }, { memberId: follower }],
  });
  assert.equal(at(left, "errorCode"), ErrorCode.NONE);
  const { timers } = harness.node;
  await harness.run(new Promise<void>((resolve) => timers.schedule(11_000, resolve)));
  assert.equal(first.coordinator.state.group("g"), undefined);
  await first.close();

  const second = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await second.untilLoaded("g");
  assert.equal(second.coordinator.state.group("g"), undefined);
  await second.close();
});

test("a static member's new member id is written: the coordinator's restart keeps it", async () => {
  const harness = new LogHarness(135);
  const before = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await before.untilLoaded("g");
  const first = at(await join(before, "", "instance-1"), "memberId") as string;
  const assignments = [{ memberId: first, assignment: Uint8Array.of(5) }];
  await sync(before, { memberId: first, generationId: 1 }, assignments, "instance-1");
  // The member restarts: it takes its old place under a new id, without a rebalance.
  const restarted = await join(before, "", "instance-1");
  assert.equal(at(restarted, "errorCode"), ErrorCode.NONE);
  const second = at(restarted, "memberId") as string;
  assert.notEqual(second, first);
  await before.close();

  const after = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await after.untilLoaded("g");
  const beat = (memberId: string) => heartbeat(after, memberId, 1, "instance-1");
  assert.equal(at(await beat(second), "errorCode"), ErrorCode.NONE);
  assert.equal(at(await beat(first), "errorCode"), ErrorCode.FENCED_INSTANCE_ID);
  const synced = await sync(after, { memberId: second, generationId: 1 }, [], "instance-1");
  assert.deepEqual(bytesOf(synced, "assignment"), [5]);
  await after.close();
});
