import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ReplicationQuota, throttledPartitionsOf } from "./replication-quota.js";
import { WindowedRate } from "./windowed-rate.js";

const KAFKA_WINDOW = { samples: 11, windowMs: 1000 };

test("a first burst is measured over one whole window, not over the instant it took", () => {
  const rate = new WindowedRate(KAFKA_WINDOW);
  rate.record(1000, 0);
  assert.equal(rate.perSecond(0), 1000);
  assert.equal(rate.perSecond(500), 1000);
  assert.equal(rate.perSecond(5000), 200, "then over the time since the oldest sample began");
});

test("values fall into samples of one window each, summed over the time they span", () => {
  const rate = new WindowedRate(KAFKA_WINDOW);
  rate.record(500, 0);
  rate.record(500, 1000);
  rate.record(1000, 1999);
  assert.equal(rate.perSecond(2000), 1000);
});

test("a sample stops counting once its last value is samples times the window old", () => {
  const rate = new WindowedRate(KAFKA_WINDOW);
  rate.record(11_000, 0);
  assert.equal(rate.perSecond(10_999), 11_000 / 10.999);
  assert.equal(rate.perSecond(11_000), 0);
  rate.record(300, 11_500);
  assert.equal(rate.perSecond(11_500), 300, "the rate starts over with the next value");
});

test("old samples are reused: a steady rate reads as itself however long it runs", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 30, max: 300 }), (b, s) => {
      const rate = new WindowedRate({ samples: 3, windowMs: 100 });
      // b bytes every 10 ms for s * 10 ms: b * 100 bytes per second.
      for (let tick = 0; tick < s; tick++) rate.record(b, tick * 10);
      const measured = rate.perSecond((s - 1) * 10);
      // The span covers between two and three windows of values, plus the current sample.
      return measured >= b * 100 * 0.75 && measured <= b * 100 * 1.5;
    }),
  );
});

test("the quota is exceeded only above its bound, and never without one", () => {
  const quota = new ReplicationQuota(KAFKA_WINDOW);
  quota.record(5000, 0);
  assert.equal(quota.isQuotaExceeded(0), false, "no bound: Kafka's Long.MAX_VALUE");
  quota.updateBound(1000);
  assert.equal(quota.isQuotaExceeded(0), true, "bytes counted before the bound still count");
  assert.equal(quota.isQuotaExceeded(4999), true);
  assert.equal(quota.isQuotaExceeded(5000), false, "5000 bytes over 5 s is the bound itself");
});

test("throttled replicas are the named partitions of this broker, or every one for *", () => {
  assert.equal(throttledPartitionsOf("*", 1), "all");
  assert.deepEqual(throttledPartitionsOf("0:1, 1:2 ,2:1", 1), new Set([0, 2]));
  assert.deepEqual(throttledPartitionsOf("0:2", 1), new Set());
  assert.equal(throttledPartitionsOf("", 1), undefined);
  const quota = new ReplicationQuota(KAFKA_WINDOW);
  quota.updateTopic("orders", new Set([1]));
  assert.equal(quota.isThrottled({ topic: "orders", partition: 1 }), true);
  assert.equal(quota.isThrottled({ topic: "orders", partition: 0 }), false);
  assert.equal(quota.isThrottled({ topic: "payments", partition: 1 }), false);
  quota.updateTopic("orders", undefined);
  assert.equal(quota.isThrottled({ topic: "orders", partition: 1 }), false);
});
