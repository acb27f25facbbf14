/**
 * The replica manager's metrics under the Prometheus names the JMX exporter's Kafka rules give
 * Kafka's (docs/decisions/0009-kafka-metric-names.md): the gauges of
 * kafka.server:type=ReplicaManager, its three ISR meters as counters (Prometheus's rate() gives
 * the per-second figure Kafka's meters report), the replica fetchers' lag per followed partition
 * (FetcherLagMetrics ConsumerLag) and their largest lag (ReplicaFetcherManager MaxLag). Each
 * `update` publishes a summary the replica manager computed, so the node calls it as it scrapes.
 */
import type { Counter, Gauge, MetricsSink } from "../ports/index.js";
import { partitionFolderName } from "../storage/index.js";
import type { ReplicationSummary } from "./replication-summary.js";

/** A family of one series: its name, help text and the summary's number it shows. */
interface Family {
  readonly name: string;
  readonly help: string;
  readonly read: (summary: ReplicationSummary) => number;
  /** The labels of the one series, as the exporter takes them from the MBean's name. */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The gauge families. */
const GAUGES: readonly Family[] = [
  {
    name: "kafka_server_replicamanager_leadercount",
    help:
      "Partitions this broker leads " +
      "(Kafka's kafka.server:type=ReplicaManager,name=LeaderCount).",
    read: (summary) => summary.leaderCount,
  },
  {
    name: "kafka_server_replicamanager_partitioncount",
    help:
      "Replicas this broker hosts, online or offline " +
      "(Kafka's kafka.server:type=ReplicaManager,name=PartitionCount).",
    read: (summary) => summary.partitionCount,
  },
  {
    name: "kafka_server_replicamanager_underreplicatedpartitions",
    help:
      "Partitions led here whose ISR is smaller than their replication factor " +
      "(Kafka's kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions).",
    read: (summary) => summary.underReplicatedPartitions,
  },
  {
    name: "kafka_server_replicamanager_underminisrpartitioncount",
    help:
      "Partitions led here whose ISR is below min.insync.replicas " +
      "(Kafka's kafka.server:type=ReplicaManager,name=UnderMinIsrPartitionCount).",
    read: (summary) => summary.underMinIsrPartitionCount,
  },
  {
    name: "kafka_server_replicamanager_atminisrpartitioncount",
    help:
      "Partitions led here whose ISR is exactly min.insync.replicas " +
      "(Kafka's kafka.server:type=ReplicaManager,name=AtMinIsrPartitionCount).",
    read: (summary) => summary.atMinIsrPartitionCount,
  },
  {
    name: "kafka_server_replicamanager_offlinereplicacount",
    help:
      "Replicas hosted in a failed log dir " +
      "(Kafka's kafka.server:type=ReplicaManager,name=OfflineReplicaCount).",
    read: (summary) => summary.offlineReplicaCount,
  },
  {
    name: "kafka_server_replicamanager_reassigningpartitions",
    help:
      "Partitions led here with replicas being added or removed " +
      "(Kafka's kafka.server:type=ReplicaManager,name=ReassigningPartitions).",
    read: (summary) => summary.reassigningPartitions,
  },
  {
    name: "kafka_server_replicafetchermanager_maxlag",
    help:
      "The largest lag of a partition this broker follows, in messages " +
      "(Kafka's kafka.server:type=ReplicaFetcherManager,name=MaxLag,clientId=Replica).",
    read: (summary) => summary.maxLag,
    labels: { clientId: "Replica" },
  },
];

/** The counter families, each showing a total. */
const COUNTERS: readonly Family[] = [
  {
    name: "kafka_server_replicamanager_isrshrinks_total",
    help:
      "ISR shrinks of partitions led here that the controller committed " +
      "(Kafka's kafka.server:type=ReplicaManager,name=IsrShrinksPerSec).",
    read: (summary) => summary.isrShrinks,
  },
  {
    name: "kafka_server_replicamanager_isrexpands_total",
    help:
      "ISR expansions of partitions led here that the controller committed " +
      "(Kafka's kafka.server:type=ReplicaManager,name=IsrExpandsPerSec).",
    read: (summary) => summary.isrExpands,
  },
  {
    name: "kafka_server_replicamanager_failedisrupdates_total",
    help:
      "AlterPartition answers that refused or outdated an ISR change of a partition led here " +
      "(Kafka's kafka.server:type=ReplicaManager,name=FailedIsrUpdatesPerSec).",
    read: (summary) => summary.failedIsrUpdates,
  },
];

const LAG_NAME = "kafka_server_fetcherlagmetrics_consumerlag";
const LAG_HELP =
  "How far a followed partition's log is behind its leader's high watermark after the last " +
  "fetch, in messages (Kafka's kafka.server:type=FetcherLagMetrics,name=ConsumerLag).";

interface LagSeries {
  readonly labels: { readonly topic: string; readonly partition: string };
  readonly gauge: Gauge;
}

export class ReplicaManagerMetrics {
  private readonly gauges: readonly { readonly gauge: Gauge; readonly read: Family["read"] }[];
  private readonly counters: readonly CounterEntry[];
  /** One series per followed partition with a known lag, by partition folder name. */
  private readonly lags = new Map<string, LagSeries>();

  /** `isPartitionLevel` false: no lag series per partition (MaxLag stays). */
  constructor(
    private readonly sink: MetricsSink,
    private readonly options: { readonly isPartitionLevel: boolean } = { isPartitionLevel: true },
  ) {
    this.gauges = GAUGES.map(({ name, help, read, labels }) => ({
      gauge: sink.gauge(name, help, labels),
      read,
    }));
    this.counters = COUNTERS.map(({ name, help, read }) => ({
      counter: sink.counter(name, help),
      read,
      reported: 0,
    }));
  }

  /**
   * Publishes `summary`: gauges take its values, counters grow by what its totals gained since
   * the last update, and the lag series follow the partitions followed now (a partition no
   * longer followed, or not yet fetched, has no series, as Kafka unregisters it).
   */
  update(summary: ReplicationSummary): void {
    for (const { gauge, read } of this.gauges) gauge.set(read(summary));
    for (const entry of this.counters) {
      const total = entry.read(summary);
      if (total > entry.reported) entry.counter.inc(total - entry.reported);
      entry.reported = Math.max(entry.reported, total);
    }
    const followed = new Set<string>();
    const lags = this.options.isPartitionLevel ? summary.followerLags : [];
    for (const { topicPartition, lag } of lags) {
      const key = partitionFolderName(topicPartition);
      followed.add(key);
      let series = this.lags.get(key);
      if (series === undefined) {
        const labels = {
          topic: topicPartition.topic,
          partition: String(topicPartition.partition),
        };
        series = { labels, gauge: this.sink.gauge(LAG_NAME, LAG_HELP, labels) };
        this.lags.set(key, series);
      }
      series.gauge.set(lag);
    }
    for (const [key, series] of this.lags) {
      if (followed.has(key)) continue;
      this.sink.remove?.(LAG_NAME, series.labels);
      this.lags.delete(key);
    }
  }
}

interface CounterEntry {
  readonly counter: Counter;
  readonly read: Family["read"];
  /** The total the counter has been given so far. */
  reported: number;
}
