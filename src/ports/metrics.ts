export type MetricLabels = Readonly<Record<string, string>>;

export interface Counter {
  inc(amount?: number): void;
}
export interface Gauge {
  set(value: number): void;
}
export interface Histogram {
  observe(value: number): void;
}

/** Where Sluice reports numbers; the adapter exports them (Prometheus), tests read them back. */
export interface MetricsSink {
  counter(name: string, help: string, labels?: MetricLabels): Counter;
  gauge(name: string, help: string, labels?: MetricLabels): Gauge;
  histogram(name: string, help: string, labels?: MetricLabels): Histogram;
  /**
   * Stops exporting the series of `name` with `labels`, one whose subject is gone (a partition
   * no longer followed); asking for it again starts it afresh. A sink that keeps no series (one
   * that discards everything) has nothing to remove and may leave this out.
   */
  remove?(name: string, labels?: MetricLabels): void;
}
