/**
 * The static settings of a quorum controller, under Kafka's config names where Kafka has them.
 */
import type { ClusterControlConfig } from "../cluster/index.js";
import { DEFAULT_CLUSTER_CONTROL_CONFIG } from "../cluster/index.js";
import type { StaticBrokerConfig } from "../configs/index.js";
import type { LeaderRebalanceSettings, ReplicationDefaults } from "../election/index.js";
import {
  DEFAULT_LEADER_REBALANCE_SETTINGS,
  DEFAULT_REPLICATION_DEFAULTS,
} from "../election/index.js";
import type { BootstrapOptions } from "../features/index.js";
import type { TopicDefaults } from "../topics/index.js";

export interface QuorumControllerSettings {
  /** The cluster id brokers must register with (meta.properties). */
  readonly clusterId: string;
  /** `broker.session.timeout.ms`, and the fixed base of assigned broker ids. */
  readonly cluster: ClusterControlConfig;
  /**
   * How often the liveness scan runs. Kafka scans on a short fixed interval rather than once per
   * session; one second (the default) fences a silent broker within the session timeout plus
   * one second, whatever the session timeout is.
   */
  readonly livenessScanIntervalMs: number;
  /** `auto.leader.rebalance.enable`, `leader.imbalance.*`. */
  readonly leaderRebalance: LeaderRebalanceSettings;
  /** `unclean.leader.election.enable`, `min.insync.replicas`. */
  readonly replication: ReplicationDefaults;
  /** `num.partitions`, `default.replication.factor`. */
  readonly topicDefaults: TopicDefaults;
  /** The node's static config file, for DescribeConfigs and config resolution. */
  readonly staticConfig: StaticBrokerConfig;
  /** What a new cluster's metadata log starts with. */
  readonly bootstrap: BootstrapOptions;
  /** `metadata.log.max.record.bytes.between.snapshots`. */
  readonly maxBytesBetweenSnapshots: number;
  /** `metadata.log.max.snapshot.interval.ms` (0 turns the time trigger off). */
  readonly maxSnapshotIntervalMs: number;
  /** The most operations that may wait in the queue; more are refused at once. */
  readonly queuedOperationsMax: number;
  /** Whether `authorizer.class.name` names an authorizer; without one the ACL APIs are off. */
  readonly isAuthorizerEnabled: boolean;
}

/** Kafka's defaults, with the cluster id left to the caller. */
export function defaultQuorumControllerSettings(clusterId: string): QuorumControllerSettings {
  return {
    clusterId,
    cluster: DEFAULT_CLUSTER_CONTROL_CONFIG,
    livenessScanIntervalMs: 1000,
    leaderRebalance: DEFAULT_LEADER_REBALANCE_SETTINGS,
    replication: DEFAULT_REPLICATION_DEFAULTS,
    topicDefaults: { numPartitions: 1, defaultReplicationFactor: 1 },
    staticConfig: {},
    bootstrap: {},
    maxBytesBetweenSnapshots: 20 * 1024 * 1024,
    maxSnapshotIntervalMs: 60 * 60 * 1000,
    queuedOperationsMax: 10_000,
    isAuthorizerEnabled: false,
  };
}
