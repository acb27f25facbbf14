import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import {
  DEFAULT_GROUP_CONFIG,
  GroupCoordinatorState,
  type ConsumerHeartbeatRequest,
  type JoinRequest,
} from "../../src/coordinator/index.js";

const config = { ...DEFAULT_GROUP_CONFIG, initialRebalanceDelayMs: 0 };
const topics = {
  topic: (name: string) => (name === "t" ? { topicId: "t-id", partitionCount: 2 } : undefined),
  names: () => ["t"],
  version: 1,
};

function joinHeartbeat(memberId: string): ConsumerHeartbeatRequest {
  return {
    memberId,
    memberEpoch: 0,
    instanceId: null,
    rackId: null,
    rebalanceTimeoutMs: 30_000,
    subscribedTopicNames: ["t"],
    subscribedTopicRegex: null,
    serverAssignor: null,
    topicPartitions: [],
    clientId: "c",
    clientHost: "/h",
  };
}

function classicJoin(newMemberId: string): JoinRequest {
  return {
    memberId: "",
    groupInstanceId: null,
    clientId: "c",
    clientHost: "/h",
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 20_000,
    protocolType: "consumer",
    protocols: [{ name: "range", metadata: new Uint8Array([1]) }],
    requiresKnownMemberId: false,
    newMemberId,
    supportsSkippingAssignment: false,
  };
}

test("a classic JoinGroup to a consumer group with members is INCONSISTENT_GROUP_PROTOCOL", () => {
  const state = new GroupCoordinatorState(config);
  const joined = state.consumerHeartbeat("g", joinHeartbeat("m1"), { nowMs: 0, topics });
  assert.equal(joined.errorCode, ErrorCode.NONE);
  const answer = state.join("g", classicJoin("c1"), 0).result;
  assert.equal(answer.kind, "now");
  assert.equal(
    answer.kind === "now" && answer.result.errorCode,
    ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
  );
  assert.equal(state.group("g"), undefined);
});

test("an emptied consumer group gives its id to a classic JoinGroup", () => {
  const state = new GroupCoordinatorState(config);
  state.consumerHeartbeat("g", joinHeartbeat("m1"), { nowMs: 0, topics });
  const left = { ...joinHeartbeat("m1"), memberEpoch: -1 };
  assert.equal(state.consumerHeartbeat("g", left, { nowMs: 1, topics }).errorCode, 0);
  state.join("g", classicJoin("c1"), 2);
  assert.equal(state.consumer.group("g"), undefined);
  assert.deepEqual([...(state.group("g")?.members.keys() ?? [])], ["c1"]);
});

test("a heartbeat to a classic group with members is GROUP_ID_NOT_FOUND; empty, it yields", () => {
  const state = new GroupCoordinatorState(config);
  state.join("g", classicJoin("c1"), 0);
  const refused = state.consumerHeartbeat("g", joinHeartbeat("m1"), { nowMs: 0, topics });
  assert.equal(refused.errorCode, ErrorCode.GROUP_ID_NOT_FOUND);
  state.leave("g", [{ memberId: "c1", groupInstanceId: null }], 1);
  const taken = state.consumerHeartbeat("g", joinHeartbeat("m1"), { nowMs: 2, topics });
  assert.equal(taken.errorCode, ErrorCode.NONE);
  assert.equal(state.group("g"), undefined);
  assert.deepEqual(state.list(), [
    { groupId: "g", protocolType: "consumer", state: "Stable", groupType: "consumer" },
  ]);
});

test("a commit from a consumer group member carries its member epoch (STALE_MEMBER_EPOCH)", () => {
  const state = new GroupCoordinatorState(config);
  state.consumerHeartbeat("g", joinHeartbeat("m1"), { nowMs: 0, topics });
  const commit = (generationId: number) =>
    state.validateCommit("g", { memberId: "m1", groupInstanceId: null, generationId }, 1);
  assert.equal(commit(1), ErrorCode.NONE);
  assert.equal(commit(0), ErrorCode.STALE_MEMBER_EPOCH);
  assert.equal(state.checkDeletable("g"), ErrorCode.NON_EMPTY_GROUP);
});

test("a consumer member whose session lapses is fenced by the shared tick", () => {
  const consumer = { sessionTimeoutMs: 1_000, heartbeatIntervalMs: 100, maxSize: 10 };
  const state = new GroupCoordinatorState({
    ...config,
    consumer: { ...consumer, assignors: ["uniform"] },
  });
  state.consumerHeartbeat("g", joinHeartbeat("m1"), { nowMs: 0, topics });
  assert.equal(state.nextDeadlineMs(), 1_000);
  state.tick(1_000);
  assert.equal(state.consumer.group("g")?.state, "Empty");
});
