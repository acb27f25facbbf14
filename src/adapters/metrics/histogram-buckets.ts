/**
 * Bucket bounds of histograms. The MetricsSink port names no buckets, so the registry picks them
 * from the unit at the end of the metric name (STYLE: units go last), unless the composition root
 * gives bounds for a name.
 */
import { assert } from "../../common/index.js";

/** Prometheus's own default bounds, made for latencies in seconds. */
export const SECONDS_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** The same spread as {@link SECONDS_BUCKETS} for latencies in milliseconds, up to 10 s. */
export const MILLISECONDS_BUCKETS: readonly number[] = [
  1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000,
];

/** Powers of four from 64 bytes to 64 MiB, for request, batch and segment sizes. */
export const BYTES_BUCKETS: readonly number[] = [
  64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/** The default bounds for a histogram named `name`, chosen by its unit suffix. */
export function defaultBucketsFor(name: string): readonly number[] {
  if (name.endsWith("_ms") || name.endsWith("_milliseconds")) return MILLISECONDS_BUCKETS;
  // Kafka's request times under the JMX exporter's names (`..._requestmetrics_totaltimems`).
  if (name.endsWith("timems")) return MILLISECONDS_BUCKETS;
  if (name.endsWith("_bytes")) return BYTES_BUCKETS;
  return SECONDS_BUCKETS;
}

/**
 * Throws an AssertionError unless `bounds` is a non-empty, strictly increasing list of finite
 * numbers; `+Inf` is implied and must not be listed.
 */
export function assertBucketBounds(name: string, bounds: readonly number[]): void {
  assert(bounds.length > 0, `histogram ${name} needs at least one bucket bound`);
  let previous = Number.NEGATIVE_INFINITY;
  for (const bound of bounds) {
    assert(Number.isFinite(bound), `histogram ${name} has a bound that is not finite`);
    assert(bound > previous, `histogram ${name} has bounds that do not increase`);
    previous = bound;
  }
}
