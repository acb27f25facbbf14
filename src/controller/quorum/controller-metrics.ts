/**
 * The quorum controller's metrics: how many operations wait, how long each kind takes from
 * arrival to answer, whether this node is the active controller, and how many brokers are fenced.
 */
import type { MetadataImage } from "../../metadata/index.js";
import type { Gauge, Histogram, MetricsSink } from "../../ports/index.js";

export class ControllerMetrics {
  private readonly queueLength: Gauge;
  private readonly active: Gauge;
  private readonly fencedBrokers: Gauge;
  private readonly latencies = new Map<string, Histogram>();

  constructor(private readonly sink: MetricsSink) {
    this.queueLength = sink.gauge(
      "sluice_controller_queue_length",
      "Controller operations queued or waiting for their records to commit.",
    );
    this.active = sink.gauge(
      "sluice_controller_active",
      "1 while this node is the active controller, else 0.",
    );
    this.fencedBrokers = sink.gauge(
      "sluice_controller_fenced_brokers",
      "Registered brokers that are fenced in the committed metadata.",
    );
  }

  /** The number of operations queued or waiting for a commit. */
  setQueueLength(length: number): void {
    this.queueLength.set(length);
  }

  setActive(isActive: boolean): void {
    this.active.set(isActive ? 1 : 0);
  }

  /** Publishes how many registered brokers of `image` are fenced. */
  updateFencedBrokers(image: MetadataImage): void {
    let count = 0;
    for (const broker of image.cluster.brokers.values()) if (broker.isFenced) count++;
    this.fencedBrokers.set(count);
  }

  /** The time from an operation's arrival to its answer. */
  observeLatency(operation: string, latencyMs: number): void {
    let histogram = this.latencies.get(operation);
    if (histogram === undefined) {
      histogram = this.sink.histogram(
        "sluice_controller_operation_latency_ms",
        "Milliseconds from a controller operation's arrival to its answer.",
        { operation },
      );
      this.latencies.set(operation, histogram);
    }
    histogram.observe(latencyMs);
  }
}
