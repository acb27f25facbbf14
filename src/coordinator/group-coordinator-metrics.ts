/**
 * The group coordinator's metrics, read off its state when the node is scraped: Kafka's
 * group-coordinator-metrics (groups by protocol, classic and consumer groups by state, their
 * rebalances) under the names of docs/decisions/0009-kafka-metric-names.md, and the consumer lag
 * of each group this broker coordinates, by topic and partition, under kafka_exporter's names:
 * the partition's high watermark minus the group's committed offset. Lag is known only for
 * partitions this broker hosts, whose high watermark it reads; others have no series.
 */
import type { Counter, MetricLabels, MetricsSink } from "../ports/index.js";
import { LabelledGauges, type TopicPartition } from "../storage/index.js";
import type { GroupCoordinatorState } from "./group-coordinator-state.js";

const PREFIX = "kafka_server_groupcoordinatormetrics";
const CLASSIC_STATES = ["Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"];
const CONSUMER_STATES = ["Empty", "Assigning", "Reconciling", "Stable"];

const kafkaHelp = (help: string, name: string): string =>
  `${help} (Kafka's kafka.server:type=group-coordinator-metrics,name=${name}).`;

export interface GroupMetricsOptions {
  /** Whether consumer lag has a series per partition, besides the sum per group and topic. */
  readonly isPartitionLevel: boolean;
  /** The high watermark of a partition this broker hosts, else undefined. */
  readonly highWatermarkOf: (topicPartition: TopicPartition) => number | undefined;
}

export class GroupCoordinatorMetrics {
  private readonly groups: LabelledGauges;
  private readonly classicGroups: LabelledGauges;
  private readonly consumerGroups: LabelledGauges;
  private readonly rebalances: Counter;
  private readonly consumerRebalances: Counter;
  /** The rebalance count of each group at the last update, by protocol and group id. */
  private readonly rebalancesSeen = new Map<string, number>();
  private readonly lag: LabelledGauges;
  private readonly lagSum: LabelledGauges;
  private readonly offsets: LabelledGauges;

  constructor(
    sink: MetricsSink,
    private readonly options: GroupMetricsOptions,
  ) {
    const family = (name: string, help: string) => new LabelledGauges(sink, { name, help });
    this.groups = family(
      `${PREFIX}_group_count`,
      kafkaHelp("Groups this broker coordinates, by protocol", "group-count"),
    );
    this.classicGroups = family(
      `${PREFIX}_classic_group_count`,
      kafkaHelp("Classic groups this broker coordinates, by state", "classic-group-count"),
    );
    this.consumerGroups = family(
      `${PREFIX}_consumer_group_count`,
      kafkaHelp(
        "Consumer groups (KIP-848) this broker coordinates, by state",
        "consumer-group-count",
      ),
    );
    this.rebalances = sink.counter(
      `${PREFIX}_classic_group_rebalance_total`,
      kafkaHelp("Rebalances begun by classic groups here", "classic-group-rebalance-count"),
    );
    this.consumerRebalances = sink.counter(
      `${PREFIX}_consumer_group_rebalance_total`,
      kafkaHelp(
        "Group epoch bumps of consumer groups (KIP-848) here",
        "consumer-group-rebalance-count",
      ),
    );
    const lagHelp = "the partition's high watermark minus the group's committed offset";
    this.lag = family("kafka_consumergroup_lag", `Consumer lag: ${lagHelp}.`);
    this.lagSum = family(
      "kafka_consumergroup_lag_sum",
      `Consumer lag summed per topic: ${lagHelp}.`,
    );
    this.offsets = family("kafka_consumergroup_current_offset", "The group's committed offset.");
  }

  /** Publishes the gauges of `state` and counts the rebalances begun since the last update. */
  update(state: GroupCoordinatorState): void {
    const listing = state.list();
    const byState = (type: string, states: readonly string[]) =>
      states.map((groupState) => ({
        labels: { state: groupState },
        value: listing.filter((group) => group.groupType === type && group.state === groupState)
          .length,
      }));
    this.groups.publish(
      ["classic", "consumer"].map((protocol) => ({
        labels: { protocol },
        value: listing.filter((group) => group.groupType === protocol).length,
      })),
    );
    this.classicGroups.publish(byState("classic", CLASSIC_STATES));
    this.consumerGroups.publish(byState("consumer", CONSUMER_STATES));
    this.countRebalances(state, listing);
    this.publishLag(state, listing);
  }

  private countRebalances(
    state: GroupCoordinatorState,
    listing: readonly { readonly groupId: string; readonly groupType: string }[],
  ): void {
    const present = new Set<string>();
    for (const { groupId, groupType } of listing) {
      const isClassic = groupType === "classic";
      const group = isClassic ? state.group(groupId) : state.consumer.group(groupId);
      if (group === undefined) continue;
      const key = `${groupType}:${groupId}`;
      present.add(key);
      const seen = this.rebalancesSeen.get(key) ?? 0;
      // A group deleted and made again starts from 0: what it did before is already counted.
      const gained =
        group.rebalanceCount >= seen ? group.rebalanceCount - seen : group.rebalanceCount;
      if (gained > 0) (isClassic ? this.rebalances : this.consumerRebalances).inc(gained);
      this.rebalancesSeen.set(key, group.rebalanceCount);
    }
    for (const groupId of this.rebalancesSeen.keys()) {
      if (!present.has(groupId)) this.rebalancesSeen.delete(groupId);
    }
  }

  private publishLag(
    state: GroupCoordinatorState,
    listing: readonly { readonly groupId: string }[],
  ): void {
    const lags: { labels: MetricLabels; value: number }[] = [];
    const offsets: { labels: MetricLabels; value: number }[] = [];
    const sums = new Map<string, { labels: MetricLabels; value: number }>();
    for (const { groupId } of listing) {
      for (const { topic, partition, committed } of state.offsets.offsetsOf(groupId)) {
        const highWatermark = this.options.highWatermarkOf({ topic, partition });
        if (highWatermark === undefined) continue;
        const lag = Math.max(0, highWatermark - committed.offset);
        const labels = { consumergroup: groupId, topic, partition: String(partition) };
        lags.push({ labels, value: lag });
        offsets.push({ labels, value: committed.offset });
        const key = JSON.stringify([groupId, topic]);
        const sum = sums.get(key) ?? { labels: { consumergroup: groupId, topic }, value: 0 };
        sums.set(key, { labels: sum.labels, value: sum.value + lag });
      }
    }
    this.lagSum.publish(sums.values());
    this.lag.publish(this.options.isPartitionLevel ? lags : []);
    this.offsets.publish(this.options.isPartitionLevel ? offsets : []);
  }
}
