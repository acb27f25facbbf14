import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";

const OFFSET_COMMIT = 8;
const OFFSET_FETCH = 9;
const LIST_GROUPS = 16;
const DELETE_GROUPS = 42;

/** A commit outside any generation (as an admin or a self-assigning consumer makes it). */
async function commit(broker: GroupBroker, groupId: string, offsets: Record<number, number>) {
  const partitions = Object.entries(offsets).map(([partition, offset]) => ({
    partitionIndex: Number(partition),
    committedOffset: offset,
    committedLeaderEpoch: 4,
    committedMetadata: `at ${offset}`,
  }));
  const response = await broker.call(OFFSET_COMMIT, 8, {
    groupId,
    generationIdOrMemberEpoch: -1,
    memberId: "",
    topics: [{ name: "orders", partitions }],
  });
  for (const partition of at(response, "topics", 0, "partitions") as { errorCode: number }[]) {
    assert.equal(partition.errorCode, ErrorCode.NONE);
  }
}

/** The committed offsets of `groupId` for partitions 0 and 1 of "orders", by OffsetFetch v7. */
async function fetchOffsets(broker: GroupBroker, groupId: string) {
  const response = await broker.call(OFFSET_FETCH, 7, {
    groupId,
    topics: [{ name: "orders", partitionIndexes: [0, 1] }],
    requireStable: false,
  });
  assert.equal(at(response, "errorCode"), ErrorCode.NONE);
  const partitions = at(response, "topics", 0, "partitions") as {
    partitionIndex: number;
    committedOffset: number;
    committedLeaderEpoch: number;
    metadata: string | null;
    errorCode: number;
  }[];
  return partitions.map((partition) => ({
    partition: partition.partitionIndex,
    offset: partition.committedOffset,
    leaderEpoch: partition.committedLeaderEpoch,
    metadata: partition.metadata,
  }));
}

test("committed offsets survive a restart: the latest wins, deleted groups stay gone", async () => {
  const harness = new LogHarness(41);
  const first = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  for (const groupId of ["kept", "deleted"]) await first.untilLoaded(groupId);
  await commit(first, "kept", { 0: 42, 1: 7 });
  await commit(first, "kept", { 0: 50 });
  await commit(first, "deleted", { 0: 9 });
  const deleted = await first.call(DELETE_GROUPS, 2, { groupsNames: ["deleted"] });
  assert.equal(at(deleted, "results", 0, "errorCode"), ErrorCode.NONE);
  await first.close();

  const second = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  for (const groupId of ["kept", "deleted"]) await second.untilLoaded(groupId);
  assert.deepEqual(await fetchOffsets(second, "kept"), [
    { partition: 0, offset: 50, leaderEpoch: 4, metadata: "at 50" },
    { partition: 1, offset: 7, leaderEpoch: 4, metadata: "at 7" },
  ]);
  // The tombstones DeleteGroups wrote are replayed after the commit they delete.
  assert.deepEqual(await fetchOffsets(second, "deleted"), [
    { partition: 0, offset: -1, leaderEpoch: -1, metadata: "" },
    { partition: 1, offset: -1, leaderEpoch: -1, metadata: "" },
  ]);
  const listed = await second.call(LIST_GROUPS, 4, { statesFilter: [] });
  const groups = at(listed, "groups") as { groupId: string; groupState: string }[];
  assert.deepEqual(
    groups.map(({ groupId, groupState }) => ({ groupId, groupState })),
    [{ groupId: "kept", groupState: "Empty" }],
  );
  await second.close();
});

test("a restart after only deletions loads no group at all", async () => {
  const harness = new LogHarness(42);
  const first = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await first.untilLoaded("short-lived");
  await commit(first, "short-lived", { 0: 3, 1: 4 });
  await first.call(DELETE_GROUPS, 0, { groupsNames: ["short-lived"] });
  await first.close();

  const second = await GroupBroker.open(harness, { hasOffsetsTopic: true });
  await second.untilLoaded("short-lived");
  assert.equal(second.coordinator.state.offsets.hasOffsets("short-lived"), false);
  assert.equal(second.coordinator.state.group("short-lived"), undefined);
  await second.close();
});
