/**
 * The quorum controller's metrics: how many operations wait, how long each kind takes from
 * arrival to answer, and Kafka's KafkaController gauges under the names the JMX exporter's Kafka
 * rules give them (docs/decisions/0009-kafka-metric-names.md): whether this node is the active
 * controller (ActiveControllerCount), its brokers fenced and active, and, at each scrape, the
 * topics and partitions of its committed image (`updatePartitions`).
 */
import type { MetadataImage } from "../../metadata/index.js";
import type { Gauge, Histogram, MetricsSink } from "../../ports/index.js";

export class ControllerMetrics {
  private readonly queueLength: Gauge;
  private readonly active: Gauge;
  private readonly fencedBrokers: Gauge;
  private readonly activeBrokers: Gauge;
  private readonly globalTopics: Gauge;
  private readonly globalPartitions: Gauge;
  private readonly offlinePartitions: Gauge;
  private readonly preferredReplicaImbalance: Gauge;
  private readonly latencies = new Map<string, Histogram>();

  constructor(private readonly sink: MetricsSink) {
    this.queueLength = sink.gauge(
      "sluice_controller_queue_length",
      "Controller operations queued or waiting for their records to commit.",
    );
    const gauge = (name: string, help: string): Gauge =>
      sink.gauge(
        `kafka_controller_kafkacontroller_${name.toLowerCase()}`,
        `${help} (Kafka's kafka.controller:type=KafkaController,name=${name}).`,
      );
    this.active = gauge("ActiveControllerCount", "1 while this node is the active controller");
    this.fencedBrokers = gauge("FencedBrokerCount", "Registered brokers that are fenced");
    this.activeBrokers = gauge("ActiveBrokerCount", "Registered brokers that are not fenced");
    this.globalTopics = gauge("GlobalTopicCount", "Topics in the committed metadata");
    this.globalPartitions = gauge("GlobalPartitionCount", "Partitions in the committed metadata");
    this.offlinePartitions = gauge("OfflinePartitionsCount", "Partitions without a leader");
    this.preferredReplicaImbalance = gauge(
      "PreferredReplicaImbalanceCount",
      "Partitions whose leader is not their first replica",
    );
  }

  /** The number of operations queued or waiting for a commit. */
  setQueueLength(length: number): void {
    this.queueLength.set(length);
  }

  setActive(isActive: boolean): void {
    this.active.set(isActive ? 1 : 0);
  }

  /** Publishes how many registered brokers of `image` are fenced, and how many are not. */
  updateFencedBrokers(image: MetadataImage): void {
    let count = 0;
    for (const broker of image.cluster.brokers.values()) if (broker.isFenced) count++;
    this.fencedBrokers.set(count);
    this.activeBrokers.set(image.cluster.brokers.size - count);
  }

  /**
   * Publishes the topic and partition gauges of `image`, which takes a walk over every
   * partition: the node calls it as it is scraped rather than at every commit. As in Kafka's
   * ControllerMetricsChanges, a partition is offline without a leader and imbalanced when its
   * leader is not its first replica (an offline one is both).
   */
  updatePartitions(image: MetadataImage): void {
    let partitions = 0;
    let offline = 0;
    let imbalanced = 0;
    for (const topic of image.topics.byId.values()) {
      for (const partition of topic.partitions.values()) {
        partitions++;
        if (partition.leader < 0) offline++;
        const preferred = partition.replicas[0];
        if (preferred !== undefined && preferred !== partition.leader) imbalanced++;
      }
    }
    this.globalTopics.set(image.topics.byId.size);
    this.globalPartitions.set(partitions);
    this.offlinePartitions.set(offline);
    this.preferredReplicaImbalance.set(imbalanced);
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
