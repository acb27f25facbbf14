/**
 * Regular expression subscriptions (KIP-848) through the codec and the handlers: a
 * ConsumerGroupHeartbeat v1 with SubscribedTopicRegex is assigned the matching topics, follows
 * topics created and deleted, is described with its regex, keeps OffsetDelete off its topics,
 * a scoped case flag folds its group only, and a regex RE2/J refuses is
 * INVALID_REGULAR_EXPRESSION.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import {
  partitionRecord,
  removeTopic,
  testUuid,
  topicRecord,
} from "../../src/metadata/records.test-support.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";
import { API, CONSUMER_GROUP_JOIN } from "./group-bodies.js";

const CONSUMER_GROUP_HEARTBEAT = 68;
const CONSUMER_GROUP_DESCRIBE = 69;
const ORDERS_TOPIC_ID = testUuid(78);
const ORDERS_EU_TOPIC_ID = testUuid(79);

const JOIN = { ...CONSUMER_GROUP_JOIN, subscribedTopicNames: [], subscribedTopicRegex: "ord.*" };

function topicIds(answer: Record<string, unknown>): string[] {
  const topics = at(answer, "assignment", "topicPartitions") as { topicId: string }[];
  return topics.map((topic) => topic.topicId).sort();
}

test("a regex member is assigned the matching topics and follows topic creation", async () => {
  const broker = await GroupBroker.open(new LogHarness(93), { hasOffsetsTopic: true });
  await broker.untilLoaded("cg");
  const joined = await broker.call(CONSUMER_GROUP_HEARTBEAT, 1, JOIN);
  assert.equal(joined["errorCode"], ErrorCode.NONE);
  assert.deepEqual(topicIds(joined), [ORDERS_TOPIC_ID]);
  const memberId = joined["memberId"] as string;
  const heartbeat = (memberEpoch: number, topicPartitions: object[] | null = null) =>
    broker.call(CONSUMER_GROUP_HEARTBEAT, 1, {
      ...JOIN,
      memberId,
      memberEpoch,
      rebalanceTimeoutMs: -1,
      subscribedTopicNames: null,
      subscribedTopicRegex: null,
      topicPartitions,
    });

  broker.publish([
    topicRecord("orders-eu", ORDERS_EU_TOPIC_ID),
    partitionRecord(ORDERS_EU_TOPIC_ID, 0, [1]),
  ]);
  const grown = await heartbeat(1);
  assert.equal(grown["memberEpoch"], 2);
  assert.deepEqual(topicIds(grown), [ORDERS_TOPIC_ID, ORDERS_EU_TOPIC_ID].sort());

  const described = await broker.call(CONSUMER_GROUP_DESCRIBE, 0, {
    groupIds: ["cg"],
    includeAuthorizedOperations: false,
  });
  assert.equal(at(described, "groups", 0, "members", 0, "subscribedTopicRegex"), "ord.*");
  // OffsetDelete sees a consumer group and the topics its regex resolves to.
  const deleted = await broker.call(API.offsetDelete, 0, {
    groupId: "cg",
    topics: [{ name: "orders-eu", partitions: [{ partitionIndex: 0 }] }],
  });
  assert.equal(deleted["errorCode"], ErrorCode.NONE);
  const subscribed = ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC;
  assert.equal(at(deleted, "topics", 0, "partitions", 0, "errorCode"), subscribed);

  broker.publish([removeTopic(ORDERS_EU_TOPIC_ID)]);
  // The member first revokes the deleted topic's partition, then moves to the new epoch.
  const revoking = await heartbeat(2);
  assert.equal(revoking["memberEpoch"], 2);
  assert.deepEqual(topicIds(revoking), [ORDERS_TOPIC_ID]);
  const shrunk = await heartbeat(2, [{ topicId: ORDERS_TOPIC_ID, partitions: [0, 1] }]);
  assert.equal(shrunk["memberEpoch"], 3);
  await broker.close();
});

test("a scoped (?i:...) of a regex folds case in its group only", async () => {
  const broker = await GroupBroker.open(new LogHarness(95), { hasOffsetsTopic: true });
  await broker.untilLoaded("cg");
  broker.publish([
    topicRecord("ORDERS-eu", ORDERS_EU_TOPIC_ID),
    partitionRecord(ORDERS_EU_TOPIC_ID, 0, [1]),
  ]);
  const joined = await broker.call(CONSUMER_GROUP_HEARTBEAT, 1, {
    ...JOIN,
    subscribedTopicRegex: "(?i:orders)(-eu)?",
  });
  assert.equal(joined["errorCode"], ErrorCode.NONE);
  assert.deepEqual(topicIds(joined), [ORDERS_TOPIC_ID, ORDERS_EU_TOPIC_ID].sort());
  const other = await broker.call(CONSUMER_GROUP_HEARTBEAT, 1, {
    ...JOIN,
    subscribedTopicRegex: "(?i:orders)-EU",
  });
  assert.equal(other["errorCode"], ErrorCode.NONE);
  assert.deepEqual(topicIds(other), [], "-EU is matched as written");
  await broker.close();
});

test("a regex RE2/J refuses is INVALID_REGULAR_EXPRESSION and admits no member", async () => {
  const broker = await GroupBroker.open(new LogHarness(94), { hasOffsetsTopic: true });
  await broker.untilLoaded("cg");
  const refused = await broker.call(CONSUMER_GROUP_HEARTBEAT, 1, {
    ...JOIN,
    subscribedTopicRegex: "(?<=x)orders",
  });
  assert.equal(refused["errorCode"], ErrorCode.INVALID_REGULAR_EXPRESSION);
  assert.match(String(refused["errorMessage"]), /^SubscribedTopicRegex `\(\?<=x\)orders` is not/);
  const listed = await broker.call(API.listGroups, 5, { statesFilter: [], typesFilter: [] });
  assert.deepEqual(at(listed, "groups"), []);
  await broker.close();
});
