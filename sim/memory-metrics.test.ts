import { test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError } from "../src/common/index.js";
import { MemoryMetricsSink } from "./memory-metrics.js";

test("values read back by name and labels in any order", () => {
  const metrics = new MemoryMetricsSink();
  metrics.counter("requests_total", "Requests.", { api: "Fetch", node: "1" }).inc(2);
  metrics.counter("requests_total", "Requests.", { node: "1", api: "Fetch" }).inc();
  metrics.gauge("open", "Open.").set(7);
  const latency = metrics.histogram("latency_ms", "Latency.", { api: "Fetch" });
  latency.observe(3);
  latency.observe(1);
  assert.equal(metrics.valueOf("requests_total", { node: "1", api: "Fetch" }), 3);
  assert.equal(metrics.valueOf("requests_total", { api: "Produce" }), undefined);
  assert.equal(metrics.valueOf("open"), 7);
  assert.equal(metrics.valueOf("latency_ms", { api: "Fetch" }), 2);
  assert.deepEqual(metrics.observationsOf("latency_ms", { api: "Fetch" }), [3, 1]);
  assert.equal(metrics.observationsOf("open"), undefined);
  assert.equal(metrics.typeOf("latency_ms"), "histogram");
  assert.deepEqual(metrics.labelSetsOf("requests_total"), [{ api: "Fetch", node: "1" }]);
});

test("another type or help text for a known name fails an assertion, as in the node", () => {
  const metrics = new MemoryMetricsSink();
  metrics.counter("x_total", "X.");
  assert.throws(() => metrics.gauge("x_total", "X."), AssertionError);
  assert.throws(() => metrics.counter("x_total", "Y."), AssertionError);
  assert.throws(() => metrics.counter("x_total", "X.").inc(-1), AssertionError);
});
