/**
 * OffsetDelete (KIP-496) through the codec and its handler, with Kafka's errors: unknown
 * partitions, topics the group consumes, missing and non-Empty groups.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { encodeVersionPrefixed } from "../../src/protocol/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";
import { API } from "./group-bodies.js";

const OFFSET_DELETE = 47;

/** Commits offsets 10 and 11 for partitions 0 and 1 of "orders" outside any generation. */
async function adminCommit(broker: GroupBroker, groupId: string): Promise<void> {
  const partitions = [0, 1].map((partitionIndex) => ({
    partitionIndex,
    committedOffset: 10 + partitionIndex,
    committedLeaderEpoch: -1,
    committedMetadata: "",
  }));
  const body = { groupId, generationIdOrMemberEpoch: -1, memberId: "", topics: [] as object[] };
  body.topics.push({ name: "orders", partitions });
  const committed = await broker.call(API.offsetCommit, 8, body);
  assert.equal(at(committed, "topics", 0, "partitions", 1, "errorCode"), ErrorCode.NONE);
}

/** The committed offsets of partitions 0 and 1 of "orders" (-1: none). */
async function committedOf(broker: GroupBroker, groupId: string): Promise<number[]> {
  const body = { groupId, topics: [{ name: "orders", partitionIndexes: [0, 1] }] };
  const fetched = await broker.call(API.offsetFetch, 7, { ...body, requireStable: false });
  const partitions = at(fetched, "topics", 0, "partitions") as { committedOffset: number }[];
  return partitions.map((partition) => partition.committedOffset);
}

/** Every partition's error code as `topic-partition:code`, after the top-level one. */
async function offsetDelete(
  broker: GroupBroker,
  groupId: string,
  topics: { name: string; partitions: number[] }[],
): Promise<string[]> {
  const response = await broker.call(OFFSET_DELETE, 0, {
    groupId,
    topics: topics.map(({ name, partitions }) => ({
      name,
      partitions: partitions.map((partitionIndex) => ({ partitionIndex })),
    })),
  });
  type Topic = { name: string; partitions: { partitionIndex: number; errorCode: number }[] };
  const answered = (at(response, "topics") as Topic[]).flatMap(({ name, partitions }) =>
    partitions.map(({ partitionIndex, errorCode }) => `${name}-${partitionIndex}:${errorCode}`),
  );
  return [`top:${String(at(response, "errorCode"))}`, ...answered];
}

/** A Stable group of one member of `protocolType` subscribed (consumer protocol) to `topics`. */
async function stableGroup(broker: GroupBroker, groupId: string, protocol: object) {
  const body = { groupId, sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 20_000, memberId: "" };
  const join = { ...body, ...protocol };
  const joined = await broker.call(API.joinGroup, 3, join);
  const memberId = at(joined, "memberId") as string;
  const sync = { groupId, generationId: 1, memberId, assignments: [] };
  const synced = await broker.call(API.syncGroup, 3, sync);
  assert.equal(at(synced, "errorCode"), ErrorCode.NONE);
}

function consumerOf(topics: string[]) {
  const metadata = encodeVersionPrefixed("ConsumerProtocolSubscription", 1, {
    topics,
    userData: null,
    ownedPartitions: [],
  });
  return { protocolType: "consumer", protocols: [{ name: "range", metadata }] };
}

const UNKNOWN = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;

test("OffsetDelete removes the offsets asked for of an Empty group, and no others", async () => {
  const broker = await GroupBroker.open(new LogHarness(71), { hasOffsetsTopic: true });
  await broker.untilLoaded("empty");
  await adminCommit(broker, "empty");
  const asked = [
    { name: "orders", partitions: [0, 9] },
    { name: "missing", partitions: [0] },
  ];
  const answered = await offsetDelete(broker, "empty", asked);
  assert.deepEqual(answered, [
    "top:0",
    "orders-0:0",
    `orders-9:${UNKNOWN}`,
    `missing-0:${UNKNOWN}`,
  ]);
  assert.deepEqual(await committedOf(broker, "empty"), [-1, 11]);
  await broker.close();
});

test("OffsetDelete refuses a topic the group consumes, and a group that is not there", async () => {
  const broker = await GroupBroker.open(new LogHarness(72), { hasOffsetsTopic: true });
  for (const groupId of ["reading", "elsewhere", "garbled", "connect", "nobody", ""]) {
    await broker.untilLoaded(groupId);
  }
  for (const groupId of ["reading", "elsewhere", "garbled", "connect"]) {
    await adminCommit(broker, groupId);
  }
  await stableGroup(broker, "reading", consumerOf(["orders"]));
  await stableGroup(broker, "elsewhere", consumerOf(["other"]));
  // Consumer-protocol metadata that does not parse: as Kafka, every topic counts as consumed.
  const garbled = {
    protocolType: "consumer",
    protocols: [{ name: "range", metadata: new Uint8Array([7]) }],
  };
  await stableGroup(broker, "garbled", garbled);
  const connect = {
    protocolType: "connect",
    protocols: [{ name: "v0", metadata: new Uint8Array() }],
  };
  await stableGroup(broker, "connect", connect);
  const orders = [{ name: "orders", partitions: [0] }];
  const subscribed = ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC;
  assert.deepEqual(await offsetDelete(broker, "reading", orders), [
    "top:0",
    `orders-0:${subscribed}`,
  ]);
  assert.deepEqual(await committedOf(broker, "reading"), [10, 11]);
  assert.deepEqual(await offsetDelete(broker, "elsewhere", orders), ["top:0", "orders-0:0"]);
  assert.deepEqual(await committedOf(broker, "elsewhere"), [-1, 11]);
  const unparsed = await offsetDelete(broker, "garbled", orders);
  assert.deepEqual(unparsed, ["top:0", `orders-0:${subscribed}`]);
  const nonEmpty = await offsetDelete(broker, "connect", orders);
  assert.deepEqual(nonEmpty, [`top:${ErrorCode.NON_EMPTY_GROUP}`]);
  const missing = await offsetDelete(broker, "nobody", orders);
  assert.deepEqual(missing, [`top:${ErrorCode.GROUP_ID_NOT_FOUND}`]);
  assert.deepEqual(await offsetDelete(broker, "", orders), [`top:${ErrorCode.INVALID_GROUP_ID}`]);
  await broker.close();
});
