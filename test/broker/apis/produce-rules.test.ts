import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import {
  configRecord,
  partitionChange,
  partitionRecord,
  removeTopic,
  topicRecord,
} from "../../../src/metadata/records.test-support.js";
import { clientBatch, TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { fetchRequest, produceRequest } from "./requests.js";

const TOPIC = 2;
const HOUR_MS = 3_600_000;

async function withTopic(
  seed: number,
  partition: { replicas: number[]; isr?: number[] },
  configs: Record<string, string> = {},
) {
  const broker = await startBroker({ seed });
  const extra = partition.isr === undefined ? {} : { isr: partition.isr };
  await broker.publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, partition.replicas, extra),
    ...Object.entries(configs).map(([name, value]) => configRecord(TOPIC, "orders", name, value)),
  ]);
  return broker;
}

const produceError = (body: unknown) =>
  at(body, "responses", 0, "partitionResponses", 0, "errorCode");

test("a batch larger than max.message.bytes is refused with MESSAGE_TOO_LARGE", async () => {
  const broker = await withTopic(301, { replicas: [1] }, { "max.message.bytes": "200" });
  const timestamps = Array.from({ length: 10 }, (_, index) => ({ timestamp: 1000 + index }));
  const large = clientBatch(timestamps);
  assert.ok(large.length > 200, "the batch is over the limit");
  const refused = await broker.call(0, 9, produceRequest({ acks: 1, records: large }));
  assert.equal(produceError(refused), ErrorCode.MESSAGE_TOO_LARGE);
  const small = await broker.call(0, 9, produceRequest({ acks: 1 }));
  assert.equal(produceError(small), ErrorCode.NONE);
  assert.equal(at(small, "responses", 0, "partitionResponses", 0, "baseOffset"), 0);
});

test("CreateTime outside message.timestamp.before/after.max.ms is INVALID_TIMESTAMP", async () => {
  const configs = {
    "message.timestamp.before.max.ms": String(HOUR_MS),
    "message.timestamp.after.max.ms": String(HOUR_MS),
  };
  const broker = await withTopic(302, { replicas: [1] }, configs);
  const nowMs = broker.harness.node.clock.nowMs();
  const produceAt = (timestamp: number) =>
    broker.call(0, 11, produceRequest({ acks: 1, records: clientBatch([{ timestamp }]) }));
  const tooOld = await produceAt(nowMs - 2 * HOUR_MS);
  assert.equal(produceError(tooOld), ErrorCode.INVALID_TIMESTAMP);
  const tooNew = await produceAt(nowMs + 2 * HOUR_MS);
  assert.equal(produceError(tooNew), ErrorCode.INVALID_TIMESTAMP);
  const recent = await produceAt(nowMs - HOUR_MS / 2);
  assert.equal(produceError(recent), ErrorCode.NONE);
});

test("a follower of the partition refuses produce with NOT_LEADER_OR_FOLLOWER", async () => {
  const broker = await withTopic(303, { replicas: [2, 1] });
  for (const acks of [1, -1]) {
    const refused = await broker.call(0, 11, produceRequest({ acks }));
    assert.equal(produceError(refused), ErrorCode.NOT_LEADER_OR_FOLLOWER, `acks=${acks}`);
  }
});

test("an ISR below min.insync.replicas refuses acks=-1 and accepts acks=1", async () => {
  const broker = await withTopic(
    304,
    { replicas: [1, 2], isr: [1] },
    { "min.insync.replicas": "2" },
  );
  const all = await broker.call(0, 11, produceRequest({ acks: -1 }));
  assert.equal(produceError(all), ErrorCode.NOT_ENOUGH_REPLICAS);
  const leaderOnly = await broker.call(0, 11, produceRequest({ acks: 1 }));
  assert.equal(produceError(leaderOnly), ErrorCode.NONE);
  assert.equal(at(leaderOnly, "responses", 0, "partitionResponses", 0, "baseOffset"), 0);
});

test("a leader change answers a waiting acks=-1 produce at once", async () => {
  const broker = await withTopic(305, { replicas: [1, 2] });
  const started = broker.harness.node.clock.monotonicMs();
  const waiting = broker.send(0, 11, produceRequest({ acks: -1, timeoutMs: 30_000 }));
  await broker.harness.scheduler.runUntil(
    () => broker.purgatories.produce.pendingCount > 0,
    broker.harness.scheduler.nowMs() + 1000,
  );
  assert.equal(broker.purgatories.produce.pendingCount, 1, "waits for broker 2");
  await broker.publish([partitionChange(TOPIC_ID, 0, { leader: 2 })]);
  const answered = broker.bodyOf(await broker.harness.run(waiting), 0, 11);
  assert.equal(produceError(answered), ErrorCode.NOT_LEADER_OR_FOLLOWER);
  assert.equal(broker.purgatories.produce.pendingCount, 0);
  assert.ok(broker.harness.node.clock.monotonicMs() - started < 30_000, "before the timeout");
});

test("a leader change or a deleted topic answers a waiting fetch at once", async () => {
  for (const change of [partitionChange(TOPIC_ID, 0, { leader: 2 }), removeTopic(TOPIC_ID)]) {
    const broker = await withTopic(306, { replicas: [1, 2] });
    const started = broker.harness.node.clock.monotonicMs();
    // With its leader epoch, so that the old leader refuses it: a consumer's Fetch v11+ without
    // one may go on waiting on a follower (KIP-392), as in Kafka.
    const asked = { partition: 0, fetchOffset: 0, currentLeaderEpoch: 0 };
    const fetch = fetchRequest([asked], { maxWaitMs: 30_000 });
    const waiting = broker.send(1, 11, fetch);
    await broker.harness.run(Promise.resolve());
    assert.equal(broker.purgatories.fetch.pendingCount, 1, "waits for bytes");
    await broker.publish([change]);
    const answered = broker.bodyOf(await broker.harness.run(waiting), 1, 11);
    assert.notEqual(at(answered, "responses", 0, "partitions", 0, "errorCode"), ErrorCode.NONE);
    assert.equal(broker.purgatories.fetch.pendingCount, 0);
    assert.ok(broker.harness.node.clock.monotonicMs() - started < 30_000, "before max wait");
  }
});
