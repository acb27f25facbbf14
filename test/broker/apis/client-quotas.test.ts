import { test } from "node:test";
import assert from "node:assert/strict";
import { MetadataRecordType as T } from "../../../src/protocol/index.js";
import { full, partitionRecord, topicRecord } from "../../../src/metadata/records.test-support.js";
import { TOPIC_ID, clientBatch } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { fetchRequest, produceRequest } from "./requests.js";

/** A quota of `key` for the default client id: every client id is bound on its own. */
function defaultClientQuota(key: string, value: number) {
  const entity = [{ entityType: "client-id", entityName: null }];
  return full({ type: T.ClientQuotaRecord, data: { entity, key, value, remove: false } });
}

/** A broker with partition 0 of "orders" and a quota of `key` for every client id. */
async function brokerWithQuota(seed: number, key: string, value: number) {
  const broker = await startBroker({ seed, clientQuotas: true });
  await broker.publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1]),
    defaultClientQuota(key, value),
  ]);
  return broker;
}

const records = clientBatch([{ timestamp: 1000, value: "x".repeat(4000) }]);

test("a producer past its byte rate gets a throttle time, which mutes its connection", async () => {
  const broker = await brokerWithQuota(701, "producer_byte_rate", 1000);
  const throttleTimes: number[] = [];
  for (let index = 0; index < 5; index++) {
    const routed = await broker.harness.run(
      broker.send(0, 9, produceRequest({ acks: 1, records })),
    );
    const body = broker.bodyOf(routed, 0, 9);
    assert.equal(at(body, "responses", 0, "partitionResponses", 0, "errorCode"), 0);
    const throttleTimeMs = at(body, "throttleTimeMs") as number;
    assert.equal(routed.kind === "frame" ? (routed.throttleTimeMs ?? 0) : -1, throttleTimeMs);
    throttleTimes.push(throttleTimeMs);
  }
  // 11 windows of 1 s allow 10 000 bytes at 1000 bytes/s: the first two requests fit.
  assert.deepEqual(
    throttleTimes.map((ms) => ms > 0),
    [false, false, true, true, true],
  );
  assert.ok(throttleTimes[3]! > throttleTimes[2]!, "each further request is throttled longer");
});

test("a consumer past its byte rate gets an empty answer, its bytes not counted", async () => {
  const broker = await brokerWithQuota(702, "consumer_byte_rate", 500);
  for (let index = 0; index < 3; index++) {
    await broker.call(0, 9, produceRequest({ acks: 1, records }));
  }
  const fetch = () => broker.call(1, 12, fetchRequest([{ partition: 0, fetchOffset: 0 }]));
  const batches: number[] = [];
  const throttleTimes: number[] = [];
  for (let index = 0; index < 4; index++) {
    const body = await fetch();
    const throttleTimeMs = at(body, "throttleTimeMs") as number;
    if (throttleTimeMs > 0) {
      throttleTimes.push(throttleTimeMs);
      assert.deepEqual(at(body, "responses"), [], "a throttled fetch answers no partition");
      continue;
    }
    const bytes = (at(body, "responses", 0, "partitions", 0, "records") as Uint8Array).length;
    batches.push(bytes);
  }
  // 500 bytes/s over 10 windows bound a fetch to 5000 bytes: one batch of the three, which
  // keeps the rate within the quota; the next fetch would double it.
  assert.equal(batches.length, 1);
  assert.ok(batches[0]! > 4000 && batches[0]! < 5000);
  assert.equal(throttleTimes.length, 3);
  // The bytes of a throttled fetch are taken back: the throttle time does not grow (it would
  // more than double if they counted), only shrinks as the simulated clock moves on.
  const [first = 0, ...later] = throttleTimes;
  for (const ms of later) assert.ok(ms <= first && ms > first - 100, `${ms} after ${first}`);
});
