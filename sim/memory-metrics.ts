/**
 * A MetricsSink for tests and the simulator that keeps every series in memory and reads them back
 * by name and labels. It checks what the production registry checks (one type and one help text
 * per name), so a test fails where a misused name would fail an assertion in the node.
 */
import { assert } from "../src/common/index.js";
import type { Counter, Gauge, Histogram, MetricLabels, MetricsSink } from "../src/ports/index.js";

/** The kinds of metric a MetricsSink makes. */
export type MemoryMetricType = "counter" | "gauge" | "histogram";

interface MemorySeries {
  value: number;
  readonly observations: number[];
}

interface MemoryFamily {
  readonly type: MemoryMetricType;
  readonly help: string;
  readonly series: Map<string, MemorySeries>;
}

/** The key of a label set, the same for the same labels in any order. */
function labelsKey(labels: MetricLabels): string {
  return JSON.stringify(Object.entries(labels).sort(([left], [right]) => (left < right ? -1 : 1)));
}

/**
 * An in-memory MetricsSink. `valueOf` gives a counter's total, a gauge's last value or a
 * histogram's observation count; `observationsOf` gives a histogram's observations in order.
 */
export class MemoryMetricsSink implements MetricsSink {
  private readonly families = new Map<string, MemoryFamily>();

  counter(name: string, help: string, labels: MetricLabels = {}): Counter {
    const series = this.seriesFor(name, help, "counter", labels);
    return {
      inc: (amount = 1) => {
        assert(amount >= 0, `counter ${name} may not go down`);
        series.value += amount;
      },
    };
  }

  gauge(name: string, help: string, labels: MetricLabels = {}): Gauge {
    const series = this.seriesFor(name, help, "gauge", labels);
    return { set: (value) => (series.value = value) };
  }

  histogram(name: string, help: string, labels: MetricLabels = {}): Histogram {
    const series = this.seriesFor(name, help, "histogram", labels);
    return {
      observe: (value) => {
        series.observations.push(value);
        series.value = series.observations.length;
      },
    };
  }

  remove(name: string, labels: MetricLabels = {}): void {
    this.families.get(name)?.series.delete(labelsKey(labels));
  }

  /** A counter's total, a gauge's value or a histogram's count; undefined if never made. */
  valueOf(name: string, labels: MetricLabels = {}): number | undefined {
    return this.families.get(name)?.series.get(labelsKey(labels))?.value;
  }

  /** A histogram's observations in the order made; undefined if never made. */
  observationsOf(name: string, labels: MetricLabels = {}): readonly number[] | undefined {
    const family = this.families.get(name);
    if (family?.type !== "histogram") return undefined;
    return family.series.get(labelsKey(labels))?.observations;
  }

  /** The type a name was registered with, or undefined. */
  typeOf(name: string): MemoryMetricType | undefined {
    return this.families.get(name)?.type;
  }

  /** Every label set registered under `name`, in registration order. */
  labelSetsOf(name: string): readonly MetricLabels[] {
    const keys = [...(this.families.get(name)?.series.keys() ?? [])];
    return keys.map((key) => Object.fromEntries(JSON.parse(key) as [string, string][]));
  }

  private seriesFor(
    name: string,
    help: string,
    type: MemoryMetricType,
    labels: MetricLabels,
  ): MemorySeries {
    let family = this.families.get(name);
    if (family === undefined) {
      family = { type, help, series: new Map() };
      this.families.set(name, family);
    }
    assert(family.type === type, `metric ${name} is a ${family.type}, not a ${type}`);
    assert(family.help === help, `metric ${name} was registered with another help text`);
    const key = labelsKey(labels);
    let series = family.series.get(key);
    if (series === undefined) {
      series = { value: 0, observations: [] };
      family.series.set(key, series);
    }
    return series;
  }
}
