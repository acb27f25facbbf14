/**
 * KIP-392 on the broker's request path: a leader with `replica.selector.class` names a consumer's
 * preferred read replica; a follower serves consumers' Fetch v11+ up to its high watermark; and
 * ListOffsets stays with the leader except for the debugging replica id.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import {
  partitionChange,
  partitionRecord,
  registerBroker,
  topicRecord,
  unfenceBroker,
} from "../../../src/metadata/records.test-support.js";
import type { DelayedOperationPurgatory } from "../../../src/broker/index.js";
import { rackAwareReplicaSelector } from "../../../src/replication/index.js";
import { clientBatch, TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { fetchRequest, listOffsetsRequest, produceRequest } from "./requests.js";

const fetched = (body: unknown) => at(body, "responses", 0, "partitions", 0) as Partition;

interface Partition {
  readonly errorCode: number;
  readonly highWatermark: number;
  readonly preferredReadReplica: number;
  readonly records: Uint8Array;
}

/** A consumer's Fetch of "orders"-0 from `fetchOffset`, in `rackId`. */
const consumerFetch = (rackId: string, fetchOffset = 0, wait = {}) => ({
  ...fetchRequest([{ partition: 0, fetchOffset }], wait),
  rackId,
});

/**
 * Broker 1 leads "orders"-0 with followers 2 (rack r2) and 3 (rack r3), all in the ISR; two
 * records are produced and both followers have fetched them, so the high watermark is 2.
 */
async function leaderWithFollowers(seed: number, withSelector: boolean) {
  const broker = await startBroker({
    seed,
    ...(withSelector ? { replicaSelector: rackAwareReplicaSelector } : {}),
  });
  await broker.publish([
    registerBroker(2, 20, { rack: "r2" }),
    unfenceBroker(2, 20),
    registerBroker(3, 30, { rack: "r3" }),
    unfenceBroker(3, 30),
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1, 2, 3]),
  ]);
  const produced = await broker.call(0, 9, produceRequest({ acks: 1 }));
  assert.equal(at(produced, "responses", 0, "partitionResponses", 0, "errorCode"), 0);
  for (const replicaId of [2, 3]) {
    const follower = fetchRequest([{ partition: 0, fetchOffset: 2 }], { replicaId });
    assert.equal(fetched(await broker.call(1, 12, follower)).errorCode, 0);
  }
  assert.equal(fetched(await broker.call(1, 11, consumerFetch(""))).highWatermark, 2);
  return broker;
}

test("a leader sends a consumer in a follower's rack to that follower, unread", async () => {
  const broker = await leaderWithFollowers(3921, true);
  for (const version of [11, 15, 17]) {
    const answer = fetched(await broker.call(1, version, consumerFetch("r2")));
    assert.equal(answer.errorCode, ErrorCode.NONE, `v${version}`);
    assert.equal(answer.preferredReadReplica, 2, `v${version}`);
    assert.equal(answer.records.byteLength, 0, `v${version}: the read is skipped`);
    assert.equal(answer.highWatermark, 2, `v${version}: the leader's offsets`);
  }
  const inR3 = fetched(await broker.call(1, 11, consumerFetch("r3")));
  assert.equal(inR3.preferredReadReplica, 3);
});

test("a consumer without a matching rack, or before Fetch v11, reads from the leader", async () => {
  const broker = await leaderWithFollowers(3922, true);
  for (const rackId of ["", "r9"]) {
    const answer = fetched(await broker.call(1, 11, consumerFetch(rackId)));
    assert.equal(answer.preferredReadReplica, -1, `rack "${rackId}"`);
    assert.ok(answer.records.byteLength > 0, `rack "${rackId}" is served by the leader`);
  }
  const old = fetched(await broker.call(1, 10, consumerFetch("r2")));
  assert.equal(old.preferredReadReplica, -1, "v10 has no rack: the decoder's default");
  assert.ok(old.records.byteLength > 0);
});

test("without replica.selector.class the leader serves every consumer itself", async () => {
  const broker = await leaderWithFollowers(3923, false);
  const answer = fetched(await broker.call(1, 17, consumerFetch("r2")));
  assert.equal(answer.preferredReadReplica, -1);
  assert.ok(answer.records.byteLength > 0);
});

