import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { at } from "../broker/apis/harness.js";
import { GroupBroker } from "./group-broker.js";

const OFFSET_COMMIT = 8;
const OFFSET_FETCH = 9;

/** A commit outside any generation, as an admin's AlterConsumerGroupOffsets sends it. */
function adminCommit(groupId: string, topics: { name: string; partitions: number[] }[]) {
  return {
    groupId,
    generationIdOrMemberEpoch: -1,
    memberId: "",
    topics: topics.map(({ name, partitions }) => ({
      name,
      partitions: partitions.map((partitionIndex) => ({
        partitionIndex,
        committedOffset: 10 + partitionIndex,
        committedLeaderEpoch: -1,
        committedMetadata: "",
      })),
    })),
  };
}

type Answered = { name: string; partitions: { partitionIndex: number; errorCode: number }[] }[];

function codesOf(response: Record<string, unknown>): string[] {
  return (at(response, "topics") as Answered).flatMap(({ name, partitions }) =>
    partitions.map(({ partitionIndex, errorCode }) => `${name}-${partitionIndex}:${errorCode}`),
  );
}

test("a commit to an unknown partition stores nothing there; the rest commits", async () => {
  const broker = await GroupBroker.open(new LogHarness(51), { hasOffsetsTopic: true });
  await broker.untilLoaded("admin");
  const unknown = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
  const committed = await broker.call(
    OFFSET_COMMIT,
    8,
    adminCommit("admin", [
      { name: "orders", partitions: [0, 1, 7] },
      { name: "missing", partitions: [0] },
    ]),
  );
  assert.deepEqual(codesOf(committed), [
    "orders-0:0",
    "orders-1:0",
    `orders-7:${unknown}`,
    `missing-0:${unknown}`,
  ]);
  const fetched = await broker.call(OFFSET_FETCH, 7, {
    groupId: "admin",
    topics: null,
    requireStable: false,
  });
  const stored = (at(fetched, "topics") as { name: string; partitions: unknown[] }[]).map(
    ({ name, partitions }) => `${name}:${partitions.length}`,
  );
  assert.deepEqual(stored, ["orders:2"], "only the known partitions are stored");
  await broker.close();
});

test("a commit of only unknown partitions is answered without the group", async () => {
  const broker = await GroupBroker.open(new LogHarness(52), { hasOffsetsTopic: false });
  // This broker coordinates nothing: the metadata check comes first, as in Kafka.
  const committed = await broker.call(OFFSET_COMMIT, 2, {
    ...adminCommit("nowhere", [{ name: "missing", partitions: [3] }]),
    retentionTimeMs: -1,
  });
  assert.deepEqual(codesOf(committed), [`missing-3:${ErrorCode.UNKNOWN_TOPIC_OR_PARTITION}`]);
  assert.equal(broker.coordinator.state.group("nowhere"), undefined);
  await broker.close();
});
