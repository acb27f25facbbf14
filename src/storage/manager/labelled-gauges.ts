/**
 * A gauge family whose series follow their subjects (partitions, groups): each `publish` sets the
 * series of the subjects given and removes those of subjects no longer there, as Kafka
 * unregisters the MBeans of a partition or group that is gone.
 */
import type { Gauge, MetricLabels, MetricsSink } from "../../ports/index.js";

export class LabelledGauges {
  private series = new Map<string, { readonly labels: MetricLabels; readonly gauge: Gauge }>();

  constructor(
    private readonly sink: MetricsSink,
    private readonly family: { readonly name: string; readonly help: string },
  ) {}

  /** Sets one series per entry of `values` and removes every other series of the family. */
  publish(values: Iterable<{ readonly labels: MetricLabels; readonly value: number }>): void {
    const next = new Map<string, { readonly labels: MetricLabels; readonly gauge: Gauge }>();
    for (const { labels, value } of values) {
      const key = JSON.stringify(Object.entries(labels).sort());
      const known = this.series.get(key);
      const gauge = known?.gauge ?? this.sink.gauge(this.family.name, this.family.help, labels);
      gauge.set(value);
      next.set(key, { labels, gauge });
    }
    for (const [key, { labels }] of this.series) {
      if (!next.has(key)) this.sink.remove?.(this.family.name, labels);
    }
    this.series = next;
  }
}
