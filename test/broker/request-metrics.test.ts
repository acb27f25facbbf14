/**
 * The parts of Kafka's RequestMetrics: error counts read off a response body, a request's time
 * split into its parts on a manual clock, Fetch named by who sent it, and Kafka's counting
 * rules of BrokerTopicMetrics.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { PrometheusRegistry } from "../../src/adapters/index.js";
import { ErrorCode } from "../../src/common/index.js";
import { ApiKey, ByteChunks } from "../../src/protocol/index.js";
import { BrokerTopicStats } from "../../src/broker/apis/broker-topic-stats.js";
import { requestNameOf } from "../../src/broker/network/request-descriptions.js";
import { RequestMetrics } from "../../src/broker/network/request-metrics.js";
import { RequestTiming } from "../../src/broker/network/request-timing.js";
import { errorCountsOf } from "../../src/broker/router/error-counts.js";
import { ManualClock } from "../../sim/index.js";

test("error counts take every errorCode field of a response, not the bytes of records", () => {
  const body = {
    errorCode: 0,
    responses: [
      {
        topic: "a",
        partitions: [
          { partitionIndex: 0, errorCode: 0, records: new Uint8Array([0, 0, 0]) },
          { partitionIndex: 1, errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER },
          { partitionIndex: 2, errorCode: 0, records: new ByteChunks([new Uint8Array(4)]) },
        ],
      },
    ],
  };
  assert.deepEqual(
    [...errorCountsOf(body)],
    [
      [ErrorCode.NONE, 3],
      [ErrorCode.NOT_LEADER_OR_FOLLOWER, 1],
    ],
  );
  assert.deepEqual([...errorCountsOf({ throttleTimeMs: 0 })], []);
});

test("a request's time splits into queue, local, remote, response queue and send", async () => {
  const clock = new ManualClock();
  clock.advanceTo(100);
  const timing = new RequestTiming(clock, "Produce", { arrivedMs: 90, takenUpMs: 100 });
  clock.advanceBy(5);
  let release = (): void => undefined;
  const waiting = timing.wait(new Promise<void>((resolve) => (release = resolve)));
  clock.advanceBy(20);
  release();
  await waiting;
  clock.advanceBy(2);
  timing.handled(250);
  clock.advanceBy(3);
  const parts = timing.partsAt({ writtenMs: 130, sentMs: 137 });
  assert.deepEqual(parts, {
    requestQueueMs: 10,
    localMs: 7,
    remoteMs: 20,
    responseQueueMs: 3,
    responseSendMs: 7,
    totalMs: 47,
    throttleMs: 250,
  });
  const registry = new PrometheusRegistry();
  new RequestMetrics(registry).responseSent(timing, { writtenMs: 130, sentMs: 137 });
  const total = registry.histogramOf("kafka_network_requestmetrics_totaltimems", {
    request: "Produce",
  });
  assert.equal(total?.sum, 47);
  const throttle = registry.histogramOf("kafka_network_requestmetrics_throttletimems", {
    request: "Produce",
  });
  assert.equal(throttle?.sum, 250, "a quota's throttle time, apart from the total");
  // Kafka's request times get the millisecond buckets, though the name has no `_ms`.
  assert.equal(total?.bounds[0], 1);
});

test("a Fetch is FetchFollower from a replica and FetchConsumer from a consumer", () => {
  const header = (apiVersion: number) => ({
    apiKey: ApiKey.Fetch,
    apiVersion,
    correlationId: 1,
    clientId: null,
    taggedFields: [],
  });
  assert.equal(requestNameOf(header(12), { replicaId: 2 }), "FetchFollower");
  assert.equal(requestNameOf(header(12), { replicaId: -1 }), "FetchConsumer");
  assert.equal(
    requestNameOf(header(15), { replicaState: { replicaId: 3, replicaEpoch: 7 } }),
    "FetchFollower",
  );
  assert.equal(requestNameOf(header(15), undefined), "FetchConsumer");
  const produce = { ...header(9), apiKey: ApiKey.Produce };
  assert.equal(requestNameOf(produce, {}), "Produce");
});

test("BrokerTopicStats counts as Kafka does: a refusal for the wrong broker is no failure", () => {
  const registry = new PrometheusRegistry();
  const stats = new BrokerTopicStats(registry);
  stats.produced("t", { errorCode: ErrorCode.NONE, records: 5, bytes: 300 });
  stats.produced("t", { errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER, records: 0, bytes: 80 });
  stats.produced("t", { errorCode: ErrorCode.INVALID_RECORD, records: 0, bytes: 80 });
  stats.produced("ghost", {
    errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    records: 0,
    bytes: 1,
  });
  stats.fetched("t", { errorCode: ErrorCode.NONE, bytes: 200, isFollower: false });
  stats.fetched("t", { errorCode: ErrorCode.NONE, bytes: 999, isFollower: true });
  const value = (meter: string, labels = {}) =>
    registry.valueOf(`kafka_server_brokertopicmetrics_${meter}_total`, labels);
  assert.equal(value("messagesin", { topic: "t" }), 5);
  assert.equal(value("bytesin", { topic: "t" }), 300);
  assert.equal(value("totalproducerequests", { topic: "t" }), 3);
  assert.equal(value("totalproducerequests"), 4);
  assert.equal(value("failedproducerequests", { topic: "t" }), 1);
  // A topic the broker does not know gets no series of its own.
  assert.equal(value("totalproducerequests", { topic: "ghost" }), undefined);
  // Followers' bytes are replication, not BytesOut.
  assert.equal(value("bytesout", { topic: "t" }), 200);
  assert.equal(value("totalfetchrequests", { topic: "t" }), 2);
  stats.retainTopics((topic) => topic !== "t");
  assert.equal(value("messagesin", { topic: "t" }), undefined);
  assert.equal(value("messagesin"), 5);
});
