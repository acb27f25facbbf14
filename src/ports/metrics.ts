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
}
