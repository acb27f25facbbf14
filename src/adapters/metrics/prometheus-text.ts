/**
 * The pieces of Prometheus's text exposition format 0.0.4: metric and label name rules, the
 * escaping of help texts and label values, and how sample values are written.
 */
import { assert } from "../../common/index.js";
import type { MetricLabels } from "../../ports/index.js";

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const metricNamePattern = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const labelNamePattern = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Throws an AssertionError unless `name` is a valid Prometheus metric name. */
export function assertMetricName(name: string): void {
  assert(metricNamePattern.test(name), `invalid metric name ${JSON.stringify(name)}`);
}

/**
 * Throws an AssertionError unless every label name is valid. Names starting with two
 * underscores are reserved for Prometheus itself.
 */
export function assertLabelNames(labels: MetricLabels): void {
  for (const name of Object.keys(labels)) {
    assert(labelNamePattern.test(name), `invalid label name ${JSON.stringify(name)}`);
    assert(!name.startsWith("__"), `label name ${name} is reserved for Prometheus`);
  }
}

/** A help text as the format wants it: backslash and line feed escaped. */
export function escapeHelp(help: string): string {
  return help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** A label value as the format wants it: backslash, double quote and line feed escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/**
 * A sample value in the spelling Prometheus parses: `NaN`, `+Inf`, `-Inf`, otherwise the
 * shortest decimal that reads back as the same double (JavaScript's own number printing).
 */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/**
 * The labels of one series in a canonical order (sorted by name), so that the same labels given
 * in another order name the same series and render the same way.
 */
export function sortedLabelPairs(labels: MetricLabels): readonly (readonly [string, string])[] {
  return Object.entries(labels).sort(([left], [right]) => (left < right ? -1 : 1));
}

/** The `{name="value",...}` part of a sample line, empty for no labels. */
export function renderLabels(pairs: readonly (readonly [string, string])[]): string {
  if (pairs.length === 0) return "";
  const inner = pairs.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",");
  return `{${inner}}`;
}
