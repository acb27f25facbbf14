import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import type { Gauge, MetricsSink } from "../ports/index.js";

/** The statistics exported, each as a value of the `stat` label. */
const STATS = ["mean", "p50", "p99", "max"] as const;
type Stat = (typeof STATS)[number];

const NANOSECONDS_PER_MS = 1e6;

/**
 * How late the process's event loop runs its callbacks, from `node:perf_hooks`'
 * monitorEventLoopDelay: every callback of every connection waits behind whatever runs before it,
 * so a large delay is the first sign that one piece of work holds everyone up. `update` sets the
 * gauge `sluice_event_loop_delay_ms{stat}` from the delays seen since the previous `update` (a
 * scrape) and starts a new window; a window with no sample leaves the last values. The first
 * sample of a window only restarts the monitor's clock, so a stall that begins within one
 * resolution of a scrape is not seen (as with prom-client's nodejs_eventloop_lag gauges).
 */
export class EventLoopDelay {
  private readonly histogram: IntervalHistogram;
  private readonly gauges: Readonly<Record<Stat, Gauge>>;

  /** `resolutionMs`: how often the delay is sampled (Node's default is 10 ms). */
  constructor(sink: MetricsSink, options: { readonly resolutionMs?: number } = {}) {
    this.histogram = monitorEventLoopDelay({ resolution: options.resolutionMs ?? 10 });
    const help = "Event loop delay in milliseconds since the previous scrape, by statistic.";
    const gauge = (stat: Stat): Gauge => sink.gauge("sluice_event_loop_delay_ms", help, { stat });
    this.gauges = { mean: gauge("mean"), p50: gauge("p50"), p99: gauge("p99"), max: gauge("max") };
    for (const stat of STATS) this.gauges[stat].set(0);
    this.histogram.enable();
  }

  update(): void {
    const histogram = this.histogram;
    if (histogram.count > 0) {
      this.gauges.mean.set(histogram.mean / NANOSECONDS_PER_MS);
      this.gauges.p50.set(histogram.percentile(50) / NANOSECONDS_PER_MS);
      this.gauges.p99.set(histogram.percentile(99) / NANOSECONDS_PER_MS);
      this.gauges.max.set(histogram.max / NANOSECONDS_PER_MS);
    }
    histogram.reset();
  }

  /** Stops sampling. */
  stop(): void {
    this.histogram.disable();
  }
}
