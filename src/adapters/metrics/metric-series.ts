/**
 * The live series of the Prometheus registry: one object per metric name and label set, handed
 * to the code that reports (as a port Counter, Gauge or Histogram) and read when rendering.
 */
import { assert } from "../../common/index.js";
import type { Counter, Gauge, Histogram } from "../../ports/index.js";

/** A counter's series: a total that only goes up. */
export class CounterSeries implements Counter {
  readonly kind = "counter";
  private total = 0;

  get value(): number {
    return this.total;
  }

  inc(amount = 1): void {
    // A counter that went down would read as a process restart to Prometheus's rate().
    assert(Number.isFinite(amount), "a counter increment must be finite");
    assert(amount >= 0, "a counter increment must not be negative");
    this.total += amount;
  }
}

/** A gauge's series: the last value set. */
export class GaugeSeries implements Gauge {
  readonly kind = "gauge";
  private current = 0;

  /** The last value set, 0 before the first. */
  get value(): number {
    return this.current;
  }

  set(value: number): void {
    this.current = value;
  }
}

/** What a histogram series holds at one moment, with cumulative bucket counts as exposed. */
export interface HistogramSnapshot {
  /** Upper bounds of the finite buckets, increasing; the `+Inf` bucket is `count`. */
  readonly bounds: readonly number[];
  /** Observations at or below each bound, one per entry of `bounds`. */
  readonly cumulativeCounts: readonly number[];
  readonly sum: number;
  readonly count: number;
}

/** A histogram's series: observations counted into fixed buckets, with their sum and count. */
export class HistogramSeries implements Histogram {
  readonly kind = "histogram";
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  private readonly bucketCounts: number[];
  private sum = 0;
  private count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.bucketCounts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    assert(!Number.isNaN(value), "a histogram observation must be a number");
    // Prometheus buckets are "less than or equal": a value on a bound counts in that bucket.
    let index = this.bounds.findIndex((bound) => value <= bound);
    if (index === -1) index = this.bounds.length;
    this.bucketCounts[index] = (this.bucketCounts[index] ?? 0) + 1;
    this.sum += value;
    this.count += 1;
  }

  /** The counts as the exposition format shows them. */
  snapshot(): HistogramSnapshot {
    const cumulativeCounts: number[] = [];
    let running = 0;
    for (let index = 0; index < this.bounds.length; index++) {
      running += this.bucketCounts[index] ?? 0;
      cumulativeCounts.push(running);
    }
    return { bounds: this.bounds, cumulativeCounts, sum: this.sum, count: this.count };
  }
}

export type MetricSeries = CounterSeries | GaugeSeries | HistogramSeries;

/** The Prometheus metric types the registry serves. */
export type MetricType = MetricSeries["kind"];