test("a follower that has not fetched up to the consumer's offset is not preferred", async () => {
  const broker = await leaderWithFollowers(3924, true);
  await broker.call(0, 9, produceRequest({ acks: 1 }));
  // Follower 3 fetches the new records; follower 2's log still ends at 2.
  const follower3 = fetchRequest([{ partition: 0, fetchOffset: 4 }], { replicaId: 3 });
  assert.equal(fetched(await broker.call(1, 12, follower3)).errorCode, 0);
  const atThree = fetched(await broker.call(1, 11, consumerFetch("r2", 3)));
  assert.equal(atThree.preferredReadReplica, -1);
  const atTwo = fetched(await broker.call(1, 11, consumerFetch("r2", 2)));
  assert.equal(atTwo.preferredReadReplica, 2);
});

test("a waiting consumer is sent to its preferred replica at once", async () => {
  const broker = await leaderWithFollowers(3925, true);
  const wait = { maxWaitMs: 30_000, minBytes: 1 << 20 };
  const started = broker.harness.node.clock.monotonicMs();
  const answer = fetched(await broker.call(1, 11, consumerFetch("r2", 2, wait)));
  assert.equal(answer.preferredReadReplica, 2);
  assert.equal(broker.purgatories.fetch.pendingCount, 0);
  assert.equal(broker.harness.node.clock.monotonicMs(), started, "no wait in the purgatory");
});

test("an incremental fetch session carries the preferred replica on every answer", async () => {
  const broker = await leaderWithFollowers(3926, true);
  const opened = await broker.call(1, 11, { ...consumerFetch("r2", 2), sessionEpoch: 0 });
  assert.equal(fetched(opened).preferredReadReplica, 2);
  const sessionId = at(opened, "sessionId") as number;
  assert.ok(sessionId > 0);
  const next = { ...consumerFetch("r2", 2), sessionId, sessionEpoch: 1, topics: [] };
  const again = await broker.call(1, 11, next);
  assert.equal(fetched(again).preferredReadReplica, 2, "the unchanged partition is answered");
});

/** Broker 1 follows "orders"-0 (epoch 1) led by broker 2; it holds 3 records, 2 committed. */
async function followerWithRecords(seed: number) {
  const broker = await startBroker({ seed });
  await broker.publish([
    registerBroker(2, 20, { rack: "r2" }),
    unfenceBroker(2, 20),
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [2, 1]),
  ]);
  await broker.publish([partitionChange(TOPIC_ID, 0, { leader: 2 })]);
  const lookup = broker.replicaManager.getPartitionOrError({ topic: "orders", partition: 0 });
  assert.ok(lookup.kind === "online");
  const { partition } = lookup;
  for (const baseOffset of [0, 1, 2]) {
    const batch = clientBatch([{ timestamp: 1 }], { baseOffset, partitionLeaderEpoch: 1 });
    const appended = await broker.harness.run(
      partition.appendRecordsAsFollower(batch, { fetchLeaderEpoch: 1, nowMs: 1 }),
    );
    assert.equal(appended.kind, "appended");
  }
  await broker.harness.run(
    partition.updateFollowerOffsets({ highWatermark: 2, logStartOffset: 0 }),
  );
  assert.equal(partition.highWatermark, 2);
  return { broker, partition };
}

test("a follower serves a consumer's Fetch v11+ up to its own high watermark", async () => {
  const { broker } = await followerWithRecords(3927);
  const answer = fetched(await broker.call(1, 11, consumerFetch("r1")));
  assert.equal(answer.errorCode, ErrorCode.NONE);
  assert.equal(answer.highWatermark, 2);
  assert.equal(answer.preferredReadReplica, -1, "only a leader names a preferred replica");
  const batches = countBatches(answer.records);
  assert.deepEqual(batches, [0, 1], "the uncommitted record at offset 2 is not served");
  const withEpoch = { ...consumerFetch(""), topics: [withLeaderEpoch(1)] };
  assert.equal(fetched(await broker.call(1, 17, withEpoch)).errorCode, ErrorCode.NONE);
});

