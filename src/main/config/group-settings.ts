/**
 * The group coordinator's settings read from the `group.*` and `offsets.*` keys, named as the
 * coordinator's GroupConfig names them so that they can be handed to it as they are.
 */
import type { AssignorName, ConsumerGroupConfig } from "../../coordinator/index.js";
import type { ConfigValues } from "./config-values.js";

const MINUTE_MS = 60_000;

/** The settings of consumer groups and the `__consumer_offsets` topic. */
export interface GroupSettings {
  readonly minSessionTimeoutMs: number;
  readonly maxSessionTimeoutMs: number;
  readonly initialRebalanceDelayMs: number;
  readonly maxSize: number;
  readonly offsetsTopicNumPartitions: number;
  readonly offsetsTopicReplicationFactor: number;
  /** `offsets.retention.minutes`, in ms. */
  readonly offsetsRetentionMs: number;
  readonly offsetMetadataMaxBytes: number;
  /** The `group.consumer.*` keys of KIP-848 consumer groups. */
  readonly consumer: ConsumerGroupConfig;
}

/** Reads the group settings from validated values. */
export function groupSettingsOf(values: ConfigValues): GroupSettings {
  return {
    minSessionTimeoutMs: values.number("group.min.session.timeout.ms"),
    maxSessionTimeoutMs: values.number("group.max.session.timeout.ms"),
    initialRebalanceDelayMs: values.number("group.initial.rebalance.delay.ms"),
    maxSize: values.number("group.max.size"),
    offsetsTopicNumPartitions: values.number("offsets.topic.num.partitions"),
    offsetsTopicReplicationFactor: values.number("offsets.topic.replication.factor"),
    offsetsRetentionMs: values.number("offsets.retention.minutes") * MINUTE_MS,
    offsetMetadataMaxBytes: values.number("offset.metadata.max.bytes"),
    consumer: {
      sessionTimeoutMs: values.number("group.consumer.session.timeout.ms"),
      heartbeatIntervalMs: values.number("group.consumer.heartbeat.interval.ms"),
      maxSize: values.number("group.consumer.max.size"),
      // The validator admits only the names of AssignorName.
      assignors: values.list("group.consumer.assignors") as readonly AssignorName[],
    },
  };
}
