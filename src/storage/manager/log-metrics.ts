/**
 * Kafka's per-partition log gauges (kafka.log:type=Log,name=Size|LogStartOffset|LogEndOffset|
 * NumLogSegments,topic=..,partition=..) under the names the JMX exporter's Kafka rules give them
 * (docs/decisions/0009-kafka-metric-names.md), read off the broker's logs when it is scraped.
 */
import type { MetricsSink } from "../../ports/index.js";
import type { PartitionLog } from "../log/log.driver.js";
import { LabelledGauges } from "./labelled-gauges.js";

const GAUGES = [
  ["Size", "Bytes of the partition's log segments", (log: PartitionLog) => log.size],
  ["LogStartOffset", "The log start offset of the partition", (log) => log.logStartOffset],
  ["LogEndOffset", "The log end offset of the partition", (log) => log.logEndOffset],
  ["NumLogSegments", "Segments of the partition's log", (log) => log.segmentCount],
] as const satisfies readonly (readonly [string, string, (log: PartitionLog) => number])[];

export class LogMetrics {
  private readonly families: readonly (readonly [LabelledGauges, (log: PartitionLog) => number])[];

  constructor(sink: MetricsSink) {
    this.families = GAUGES.map(([kafkaName, help, read]) => {
      const family = {
        name: `kafka_log_log_${kafkaName.toLowerCase()}`,
        help: `${help} (Kafka's kafka.log:type=Log,name=${kafkaName}).`,
      };
      return [new LabelledGauges(sink, family), read] as const;
    });
  }

  /** Publishes the gauges of `logs`, the online logs of this broker; others lose their series. */
  update(logs: readonly PartitionLog[]): void {
    for (const [family, read] of this.families) {
      family.publish(
        logs.map((log) => ({
          labels: {
            topic: log.topicPartition.topic,
            partition: String(log.topicPartition.partition),
          },
          value: read(log),
        })),
      );
    }
  }
}