test("a follower gives nothing past its high watermark and refuses past its log end", async () => {
  const { broker } = await followerWithRecords(3928);
  const atWatermark = fetched(await broker.call(1, 11, consumerFetch("", 2)));
  assert.equal(atWatermark.errorCode, ErrorCode.NONE);
  assert.equal(atWatermark.records.byteLength, 0);
  const atLogEnd = fetched(await broker.call(1, 11, consumerFetch("", 3)));
  assert.equal(atLogEnd.errorCode, ErrorCode.NONE, "ahead of the HW, within the log");
  assert.equal(atLogEnd.records.byteLength, 0);
  const beyond = fetched(await broker.call(1, 11, consumerFetch("", 4)));
  assert.equal(beyond.errorCode, ErrorCode.OFFSET_OUT_OF_RANGE);
});

test("a follower refuses consumers before Fetch v11, which must read from the leader", async () => {
  const { broker } = await followerWithRecords(3929);
  const answer = fetched(await broker.call(1, 10, consumerFetch("")));
  assert.equal(answer.errorCode, ErrorCode.NOT_LEADER_OR_FOLLOWER);
});

test("a consumer waiting on a follower is answered when replication moves its HW", async () => {
  const { broker, partition } = await followerWithRecords(3930);
  const parked = whenParked(broker.purgatories.fetch);
  const waiting = broker.send(1, 11, consumerFetch("", 2, { maxWaitMs: 30_000 }));
  const first = await broker.harness.run(
    Promise.race([parked.then(() => "parked"), waiting.then(() => "answered")]),
  );
  assert.equal(first, "parked", "waits for committed bytes");
  assert.equal(broker.purgatories.fetch.pendingCount, 1);
  await broker.harness.run(
    partition.updateFollowerOffsets({ highWatermark: 3, logStartOffset: 0 }),
  );
  const answer = fetched(broker.bodyOf(await broker.harness.run(waiting), 1, 11));
  assert.equal(answer.errorCode, ErrorCode.NONE);
  assert.equal(answer.highWatermark, 3);
  assert.deepEqual(countBatches(answer.records), [2]);
});

test("ListOffsets at a follower answers the debugging replica id only", async () => {
  const { broker } = await followerWithRecords(3931);
  const latest = [{ partitionIndex: 0, timestamp: -1 }];
  const consumer = await broker.call(2, 7, listOffsetsRequest(latest));
  const asConsumer = at(consumer, "topics", 0, "partitions", 0, "errorCode");
  assert.equal(asConsumer, ErrorCode.NOT_LEADER_OR_FOLLOWER);
  const debugging = await broker.call(2, 7, { ...listOffsetsRequest(latest), replicaId: -2 });
  const answer = at(debugging, "topics", 0, "partitions", 0) as Record<string, unknown>;
  assert.equal(answer["errorCode"], ErrorCode.NONE);
  assert.equal(answer["offset"], 3, "a debugging tool sees the log end, as in Kafka");
});

/** Resolves once the purgatory is given an operation to watch. */
function whenParked(purgatory: DelayedOperationPurgatory): Promise<void> {
  return new Promise((resolve) => {
    const watch = purgatory.tryCompleteElseWatch.bind(purgatory);
    purgatory.tryCompleteElseWatch = (operation, keys) => {
      const isCompleted = watch(operation, keys);
      resolve();
      return isCompleted;
    };
  });
}

/** The partition entry of "orders"-0 with a current leader epoch. */
function withLeaderEpoch(currentLeaderEpoch: number) {
  return {
    topic: "orders",
    topicId: TOPIC_ID,
    partitions: [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1 << 20, currentLeaderEpoch }],
  };
}

/** The base offsets of the batches in a record set. */
function countBatches(records: Uint8Array): number[] {
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const baseOffsets: number[] = [];
  for (let position = 0; position + 12 <= records.byteLength;) {
    baseOffsets.push(Number(view.getBigInt64(position)));
    position += 12 + view.getInt32(position + 8);
  }
  return baseOffsets;
}
