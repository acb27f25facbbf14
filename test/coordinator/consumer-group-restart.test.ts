/**
 * Consumer groups (KIP-848) are written to `__consumer_offsets` and rebuilt when the partition
 * is loaded again: after a restart of the coordinator, the members keep their member ids,
 * epochs and assignments, and their next heartbeat goes on without a rebalance; a member that
 * left, or a deleted group, stays gone.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { testUuid } from "../../src/metadata/records.test-support.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";
import { API, CONSUMER_GROUP_JOIN } from "./group-bodies.js";

const CONSUMER_GROUP_HEARTBEAT = 68;
const CONSUMER_GROUP_DESCRIBE = 69;
const ORDERS_TOPIC_ID = testUuid(78);

type Answer = Record<string, unknown>;

function heartbeat(broker: GroupBroker, memberId: string, memberEpoch: number, owned: number[]) {
  return broker.call(CONSUMER_GROUP_HEARTBEAT, 1, {
    ...CONSUMER_GROUP_JOIN,
    memberId,
    memberEpoch,
    rebalanceTimeoutMs: -1,
    subscribedTopicNames: null,
    topicPartitions: [{ topicId: ORDERS_TOPIC_ID, partitions: owned }],
  });
}

function partitionsOf(answer: Answer): number[] {
  return at(answer, "assignment", "topicPartitions", 0, "partitions") as number[];
}

async function describe(broker: GroupBroker): Promise<Answer> {
  const described = await broker.call(CONSUMER_GROUP_DESCRIBE, 0, {
    groupIds: ["cg"],
    includeAuthorizedOperations: false,
  });
  return at(described, "groups", 0) as Answer;
}

/** Two members that share the two partitions of "orders", Stable at group epoch 2. */
async function stableGroupOfTwo(broker: GroupBroker): Promise<{ first: string; second: string }> {
  const joined = await broker.call(CONSUMER_GROUP_HEARTBEAT, 1, CONSUMER_GROUP_JOIN);
  const first = joined["memberId"] as string;
  assert.deepEqual(partitionsOf(joined), [0, 1]);
  const secondJoin = await broker.call(CONSUMER_GROUP_HEARTBEAT, 1, CONSUMER_GROUP_JOIN);
  const second = secondJoin["memberId"] as string;
  // The first revokes one partition, then the second gets it.
  const revoking = await heartbeat(broker, first, 1, [0, 1]);
  const kept = partitionsOf(revoking);
  assert.equal(kept.length, 1);
  await heartbeat(broker, first, 1, kept);
  const given = await heartbeat(broker, second, 2, []);
  assert.equal(given["memberEpoch"], 2);
  assert.equal((await describe(broker))["groupState"], "Stable");
  return { first, second };
}

test("a consumer group's members, epochs and assignments survive a restart", async () => {
  const harness = new LogHarness(96);
  const before = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await before.untilLoaded("cg");
  const { first, second } = await stableGroupOfTwo(before);
  const described = await describe(before);
  await before.close();

  const after = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await after.untilLoaded("cg");
  assert.deepEqual(await describe(after), described);
  const members = described["members"] as Answer[];
  const owned = (memberId: string) => {
    const member = members.find((candidate) => candidate["memberId"] === memberId);
    return at(member, "assignment", "topicPartitions", 0, "partitions") as number[];
  };
  for (const memberId of [first, second]) {
    const answer = await heartbeat(after, memberId, 2, owned(memberId));
    assert.equal(answer["errorCode"], ErrorCode.NONE);
    assert.equal(answer["memberEpoch"], 2, "no rebalance after the restart");
  }
  const listed = await after.call(API.listGroups, 5, { statesFilter: [], typesFilter: [] });
  assert.deepEqual(at(listed, "groups"), [
    { groupId: "cg", protocolType: "consumer", groupState: "Stable", groupType: "consumer" },
  ]);
  await after.close();
});

test("a member that left and a deleted group stay gone after a restart", async () => {
  const harness = new LogHarness(97);
  const first = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await first.untilLoaded("cg");
  const { first: leaver, second: stayer } = await stableGroupOfTwo(first);
  const left = await first.call(CONSUMER_GROUP_HEARTBEAT, 1, {
    ...CONSUMER_GROUP_JOIN,
    memberId: leaver,
    memberEpoch: -1,
  });
  assert.equal(left["errorCode"], ErrorCode.NONE);
  await first.close();

  const second = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await second.untilLoaded("cg");
  const described = await describe(second);
  assert.deepEqual(
    (described["members"] as Answer[]).map((member) => member["memberId"]),
    [stayer],
  );
  assert.equal(described["groupEpoch"], 3);
  const gone = await heartbeat(second, stayer, -1, []);
  assert.equal(gone["errorCode"], ErrorCode.NONE);
  const deleted = await second.call(API.deleteGroups, 2, { groupsNames: ["cg"] });
  assert.equal(at(deleted, "results", 0, "errorCode"), ErrorCode.NONE);
  await second.close();

  const third = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await third.untilLoaded("cg");
  assert.equal((await describe(third))["errorCode"], ErrorCode.GROUP_ID_NOT_FOUND);
  await third.close();
});

test("members fenced when their sessions end are written as gone", async () => {
  const harness = new LogHarness(98);
  const first = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await first.untilLoaded("cg");
  await stableGroupOfTwo(first);
  // No heartbeat for longer than group.consumer.session.timeout.ms (45 s): both are fenced.
  const { timers } = harness.node;
  await harness.run(new Promise<void>((resolve) => timers.schedule(46_000, resolve)));
  const fenced = await describe(first);
  assert.equal(fenced["groupState"], "Empty");
  await first.close();

  const second = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await second.untilLoaded("cg");
  const described = await describe(second);
  assert.equal(described["groupState"], "Empty");
  assert.equal(described["groupEpoch"], fenced["groupEpoch"]);
  assert.deepEqual(described["members"], []);
  await second.close();
});

test("a static member that left for a restart gets its partitions back after it", async () => {
  const harness = new LogHarness(99);
  const first = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await first.untilLoaded("cg");
  const join = { ...CONSUMER_GROUP_JOIN, instanceId: "instance-1" };
  const joined = await first.call(CONSUMER_GROUP_HEARTBEAT, 1, join);
  assert.deepEqual(partitionsOf(joined), [0, 1]);
  const left = await first.call(CONSUMER_GROUP_HEARTBEAT, 1, {
    ...join,
    memberId: joined["memberId"],
    memberEpoch: -2,
  });
  assert.equal(left["memberEpoch"], -2);
  await first.close();

  const second = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await second.untilLoaded("cg");
  assert.equal(at(await describe(second), "members", 0, "instanceId"), "instance-1");
  const rejoined = await second.call(CONSUMER_GROUP_HEARTBEAT, 1, join);
  assert.equal(rejoined["errorCode"], ErrorCode.NONE);
  assert.equal(rejoined["memberEpoch"], 1, "no rebalance: the group epoch stays");
  assert.deepEqual(partitionsOf(rejoined), [0, 1]);
  await second.close();
});
