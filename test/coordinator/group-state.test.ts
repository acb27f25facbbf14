import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import {
  DEFAULT_GROUP_CONFIG,
  GroupCoordinatorState,
  javaStringHashCode,
  offsetsPartitionFor,
  type JoinRequest,
} from "../../src/coordinator/index.js";

const config = { ...DEFAULT_GROUP_CONFIG, initialRebalanceDelayMs: 0 };
const protocols = [{ name: "range", metadata: new Uint8Array([1]) }];
const DYNAMIC = { groupInstanceId: null, supportsSkippingAssignment: false } as const;

function joinOf(memberId: string, newMemberId: string): JoinRequest {
  const base = { clientId: "c", clientHost: "/h", sessionTimeoutMs: 10_000 };
  const rest = { rebalanceTimeoutMs: 20_000, protocolType: "consumer", protocols };
  return { ...base, ...rest, memberId, requiresKnownMemberId: true, newMemberId, ...DYNAMIC };
}

test("a v4 join first gets MEMBER_ID_REQUIRED, then becomes leader of generation 1", () => {
  const state = new GroupCoordinatorState(config);
  const first = state.join("g", joinOf("", "m1"), 0).result;
  assert.equal(first.kind === "now" && first.result.errorCode, ErrorCode.MEMBER_ID_REQUIRED);
  const second = state.join("g", joinOf("m1", "x"), 1);
  const own = second.deliveries.find((d) => d.memberId === "m1");
  assert.equal(own?.kind, "join");
  assert.equal(own?.kind === "join" && own.result.generationId, 1);
  assert.equal(own?.kind === "join" && own.result.leader, "m1");
  assert.equal(state.group("g")?.state, "CompletingRebalance");
  const sync = state.sync(
    "g",
    {
      memberId: "m1",
      groupInstanceId: null,
      generationId: 1,
      protocolType: null,
      protocolName: null,
      assignments: [{ memberId: "m1", assignment: new Uint8Array([7]) }],
    },
    2,
  );
  // The leader's assignment is handed out once the group's record is durable.
  assert.equal(sync.result.kind, "later");
  assert.deepEqual(sync.deliveries, []);
  const [store] = state.takeClassicStores();
  assert.equal(store?.record?.generationId, 1);
  assert.deepEqual([...(store?.record?.members[0]?.assignment ?? [])], [7]);
  const stored = state.onClassicStored("g", { generationId: 1, errorCode: ErrorCode.NONE }, 2);
  assert.deepEqual(stored[0]?.kind === "sync" && [...stored[0].result.assignment], [7]);
  assert.equal(state.group("g")?.state, "Stable");
  assert.equal(
    state.heartbeat("g", { memberId: "m1", groupInstanceId: null, generationId: 0 }, 3).result,
    ErrorCode.ILLEGAL_GENERATION,
  );
  assert.equal(
    state.heartbeat("g", { memberId: "zz", groupInstanceId: null, generationId: 1 }, 3).result,
    ErrorCode.UNKNOWN_MEMBER_ID,
  );
  assert.equal(
    state.heartbeat("g", { memberId: "m1", groupInstanceId: null, generationId: 1 }, 3).result,
    ErrorCode.NONE,
  );
});

test("a second member triggers a rebalance and an expired member is removed", () => {
  const state = new GroupCoordinatorState(config);
  state.join("g", joinOf("", "m1"), 0);
  state.join("g", joinOf("m1", ""), 0);
  state.sync(
    "g",
    {
      memberId: "m1",
      groupInstanceId: null,
      generationId: 1,
      protocolType: null,
      protocolName: null,
      assignments: [],
    },
    0,
  );
  state.join("g", joinOf("", "m2"), 1);
  const pending = state.join("g", joinOf("m2", ""), 1);
  assert.equal(pending.result.kind, "later");
  assert.equal(
    state.heartbeat("g", { memberId: "m1", groupInstanceId: null, generationId: 1 }, 2).result,
    ErrorCode.REBALANCE_IN_PROGRESS,
  );
  const rejoined = state.join("g", joinOf("m1", ""), 3);
  assert.equal(rejoined.deliveries.length, 2, "both joins are answered");
  assert.equal(state.group("g")?.generationId, 2);
  // m2 never syncs nor heartbeats: after its session both leave the generation.
  state.tick(100_000);
  assert.equal(state.group("g"), undefined, "an empty group without offsets is forgotten");
});

test("an invalid session timeout is refused", () => {
  const state = new GroupCoordinatorState(config);
  const answer = state.join("g", { ...joinOf("", "m"), sessionTimeoutMs: 1 }, 0).result;
  assert.equal(answer.kind === "now" && answer.result.errorCode, ErrorCode.INVALID_SESSION_TIMEOUT);
});

test("groups are placed as Kafka places them (Java String.hashCode)", () => {
  // Java: "hello".hashCode() is 99162322, and "polygenelubricants".hashCode() is MIN_VALUE,
  // which Kafka's Utils.abs maps to 0.
  assert.equal(javaStringHashCode("hello"), 99162322);
  assert.equal(offsetsPartitionFor("hello", 50), 22);
  assert.equal(javaStringHashCode("polygenelubricants"), -2147483648);
  assert.equal(offsetsPartitionFor("polygenelubricants", 50), 0);
});

test("a loaded group over group.max.size rebalances, as Kafka's onLoaded does", () => {
  const member = (memberId: string) => ({
    memberId,
    groupInstanceId: null,
    clientId: "c",
    clientHost: "/h",
    rebalanceTimeoutMs: 20_000,
    sessionTimeoutMs: 10_000,
    subscription: new Uint8Array([1]),
    assignment: new Uint8Array([2]),
  });
  const record = {
    protocolType: "consumer",
    generationId: 4,
    protocolName: "range",
    leaderId: "m1",
    currentStateTimestampMs: -1,
    members: [member("m1"), member("m2")],
  };
  const roomy = new GroupCoordinatorState(config);
  roomy.loadClassicGroup("g", record, 0);
  assert.equal(roomy.group("g")?.state, "Stable");
  assert.equal(roomy.nextDeadlineMs(), 10_000, "the loaded members' sessions");
  const small = new GroupCoordinatorState({ ...config, maxSize: 1 });
  small.loadClassicGroup("g", record, 0);
  assert.equal(small.group("g")?.state, "PreparingRebalance");
  assert.equal(small.group("g")?.generationId, 4);
});
