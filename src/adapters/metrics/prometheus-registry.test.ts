import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { AssertionError } from "../../common/index.js";
import { PrometheusRegistry } from "./prometheus-registry.js";
import { MILLISECONDS_BUCKETS, SECONDS_BUCKETS, BYTES_BUCKETS } from "./histogram-buckets.js";

test("renders counters, gauges and histograms in the text format, sorted and escaped", () => {
  const registry = new PrometheusRegistry({ bucketsByName: { sluice_fetch_ms: [1, 10] } });
  registry.gauge("sluice_connections_open", "Open client connections.").set(3);
  const produce = registry.counter("sluice_requests_total", "Requests by API.", { api: "Produce" });
  registry.counter("sluice_requests_total", "Requests by API.", { api: "Fetch" }).inc(2);
  produce.inc();
  produce.inc(4);
  const latency = registry.histogram("sluice_fetch_ms", "Fetch latency.", { api: "Fetch" });
  for (const value of [0.5, 1, 7, 200]) latency.observe(value);
  registry.gauge("sluice_log_dir_offline", 'Help with \\ and\nnewline "kept".', {
    dir: 'C:\\data\n"x"',
  });
  assert.equal(
    registry.render(),
    [
      "# HELP sluice_connections_open Open client connections.",
      "# TYPE sluice_connections_open gauge",
      "sluice_connections_open 3",
      "# HELP sluice_fetch_ms Fetch latency.",
      "# TYPE sluice_fetch_ms histogram",
      'sluice_fetch_ms_bucket{api="Fetch",le="1"} 2',
      'sluice_fetch_ms_bucket{api="Fetch",le="10"} 3',
      'sluice_fetch_ms_bucket{api="Fetch",le="+Inf"} 4',
      'sluice_fetch_ms_sum{api="Fetch"} 208.5',
      'sluice_fetch_ms_count{api="Fetch"} 4',
      '# HELP sluice_log_dir_offline Help with \\\\ and\\nnewline "kept".',
      "# TYPE sluice_log_dir_offline gauge",
      'sluice_log_dir_offline{dir="C:\\\\data\\n\\"x\\""} 0',
      "# HELP sluice_requests_total Requests by API.",
      "# TYPE sluice_requests_total counter",
      'sluice_requests_total{api="Fetch"} 2',
      'sluice_requests_total{api="Produce"} 5',
      "",
    ].join("\n"),
  );
});

test("a histogram without labels puts le alone in its braces", () => {
  const registry = new PrometheusRegistry({ bucketsByName: { sluice_batch_bytes: [100] } });
  registry.histogram("sluice_batch_bytes", "Batch sizes.").observe(100);
  assert.match(registry.render(), /^sluice_batch_bytes_bucket\{le="100"\} 1$/m);
  assert.match(registry.render(), /^sluice_batch_bytes_bucket\{le="\+Inf"\} 1$/m);
  assert.match(registry.render(), /^sluice_batch_bytes_sum 100$/m);
});

test("special values are written as Prometheus spells them", () => {
  const registry = new PrometheusRegistry();
  registry.gauge("a", "a").set(Number.NaN);
  registry.gauge("b", "b").set(Number.POSITIVE_INFINITY);
  registry.gauge("c", "c").set(Number.NEGATIVE_INFINITY);
  registry.gauge("d", "d").set(1e21);
  registry.gauge("e", "e").set(-0.25);
  const samples = registry
    .render()
    .split("\n")
    .filter((line) => !line.startsWith("#"));
  assert.deepEqual(samples, ["a NaN", "b +Inf", "c -Inf", "d 1e+21", "e -0.25", ""]);
});

test("an empty registry renders nothing", () => {
  assert.equal(new PrometheusRegistry().render(), "");
});

test("the same name and labels, in any order, give the same series", () => {
  const registry = new PrometheusRegistry();
  const first = registry.counter("x_total", "X.", { a: "1", b: "2" });
  const second = registry.counter("x_total", "X.", { b: "2", a: "1" });
  assert.equal(first, second);
  first.inc();
  second.inc();
  assert.equal(registry.valueOf("x_total", { b: "2", a: "1" }), 2);
  assert.equal(registry.valueOf("x_total", { a: "1" }), undefined);
  assert.equal(registry.valueOf("y_total"), undefined);
});

test("a name registered with another type or help text fails an assertion", () => {
  const registry = new PrometheusRegistry();
  registry.counter("x_total", "X.");
  assert.throws(() => registry.gauge("x_total", "X."), AssertionError);
  assert.throws(() => registry.counter("x_total", "Other help."), AssertionError);
  assert.throws(() => registry.histogram("x_total", "X.", { a: "1" }), AssertionError);
});

