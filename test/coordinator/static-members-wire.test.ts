/**
 * Static membership (KIP-345) through the codec and the group handlers: the instance id at each
 * version that carries it, and the answers of versions that do not.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";
import { API, ASSIGNMENT, joinGroupBody, offsetCommitBody, syncGroupBody } from "./group-bodies.js";

/** A static member's JoinGroup at v5+ (no member id: it needs no MEMBER_ID_REQUIRED round). */
function staticJoin(broker: GroupBroker, version: number, memberId: string) {
  const body = { ...joinGroupBody(version, "g", memberId), groupInstanceId: "instance-1" };
  return broker.call(API.joinGroup, version, body);
}

/** A Stable group "g" whose one member is static; its member id. */
async function stableStaticGroup(broker: GroupBroker): Promise<string> {
  await broker.untilLoaded("g");
  const joined = await staticJoin(broker, 5, "");
  assert.equal(at(joined, "errorCode"), ErrorCode.NONE);
  const memberId = at(joined, "memberId") as string;
  assert.match(memberId, /^instance-1-/, "Kafka names a static member after its instance id");
  assert.equal(at(joined, "members", 0, "groupInstanceId"), "instance-1");
  const sync = { ...syncGroupBody(3, "g", memberId), groupInstanceId: "instance-1" };
  const synced = await broker.call(API.syncGroup, 3, sync);
  assert.equal(at(synced, "errorCode"), ErrorCode.NONE);
  return memberId;
}

test("a restarted static member gets a new id and its assignment; the old is fenced", async () => {
  const broker = await GroupBroker.open(new LogHarness(61), { hasOffsetsTopic: true });
  const first = await stableStaticGroup(broker);
  const restarted = await staticJoin(broker, 9, "");
  assert.equal(at(restarted, "errorCode"), ErrorCode.NONE);
  assert.equal(at(restarted, "generationId"), 1, "no rebalance");
  assert.equal(at(restarted, "skipAssignment"), true, "the leader keeps its assignment");
  const second = at(restarted, "memberId") as string;
  assert.notEqual(second, first);
  const sync = { ...syncGroupBody(5, "g", second), groupInstanceId: "instance-1" };
  const synced = await broker.call(API.syncGroup, 5, { ...sync, assignments: [] });
  assert.deepEqual([...(at(synced, "assignment") as Uint8Array)], [...ASSIGNMENT]);
  const beat = (memberId: string) =>
    broker.call(API.heartbeat, 4, {
      groupId: "g",
      generationId: 1,
      memberId,
      groupInstanceId: "instance-1",
    });
  assert.equal(at(await beat(second), "errorCode"), ErrorCode.NONE);
  assert.equal(at(await beat(first), "errorCode"), ErrorCode.FENCED_INSTANCE_ID);
  const commit = (memberId: string) =>
    broker.call(API.offsetCommit, 7, {
      ...offsetCommitBody(7, "g", { memberId, generationId: 1, offset: 3 }),
      groupInstanceId: "instance-1",
    });
  const fenced = await commit(first);
  assert.equal(at(fenced, "topics", 0, "partitions", 0, "errorCode"), ErrorCode.FENCED_INSTANCE_ID);
  const committed = await commit(second);
  assert.equal(at(committed, "topics", 0, "partitions", 0, "errorCode"), ErrorCode.NONE);
  await broker.close();
});

test("DescribeGroups shows instance ids from v4, and v3 answers without them", async () => {
  const broker = await GroupBroker.open(new LogHarness(62), { hasOffsetsTopic: true });
  await stableStaticGroup(broker);
  for (const version of [3, 4, 5]) {
    const described = await broker.call(API.describeGroups, version, { groups: ["g"] });
    assert.equal(at(described, "groups", 0, "errorCode"), ErrorCode.NONE);
    const instanceId = at(described, "groups", 0, "members", 0, "groupInstanceId");
    assert.equal(instanceId, version >= 4 ? "instance-1" : null, `v${version}`);
  }
  await broker.close();
});

test("an admin removes a static member by instance id alone (LeaveGroup v3+)", async () => {
  const broker = await GroupBroker.open(new LogHarness(63), { hasOffsetsTopic: true });
  await stableStaticGroup(broker);
  const left = await broker.call(API.leaveGroup, 4, {
    groupId: "g",
    members: [
      { memberId: "", groupInstanceId: "instance-1" },
      { memberId: "", groupInstanceId: "unknown" },
    ],
  });
  assert.equal(at(left, "errorCode"), ErrorCode.NONE);
  assert.equal(at(left, "members", 0, "groupInstanceId"), "instance-1");
  assert.equal(at(left, "members", 0, "errorCode"), ErrorCode.NONE);
  assert.equal(at(left, "members", 1, "errorCode"), ErrorCode.UNKNOWN_MEMBER_ID);
  assert.equal(broker.coordinator.state.group("g")?.state, "Empty");
  await broker.close();
});

test("a JoinGroup v4 leader gets a static peer that joined at v5, as dynamic", async () => {
  const broker = await GroupBroker.open(new LogHarness(64), { hasOffsetsTopic: true });
  await broker.untilLoaded("g");
  const required = await broker.call(API.joinGroup, 4, joinGroupBody(4, "g", ""));
  const leaderId = at(required, "memberId") as string;
  const first = await broker.call(API.joinGroup, 4, joinGroupBody(4, "g", leaderId));
  assert.equal(at(first, "leader"), leaderId);
  // The static member's join (straight to the coordinator: the harness runs one call at a time)
  // waits for the leader to rejoin the rebalance it starts.
  const staticJoined = broker.coordinator.join("g", {
    memberId: "",
    groupInstanceId: "instance-1",
    clientId: "static",
    clientHost: "/127.0.0.1",
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 20_000,
    protocolType: "consumer",
    protocols: [{ name: "range", metadata: new Uint8Array([1]) }],
    requiresKnownMemberId: true,
    newMemberId: "instance-1-member",
    supportsSkippingAssignment: false,
  });
  const rejoined = await broker.call(API.joinGroup, 4, joinGroupBody(4, "g", leaderId));
  assert.equal(at(rejoined, "errorCode"), ErrorCode.NONE);
  assert.equal(at(rejoined, "generationId"), 2);
  const members = at(rejoined, "members") as { memberId: string; groupInstanceId: unknown }[];
  assert.equal(members.length, 2);
  assert.deepEqual(
    members.map((member) => member.groupInstanceId),
    [null, null],
  );
  assert.equal((await staticJoined).generationId, 2);
  await broker.close();
});
