import { test } from "node:test";
import assert from "node:assert/strict";
import {
  configRecord,
  partitionRecord,
  topicRecord,
} from "../../../src/metadata/records.test-support.js";
import { DelayedFetch, fetchPositionOf } from "../../../src/broker/delayed/index.js";
import { clientBatch, TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { fetchRequest, produceRequest } from "./requests.js";

const TOPIC = 2;
const BROKER = 4;
const BATCH = clientBatch([{ timestamp: 1000 }, { timestamp: 2000 }]);
const RATE_BYTES_PER_SECOND = 100;

/**
 * Broker 1 leads "orders"-0 and -1 on replicas 1, 2 and 3 with ISR {1, 3}, three batches each;
 * its leader side throttles partition 0 (its own replica, "0:1") at 100 bytes per second.
 */
async function throttledLeader(seed: number) {
  const broker = await startBroker({ seed });
  await broker.publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1, 2, 3], { isr: [1, 3] }),
    partitionRecord(TOPIC_ID, 1, [1, 2, 3], { isr: [1, 3] }),
    configRecord(TOPIC, "orders", "leader.replication.throttled.replicas", "0:1"),
    configRecord(BROKER, "1", "leader.replication.throttled.rate", String(RATE_BYTES_PER_SECOND)),
  ]);
  for (const partition of [0, 1]) {
    for (let batch = 0; batch < 3; batch++) {
      await broker.call(0, 11, produceRequest({ acks: 1, partition, records: BATCH }));
    }
  }
  const both = [
    { partition: 0, fetchOffset: 0 },
    { partition: 1, fetchOffset: 0 },
  ];
  const fetchBoth = async (replicaId: number) => {
    const body = await broker.call(1, 12, fetchRequest(both, { replicaId }));
    return [0, 1].map(
      (index) => (at(body, "responses", 0, "partitions", index, "records") as Uint8Array).length,
    );
  };
  const wait = (delayMs: number) =>
    broker.harness.run(
      new Promise<void>((resolve) => broker.harness.node.timers.schedule(delayMs, resolve)),
    );
  return { broker, fetchBoth, wait };
}

test("over the quota a throttled follower out of the ISR gets no bytes, others do", async () => {
  const { broker, fetchBoth } = await throttledLeader(601);
  const quota = broker.replicaManager.replicationQuotas.leader;
  const all = 3 * BATCH.length;
  assert.deepEqual(await fetchBoth(2), [all, all], "under the quota everything is sent");
  assert.ok(quota.isQuotaExceeded(), "the throttled partition's bytes were counted");
  assert.deepEqual(await fetchBoth(2), [0, all], "only the throttled replica is held back");
  assert.deepEqual(await fetchBoth(3), [all, all], "an ISR member is never held back");
  // ISR member 3 at the log end (6 records) takes the high watermark there, for consumers.
  const atEnd = [0, 1].map((partition) => ({ partition, fetchOffset: 6 }));
  await broker.call(1, 12, fetchRequest(atEnd, { replicaId: 3 }));
  assert.deepEqual(await fetchBoth(-1), [all, all], "consumers are not throttled");
});

test("the throttle lets bytes through again once the rate falls under the bound", async () => {
  const { broker, fetchBoth, wait } = await throttledLeader(602);
  const quota = broker.replicaManager.replicationQuotas.leader;
  await fetchBoth(2);
  assert.deepEqual(await fetchBoth(2), [0, 3 * BATCH.length]);
  const sentBytes = 3 * BATCH.length;
  // The rate is the bytes over the span since the first sample, so it falls under the bound.
  await wait(Math.ceil((sentBytes / RATE_BYTES_PER_SECOND) * 1000) + 1);
  assert.equal(quota.isQuotaExceeded(), false);
  assert.deepEqual(await fetchBoth(2), [sentBytes, sentBytes]);
});

test("changing the configs changes the throttle at once", async () => {
  const { broker, fetchBoth } = await throttledLeader(603);
  const all = 3 * BATCH.length;
  await fetchBoth(2);
  assert.deepEqual(await fetchBoth(2), [0, all]);
  await broker.publish([configRecord(BROKER, "1", "leader.replication.throttled.rate", null)]);
  assert.deepEqual(await fetchBoth(2), [all, all], "no rate: no bound");
  await broker.publish([
    configRecord(BROKER, "", "leader.replication.throttled.rate", "1"),
    configRecord(TOPIC, "orders", "leader.replication.throttled.replicas", "*"),
  ]);
  assert.deepEqual(await fetchBoth(2), [0, 0], "the cluster default bound, every partition");
  await broker.publish([
    configRecord(TOPIC, "orders", "leader.replication.throttled.replicas", null),
  ]);
  assert.deepEqual(await fetchBoth(2), [all, all], "no throttled replicas");
});

test("a held-back replica's new data does not end a follower's wait in the purgatory", async () => {
  const { broker, fetchBoth } = await throttledLeader(604);
  await fetchBoth(2);
  const { replicaManager } = broker;
  const topicPartition = { topic: "orders", partition: 0 };
  const lookup = replicaManager.getPartitionOrError(topicPartition);
  assert.ok(lookup.kind === "online");
  const parkedAt = (replicaId: number) =>
    new DelayedFetch({
      delayMs: 500,
      minBytes: 1,
      isFollower: true,
      lookup: (asked) => replicaManager.getPartitionOrError(asked),
      isThrottled: (partition) =>
        replicaManager.replicationQuotas.shouldLeaderThrottle(partition, replicaId),
      partitions: [
        {
          topicPartition,
          fetchOffset: 6,
          currentLeaderEpoch: 0,
          fetchPosition: fetchPositionOf(lookup.partition, 6),
        },
      ],
    });
  const [throttled, inSync] = [parkedAt(2), parkedAt(3)];
  assert.deepEqual([throttled.tryComplete(), inSync.tryComplete()], [false, false]);
  await broker.call(0, 11, produceRequest({ acks: 1, partition: 0, records: BATCH }));
  assert.equal(inSync.tryComplete(), true, "the ISR member's bytes are there");
  assert.equal(throttled.tryComplete(), false, "the held-back replica's would not be sent");
});
