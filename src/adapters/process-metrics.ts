import { readdirSync } from "node:fs";
import { PerformanceObserver, constants, type PerformanceEntry } from "node:perf_hooks";
import type { Counter, Gauge, Histogram, MetricsSink } from "../ports/index.js";
import { readOpenFileLimit } from "./open-file-limit.js";

/** Node's GC kinds (PerformanceEntry detail.kind), as the `kind` label names them. */
const GC_KINDS: ReadonlyMap<number, string> = new Map([
  [constants.NODE_PERFORMANCE_GC_MAJOR, "major"],
  [constants.NODE_PERFORMANCE_GC_MINOR, "minor"],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, "incremental"],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, "weakcb"],
]);

/** Bounds of GC pauses in seconds: 0.1 ms to 1 s. */
export const GC_BUCKETS: readonly number[] = [
  0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1,
];

const MICROSECONDS_PER_SECOND = 1e6;

/**
 * The process's own metrics under Prometheus's client conventions (`process_*`) and
 * prom-client's Node names (`nodejs_*`), see docs/decisions/0009-kafka-metric-names.md: CPU
 * seconds, resident memory, open and allowed file descriptors (Linux, from /proc/self), the
 * start time, V8's heap, and each garbage collection's pause by kind, observed as it ends.
 * `update` (at each scrape) reads the rest; `stop` ends the GC observer.
 */
export class ProcessMetrics {
  private readonly cpuUser: Counter;
  private readonly cpuSystem: Counter;
  private readonly gauges: Readonly<Record<string, Gauge>>;
  private readonly gc = new Map<string, Histogram>();
  private readonly observer: PerformanceObserver;
  private reportedCpu = { user: 0, system: 0 };

  constructor(private readonly sink: MetricsSink) {
    this.cpuUser = sink.counter("process_cpu_user_seconds_total", "User CPU time in seconds.");
    this.cpuSystem = sink.counter("process_cpu_system_seconds_total", "System CPU time, seconds.");
    const gauge = (name: string, help: string): Gauge => sink.gauge(name, help);
    this.gauges = {
      rss: gauge("process_resident_memory_bytes", "Resident memory size in bytes."),
      openFds: gauge("process_open_fds", "Open file descriptors."),
      maxFds: gauge("process_max_fds", "The limit on open file descriptors."),
      start: gauge("process_start_time_seconds", "Start time of the process, Unix seconds."),
      heapUsed: gauge("nodejs_heap_size_used_bytes", "V8 heap in use, in bytes."),
      heapTotal: gauge("nodejs_heap_size_total_bytes", "V8 heap allocated, in bytes."),
      external: gauge("nodejs_external_memory_bytes", "Memory of C++ objects bound to JS."),
    };
    this.gauges["start"]?.set(Math.round(Date.now() / 1000 - process.uptime()));
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.observeGc(entry);
    });
    this.observer.observe({ entryTypes: ["gc"] });
  }

  update(): void {
    const cpu = process.cpuUsage();
    const user = cpu.user / MICROSECONDS_PER_SECOND;
    const system = cpu.system / MICROSECONDS_PER_SECOND;
    this.cpuUser.inc(Math.max(0, user - this.reportedCpu.user));
    this.cpuSystem.inc(Math.max(0, system - this.reportedCpu.system));
    this.reportedCpu = {
      user: Math.max(user, this.reportedCpu.user),
      system: Math.max(system, this.reportedCpu.system),
    };
    const memory = process.memoryUsage();
    this.gauges["rss"]?.set(memory.rss);
    this.gauges["heapUsed"]?.set(memory.heapUsed);
    this.gauges["heapTotal"]?.set(memory.heapTotal);
    this.gauges["external"]?.set(memory.external);
    const openFds = countOpenFds();
    if (openFds !== undefined) this.gauges["openFds"]?.set(openFds);
    const maxFds = readOpenFileLimit();
    if (maxFds !== undefined) this.gauges["maxFds"]?.set(maxFds);
  }

  stop(): void {
    this.observer.disconnect();
  }

  private observeGc(entry: PerformanceEntry): void {
    // A gc entry's detail carries its kind (Node 16+).
    const { detail } = entry as PerformanceEntry & { readonly detail?: { readonly kind?: number } };
    const kind = GC_KINDS.get(detail?.kind ?? -1) ?? "other";
    let histogram = this.gc.get(kind);
    if (histogram === undefined) {
      const help = "Garbage collection pauses in seconds, by kind.";
      histogram = this.sink.histogram("nodejs_gc_duration_seconds", help, { kind });
      this.gc.set(kind, histogram);
    }
    histogram.observe(entry.duration / 1000);
  }
}

/** Entries of /proc/self/fd, less the one the listing opened; undefined off Linux. */
function countOpenFds(): number | undefined {
  try {
    return readdirSync("/proc/self/fd").length - 1;
  } catch {
    // Not Linux, or /proc is not mounted: the count is not known and is not exported.
    return undefined;
  }
}
