/**
 * Sluice's MetricsSink for production: a registry of metric families that renders Prometheus's
 * text exposition format 0.0.4. Our own code rather than prom-client; docs/decisions/0005 says why.
 */
import { assert } from "../../common/index.js";
import type { Counter, Gauge, Histogram, MetricLabels, MetricsSink } from "../../ports/index.js";
import { assertBucketBounds, defaultBucketsFor } from "./histogram-buckets.js";
import {
  CounterSeries,
  GaugeSeries,
  HistogramSeries,
  type HistogramSnapshot,
  type MetricSeries,
  type MetricType,
} from "./metric-series.js";
import {
  assertLabelNames,
  assertMetricName,
  escapeHelp,
  formatSampleValue,
  renderLabels,
  sortedLabelPairs,
} from "./prometheus-text.js";

export interface PrometheusRegistryOptions {
  /** Bucket bounds for histograms by metric name; others get {@link defaultBucketsFor}. */
  readonly bucketsByName?: Readonly<Record<string, readonly number[]>>;
}

/** One metric name: its type and help, and its series keyed by their rendered labels. */
interface Family {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly series: Map<string, { readonly labels: string; readonly series: MetricSeries }>;
  readonly bounds: readonly number[];
}

/** The sample names a family writes, which no other family may write too. */
function sampleNamesOf(name: string, type: MetricType): readonly string[] {
  return type === "histogram" ? [name, `${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
}

/**
 * A registry of counters, gauges and histograms. Asking again for a name and labels already
 * registered returns the same series; asking for a known name with another type or help text is
 * a bug and fails an assertion, as does any name that would write the samples of another metric.
 * Rendering sorts metrics by name and series by labels, so equal contents give equal text.
 */
export class PrometheusRegistry implements MetricsSink {
  private readonly families = new Map<string, Family>();
  /** Which family writes each sample name, to refuse `foo_count` beside a histogram `foo`. */
  private readonly sampleOwners = new Map<string, string>();
  private readonly collectors: Array<() => void> = [];

  constructor(private readonly options: PrometheusRegistryOptions = {}) {}

  counter(name: string, help: string, labels: MetricLabels = {}): Counter {
    const series = this.seriesFor({ name, help, type: "counter", labels });
    assert(series.kind === "counter", `metric ${name} is not a counter`);
    return series;
  }

  gauge(name: string, help: string, labels: MetricLabels = {}): Gauge {
    const series = this.seriesFor({ name, help, type: "gauge", labels });
    assert(series.kind === "gauge", `metric ${name} is not a gauge`);
    return series;
  }

  histogram(name: string, help: string, labels: MetricLabels = {}): Histogram {
    // Prometheus's `le` label is the bucket bound; a series may not carry its own.
    assert(!("le" in labels), `histogram ${name} may not have a label named le`);
    const series = this.seriesFor({ name, help, type: "histogram", labels });
    assert(series.kind === "histogram", `metric ${name} is not a histogram`);
    return series;
  }

  /** Forgets one series; its family keeps its name, type and help (and renders no samples). */
  remove(name: string, labels: MetricLabels = {}): void {
    this.families.get(name)?.series.delete(renderLabels(sortedLabelPairs(labels)));
  }

  /**
   * The value of a counter or gauge series, or the observation count of a histogram series;
   * undefined when no such series is registered. For tests and the dashboard.
   */
  valueOf(name: string, labels: MetricLabels = {}): number | undefined {
    const series = this.find(name, labels);
    if (series === undefined) return undefined;
    return series.kind === "histogram" ? series.snapshot().count : series.value;
  }

  /** The buckets, sum and count of a histogram series, or undefined when there is none. */
  histogramOf(name: string, labels: MetricLabels = {}): HistogramSnapshot | undefined {
    const series = this.find(name, labels);
    return series?.kind === "histogram" ? series.snapshot() : undefined;
  }

  /** Runs `collect` before every render, to set series read off live state (gauges). */
  addCollector(collect: () => void): void {
    this.collectors.push(collect);
  }

  /** Every metric in the text exposition format 0.0.4; empty when nothing is registered. */
  render(): string {
    for (const collect of this.collectors) collect();
    const lines: string[] = [];
    const names = [...this.families.keys()].sort();
    for (const name of names) {
      const family = this.families.get(name);
      assert(family !== undefined, "a listed family exists");
      lines.push(`# HELP ${name} ${escapeHelp(family.help)}`, `# TYPE ${name} ${family.type}`);
      const keys = [...family.series.keys()].sort();
      for (const key of keys) {
        const entry = family.series.get(key);
        assert(entry !== undefined, "a listed series exists");
        renderSeries(name, entry.labels, entry.series, lines);
      }
    }
    return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
  }

  private find(name: string, labels: MetricLabels): MetricSeries | undefined {
    return this.families.get(name)?.series.get(renderLabels(sortedLabelPairs(labels)))?.series;
  }

  private seriesFor(request: {
    name: string;
    help: string;
    type: MetricType;
    labels: MetricLabels;
  }): MetricSeries {
    const family = this.familyFor(request.name, request.help, request.type);
    assertLabelNames(request.labels);
    const labels = renderLabels(sortedLabelPairs(request.labels));
    const known = family.series.get(labels);
    if (known !== undefined) return known.series;
    const series = newSeries(family);
    family.series.set(labels, { labels, series });
    return series;
  }

  private familyFor(name: string, help: string, type: MetricType): Family {
    const known = this.families.get(name);
    if (known !== undefined) {
      assert(known.type === type, `metric ${name} is a ${known.type}, not a ${type}`);
      assert(known.help === help, `metric ${name} was registered with another help text`);
      return known;
    }
    assertMetricName(name);
    const sampleNames = sampleNamesOf(name, type);
    for (const sampleName of sampleNames) {
      const owner = this.sampleOwners.get(sampleName);
      assert(owner === undefined, `metric ${name} would write ${sampleName}, a sample of ${owner}`);
    }
    for (const sampleName of sampleNames) this.sampleOwners.set(sampleName, name);
    const bounds = type === "histogram" ? this.boundsFor(name) : [];
    const family: Family = { name, type, help, series: new Map(), bounds };
    this.families.set(name, family);
    return family;
  }

  private boundsFor(name: string): readonly number[] {
    const bounds = this.options.bucketsByName?.[name] ?? defaultBucketsFor(name);
    assertBucketBounds(name, bounds);
    return bounds;
  }
}

function newSeries(family: Family): MetricSeries {
  switch (family.type) {
    case "counter":
      return new CounterSeries();
    case "gauge":
      return new GaugeSeries();
    case "histogram":
      return new HistogramSeries(family.bounds);
  }
}

/** Appends the sample lines of one series; `labels` is its rendered label set. */
function renderSeries(name: string, labels: string, series: MetricSeries, lines: string[]): void {
  if (series.kind !== "histogram") {
    lines.push(`${name}${labels} ${formatSampleValue(series.value)}`);
    return;
  }
  const snapshot = series.snapshot();
  // The bound goes last inside the braces, after the series' own (sorted) labels.
  const prefix = labels === "" ? "{" : `${labels.slice(0, -1)},`;
  snapshot.bounds.forEach((bound, index) => {
    const count = snapshot.cumulativeCounts[index] ?? 0;
    lines.push(`${name}_bucket${prefix}le="${formatSampleValue(bound)}"} ${count}`);
  });
  lines.push(`${name}_bucket${prefix}le="+Inf"} ${snapshot.count}`);
  lines.push(`${name}_sum${labels} ${formatSampleValue(snapshot.sum)}`);
  lines.push(`${name}_count${labels} ${snapshot.count}`);
}
