/**
 * The settings each part of a node runs with, taken from the node configuration: the log
 * manager's, the default topic configs of every partition log, the quorum controller's, and the
 * static config that DescribeConfigs reports. Pure: the node assembly calls these once at start.
 */
import {
  DEFAULT_CLUSTER_CONTROL_CONFIG,
  DEFAULT_LEADER_REBALANCE_SETTINGS,
  defaultQuorumControllerSettings,
  type QuorumControllerSettings,
  type StaticBrokerConfig,
} from "../controller/index.js";
import type { SocketServerConfig } from "../broker/index.js";
import { defaultPartitionConfig, type PartitionConfig } from "../replication/index.js";
import {
  defaultLogConfig,
  defaultLogManagerConfig,
  NEVER,
  type LogConfig,
  type LogManagerConfig,
} from "../storage/index.js";
import type { LogFormat } from "../adapters/index.js";
import type { LogLevel } from "../ports/index.js";
import type { NodeConfig } from "./config/node-config.js";

/** The topic configs of a topic without overrides: the node's `log.*` keys. */
export function defaultLogConfigOf(config: NodeConfig): LogConfig {
  const log = config.log;
  return {
    ...defaultLogConfig,
    segmentBytes: log.segmentBytes,
    segmentMs: log.rollMs,
    indexIntervalBytes: log.indexIntervalBytes,
    segmentIndexBytes: log.indexSizeMaxBytes,
    flushMessages: log.flushIntervalMessages,
    flushMs: log.flushIntervalMs ?? NEVER,
    retentionMs: log.retentionMs,
    retentionBytes: log.retentionBytes,
    cleanupPolicy: {
      delete: log.cleanupPolicy.includes("delete"),
      compact: log.cleanupPolicy.includes("compact"),
    },
    deleteRetentionMs: log.cleanerDeleteRetentionMs,
    minCleanableDirtyRatio: log.cleanerMinCleanableRatio,
    fileDeleteDelayMs: log.segmentDeleteDelayMs,
    maxMessageBytes: config.messageMaxBytes,
    messageTimestampType: log.messageTimestampType,
    producerIdExpirationMs: log.producerIdExpirationMs,
  };
}

/** The log manager's settings; the partition logs live in `log.dirs`. */
export function logManagerConfigOf(config: NodeConfig): LogManagerConfig {
  const log = config.log;
  return {
    ...defaultLogManagerConfig(log.logDirs),
    numRecoveryThreadsPerDataDir: log.recoveryThreadsPerDataDir,
    logFlushSchedulerIntervalMs: log.flushSchedulerIntervalMs,
    logFlushOffsetCheckpointIntervalMs: log.flushOffsetCheckpointIntervalMs,
    logFlushStartOffsetCheckpointIntervalMs: log.flushStartOffsetCheckpointIntervalMs,
    replicaHighWatermarkCheckpointIntervalMs: config.replicaHighWatermarkCheckpointIntervalMs,
    logRetentionCheckIntervalMs: log.retentionCheckIntervalMs,
    defaultLogConfig: defaultLogConfigOf(config),
    logCleanerEnable: log.cleanerEnable,
    logCleanerBackoffMs: log.cleanerBackoffMs,
    maxOpenFiles: log.maxOpenFiles,
    logDirFullProbeIntervalMs: log.fullDirProbeIntervalMs,
  };
}

export function defaultPartitionConfigOf(config: NodeConfig): PartitionConfig {
  return {
    ...defaultPartitionConfig(defaultLogConfigOf(config)),
    minInsyncReplicas: config.minInsyncReplicas,
  };
}

/**
 * The keys the operator set (file, environment or flag) as text: Kafka's STATIC_BROKER_CONFIG
 * source of DescribeConfigs. Keys left at their default are not part of it.
 */
export function staticConfigOf(config: NodeConfig): StaticBrokerConfig {
  const entries: [string, string][] = [];
  for (const [key, resolved] of config.values.all()) {
    if (resolved.source.kind === "default") continue;
    const value = resolved.value;
    if (value === null) continue;
    entries.push([key, Array.isArray(value) ? value.join(",") : String(value)]);
  }
  return Object.fromEntries(entries);
}

export function controllerSettingsOf(
  config: NodeConfig,
  clusterId: string,
): QuorumControllerSettings {
  const defaults = defaultQuorumControllerSettings(clusterId);
  return {
    ...defaults,
    cluster: {
      ...DEFAULT_CLUSTER_CONTROL_CONFIG,
      sessionTimeoutMs: config.brokerSessionTimeoutMs,
    },
    leaderRebalance: {
      ...DEFAULT_LEADER_REBALANCE_SETTINGS,
      autoLeaderRebalanceEnable: config.autoLeaderRebalanceEnable,
      leaderImbalancePerBrokerPercentage: config.leaderImbalancePerBrokerPercentage,
      leaderImbalanceCheckIntervalSeconds: config.leaderImbalanceCheckIntervalSeconds,
    },
    replication: {
      uncleanLeaderElectionEnable: config.uncleanLeaderElectionEnable,
      minInsyncReplicas: config.minInsyncReplicas,
    },
    topicDefaults: {
      numPartitions: config.numPartitions,
      defaultReplicationFactor: config.defaultReplicationFactor,
    },
    staticConfig: staticConfigOf(config),
    maxBytesBetweenSnapshots: config.values.number(
      "metadata.log.max.record.bytes.between.snapshots",
    ),
    maxSnapshotIntervalMs: config.values.number("metadata.log.max.snapshot.interval.ms"),
    isAuthorizerEnabled: config.authorizer !== undefined,
  };
}

/** The connection limits of every server of the node, the client's and the controller's. */
export function socketServerConfigOf(config: NodeConfig): Partial<SocketServerConfig> {
  return {
    socketRequestMaxBytes: config.socketRequestMaxBytes,
    connectionsMaxIdleMs: config.connectionsMaxIdleMs,
    queuedMaxRequests: config.queuedMaxRequests,
    maxConnections: config.maxConnections,
    maxConnectionsPerIp: config.maxConnectionsPerIp,
    maxConnectionsPerIpOverrides: config.maxConnectionsPerIpOverrides,
    queuedMaxRequestBytes: config.queuedMaxRequestBytes,
  };
}

/** The node's own log: its level, the levels per component and the line format. */
export function loggerOptionsOf(config: NodeConfig): {
  readonly level: LogLevel;
  readonly componentLevels: ReadonlyMap<string, LogLevel>;
  readonly format: LogFormat;
} {
  const { values } = config;
  const componentLevels = new Map(
    values.list("sluice.log.levels").map((entry) => {
      const [component = "", level = "info"] = entry.split("=");
      return [component, level as LogLevel];
    }),
  );
  return {
    level: values.string("sluice.log.level") as LogLevel,
    componentLevels,
    format: values.string("sluice.log.format") as LogFormat,
  };
}