test("names that would write another metric's samples fail an assertion", () => {
  const registry = new PrometheusRegistry();
  registry.histogram("latency_ms", "Latency.");
  assert.throws(() => registry.counter("latency_ms_count", "Count."), AssertionError);
  registry.gauge("size_sum", "Sum.");
  assert.throws(() => registry.histogram("size", "Sizes."), AssertionError);
});

test("invalid names, labels, increments and observations fail assertions", () => {
  const registry = new PrometheusRegistry();
  assert.throws(() => registry.counter("9lives", "x"), AssertionError);
  assert.throws(() => registry.counter("with-dash", "x"), AssertionError);
  assert.throws(() => registry.counter("ok_total", "x", { "bad-label": "v" }), AssertionError);
  assert.throws(() => registry.counter("ok_total", "x", { __reserved: "v" }), AssertionError);
  assert.throws(() => registry.histogram("h_ms", "x", { le: "1" }), AssertionError);
  assert.throws(() => registry.counter("ok_total", "x").inc(-1), AssertionError);
  assert.throws(() => registry.counter("ok_total", "x").inc(Number.NaN), AssertionError);
  assert.throws(() => registry.histogram("h_ms", "x").observe(Number.NaN), AssertionError);
  const bad = new PrometheusRegistry({ bucketsByName: { h_ms: [5, 5] } });
  assert.throws(() => bad.histogram("h_ms", "x"), AssertionError);
});

test("default buckets follow the unit at the end of the name", () => {
  const registry = new PrometheusRegistry();
  registry.histogram("a_ms", "a").observe(1);
  registry.histogram("b_bytes", "b").observe(1);
  registry.histogram("c_seconds", "c").observe(1);
  assert.deepEqual(registry.histogramOf("a_ms")?.bounds, MILLISECONDS_BUCKETS);
  assert.deepEqual(registry.histogramOf("b_bytes")?.bounds, BYTES_BUCKETS);
  assert.deepEqual(registry.histogramOf("c_seconds")?.bounds, SECONDS_BUCKETS);
  assert.equal(registry.valueOf("a_ms"), 1);
});

test("histogram buckets agree with counting the observations directly", () => {
  const bounds = [1, 5, 25, 125];
  const observations = fc.array(fc.double({ min: -10, max: 200, noNaN: true }), {
    maxLength: 60,
  });
  fc.assert(
    fc.property(observations, (values) => {
      const registry = new PrometheusRegistry({ bucketsByName: { h_ms: bounds } });
      const histogram = registry.histogram("h_ms", "H.");
      for (const value of values) histogram.observe(value);
      const snapshot = registry.histogramOf("h_ms");
      assert.ok(snapshot !== undefined);
      const expected = bounds.map((bound) => values.filter((value) => value <= bound).length);
      assert.deepEqual(snapshot.cumulativeCounts, expected);
      assert.equal(snapshot.count, values.length);
      const sum = values.reduce((total, value) => total + value, 0);
      assert.equal(snapshot.sum, sum);
    }),
    { seed: 5005, numRuns: 200 },
  );
});

test("rendering does not depend on the order series were registered in", () => {
  const entry = fc.record({
    name: fc.constantFrom("a_total", "b_total", "c_total"),
    shard: fc.constantFrom("0", "1", "2", 'q"uote'),
    amount: fc.nat({ max: 5 }),
  });
  fc.assert(
    fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
      const forward = new PrometheusRegistry();
      const backward = new PrometheusRegistry();
      for (const e of entries) forward.counter(e.name, "N.", { shard: e.shard }).inc(e.amount);
      for (const e of [...entries].reverse()) {
        backward.counter(e.name, "N.", { shard: e.shard }).inc(e.amount);
      }
      assert.equal(forward.render(), backward.render());
    }),
    { seed: 5006, numRuns: 200 },
  );
});

test("a removed series renders no more and starts from zero when asked for again", () => {
  const registry = new PrometheusRegistry();
  const help = "Lag by partition.";
  registry.gauge("sluice_lag", help, { partition: "0" }).set(5);
  registry.gauge("sluice_lag", help, { partition: "1" }).set(7);
  registry.remove("sluice_lag", { partition: "0" });
  registry.remove("sluice_lag", { partition: "9" });
  registry.remove("sluice_unknown");
  assert.equal(
    registry.render(),
    '# HELP sluice_lag Lag by partition.\n# TYPE sluice_lag gauge\nsluice_lag{partition="1"} 7\n',
  );
  assert.equal(registry.valueOf("sluice_lag", { partition: "0" }), undefined);
  registry.gauge("sluice_lag", help, { partition: "0" });
  assert.equal(registry.valueOf("sluice_lag", { partition: "0" }), 0);
});
