/**
 * The consumer group protocol (KIP-848) through the codec and its handlers: a member joins with
 * ConsumerGroupHeartbeat, ConsumerGroupDescribe shows it, DescribeGroups and ListGroups v5 see
 * it as Kafka does, and commits and classic joins are refused with Kafka's errors.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { testUuid } from "../../src/metadata/records.test-support.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";
import { API, CONSUMER_GROUP_JOIN, joinGroupBody } from "./group-bodies.js";

const CONSUMER_GROUP_HEARTBEAT = 68;
const CONSUMER_GROUP_DESCRIBE = 69;
const ORDERS_TOPIC_ID = testUuid(78);

const JOIN = CONSUMER_GROUP_JOIN;

test("a consumer group member joins, is described, and is listed as a consumer group", async () => {
  const broker = await GroupBroker.open(new LogHarness(91), { hasOffsetsTopic: true });
  await broker.untilLoaded("cg");
  const joined = await broker.call(CONSUMER_GROUP_HEARTBEAT, 0, JOIN);
  assert.equal(joined["errorCode"], ErrorCode.NONE);
  assert.equal(joined["memberEpoch"], 1);
  const memberId = joined["memberId"] as string;
  assert.equal(memberId.length, 22);
  assert.deepEqual(at(joined, "assignment", "topicPartitions", 0, "partitions"), [0, 1]);
  assert.equal(at(joined, "assignment", "topicPartitions", 0, "topicId"), ORDERS_TOPIC_ID);

  const described = await broker.call(CONSUMER_GROUP_DESCRIBE, 0, {
    groupIds: ["cg", "missing"],
    includeAuthorizedOperations: false,
  });
  assert.equal(at(described, "groups", 0, "groupState"), "Stable");
  assert.equal(at(described, "groups", 0, "assignorName"), "uniform");
  assert.equal(at(described, "groups", 0, "members", 0, "memberId"), memberId);
  const assigned = at(described, "groups", 0, "members", 0, "assignment", "topicPartitions", 0);
  assert.deepEqual(assigned, { topicId: ORDERS_TOPIC_ID, topicName: "orders", partitions: [0, 1] });
  assert.equal(at(described, "groups", 1, "errorCode"), ErrorCode.GROUP_ID_NOT_FOUND);

  // Kafka's DescribeGroups looks up classic groups only.
  const classicView = await broker.call(API.describeGroups, 5, {
    groups: ["cg"],
    includeAuthorizedOperations: false,
  });
  assert.equal(at(classicView, "groups", 0, "groupState"), "Dead");
  const consumerOnly = await broker.call(API.listGroups, 5, {
    statesFilter: [],
    typesFilter: ["Consumer"],
  });
  assert.deepEqual(at(consumerOnly, "groups"), [
    { groupId: "cg", protocolType: "consumer", groupState: "Stable", groupType: "consumer" },
  ]);
  const classicOnly = await broker.call(API.listGroups, 5, {
    statesFilter: [],
    typesFilter: ["classic"],
  });
  assert.deepEqual(at(classicOnly, "groups"), []);
  await broker.close();
});

test("a stale member epoch commits nothing and a classic member cannot join", async () => {
  const broker = await GroupBroker.open(new LogHarness(92), { hasOffsetsTopic: true });
  await broker.untilLoaded("cg");
  const joined = await broker.call(CONSUMER_GROUP_HEARTBEAT, 0, JOIN);
  const memberId = joined["memberId"] as string;
  const partitions = [
    { partitionIndex: 0, committedOffset: 5, committedLeaderEpoch: -1, committedMetadata: "" },
  ];
  const commit = (memberEpoch: number) =>
    broker.call(API.offsetCommit, 8, {
      groupId: "cg",
      generationIdOrMemberEpoch: memberEpoch,
      memberId,
      groupInstanceId: null,
      topics: [{ name: "orders", partitions }],
    });
  const stale = await commit(0);
  assert.equal(at(stale, "topics", 0, "partitions", 0, "errorCode"), ErrorCode.STALE_MEMBER_EPOCH);
  const current = await commit(1);
  assert.equal(at(current, "topics", 0, "partitions", 0, "errorCode"), ErrorCode.NONE);
  const classic = await broker.call(API.joinGroup, 5, {
    ...joinGroupBody(5, "cg", ""),
    groupInstanceId: null,
  });
  assert.equal(classic["errorCode"], ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
  const left = await broker.call(CONSUMER_GROUP_HEARTBEAT, 0, {
    ...JOIN,
    memberId,
    memberEpoch: -1,
  });
  assert.equal(left["memberEpoch"], -1);
  await broker.close();
});
