/**
 * The node's metric families read off its live state as it is scraped (docs/metrics.md): the
 * Raft node's gauges (Kafka's raft-metrics), the broker's per-partition log gauges (kafka.log
 * Log, unless `sluice.metrics.partition.level.enable` is off) and the controller's topic and
 * partition gauges (KafkaController). Each collector is cheap to skip and runs at every scrape.
 */
import type { MetricsSink } from "../ports/index.js";
import type { RaftDriver } from "../raft/index.js";
import { LabelledGauges, LogMetrics, type LogManager } from "../storage/index.js";
import type { QuorumController } from "../controller/index.js";

/** What the collectors read: the node's parts (node-shutdown.ts's NodeParts). */
export interface ScrapedParts {
  readonly ports: { readonly metrics: MetricsSink };
  readonly config: { readonly partitionLevelMetricsEnable: boolean };
  readonly raft: RaftDriver;
  readonly logManager: LogManager | undefined;
  readonly controller: { readonly controller: QuorumController } | undefined;
}

const RAFT = "kafka_server_raftmetrics";
const raftHelp = (help: string, name: string): string =>
  `${help} (Kafka's kafka.server:type=raft-metrics,name=${name}).`;

/** The collectors of `parts`, to run before each render of /metrics. */
export function scrapeCollectors(parts: ScrapedParts): (() => void)[] {
  const { metrics } = parts.ports;
  const gauge = (name: string, help: string) => metrics.gauge(`${RAFT}_${name}`, help);
  const leader = gauge(
    "current_leader",
    raftHelp("The quorum's leader, -1 unknown", "current-leader"),
  );
  const epoch = gauge("current_epoch", raftHelp("The quorum's epoch", "current-epoch"));
  const highWatermark = gauge(
    "high_watermark",
    raftHelp("The metadata log's high watermark, -1 unknown", "high-watermark"),
  );
  const logEnd = gauge(
    "log_end_offset",
    raftHelp("The metadata log's end offset", "log-end-offset"),
  );
  const state = new LabelledGauges(metrics, {
    name: `${RAFT}_current_state`,
    help: raftHelp("1 for this node's Raft role", "current-state"),
  });
  const collectors: (() => void)[] = [
    () => {
      const status = parts.raft.status;
      leader.set(status.leaderId ?? -1);
      epoch.set(status.epoch);
      highWatermark.set(status.highWatermark ?? -1);
      logEnd.set(status.logEndOffset);
      state.publish([{ labels: { state: status.role }, value: 1 }]);
    },
  ];
  const { logManager } = parts;
  const controller = parts.controller?.controller;
  if (logManager !== undefined && parts.config.partitionLevelMetricsEnable) {
    const logs = new LogMetrics(metrics);
    collectors.push(() => logs.update(logManager.allLogs()));
  }
  if (controller !== undefined) {
    collectors.push(() => controller.metrics.updatePartitions(controller.committedImage));
  }
  return collectors;
}
