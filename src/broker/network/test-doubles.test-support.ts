import type {
  Counter,
  Gauge,
  Histogram,
  LogFields,
  Logger,
  MetricLabels,
  MetricsSink,
} from "../../ports/index.js";
/** One kept log line. */
export interface LogLine {
  readonly level: string;
  readonly message: string;
  readonly fields: LogFields;
}

/** A logger that keeps every line, children's included. */
export class MemoryLogger implements Logger {
  constructor(
    readonly lines: LogLine[] = [],
    private readonly base: LogFields = {},
  ) {}
  debug(message: string, fields?: LogFields): void {
    this.lines.push({ level: "debug", message, fields: { ...this.base, ...fields } });
  }
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: "info", message, fields: { ...this.base, ...fields } });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: "warn", message, fields: { ...this.base, ...fields } });
  }
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: "error", message, fields: { ...this.base, ...fields } });
  }
  child(fields: LogFields): Logger {
    return new MemoryLogger(this.lines, { ...this.base, ...fields });
  }
}

/** A metrics sink whose values read back by name and labels (histograms: observation count). */
export class MemoryMetrics implements MetricsSink {
  readonly values = new Map<string, number>();
  valueOf(name: string, labels: MetricLabels = {}): number | undefined {
    return this.values.get(`${name}${JSON.stringify(labels)}`);
  }
  counter(name: string, _help: string, labels: MetricLabels = {}): Counter {
    const key = `${name}${JSON.stringify(labels)}`;
    return { inc: (amount = 1) => this.values.set(key, (this.values.get(key) ?? 0) + amount) };
  }
  gauge(name: string, _help: string, labels: MetricLabels = {}): Gauge {
    const key = `${name}${JSON.stringify(labels)}`;
    return { set: (value) => this.values.set(key, value) };
  }
  histogram(name: string, _help: string, labels: MetricLabels = {}): Histogram {
    const key = `${name}${JSON.stringify(labels)}`;
    return { observe: () => this.values.set(key, (this.values.get(key) ?? 0) + 1) };
  }
}
