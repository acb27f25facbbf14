// The replication layer: pure partition state (role, epochs, ISR decisions, high watermark),
// produce validation, the partition driver, the replica fetchers and the replica manager (see
// README.md).
export {
  UNKNOWN_OFFSET,
  emptyReplicaState,
  updateFetchState,
  resetReplicaState,
  isCaughtUp,
} from "./replica-state.js";
export type { FollowerReplicaState, FollowerFetch } from "./replica-state.js";
export { committedIsr, maximalIsr, isInflight } from "./isr-state.js";
export type {
  AlterPartitionItem,
  AlterPartitionOutcome,
  CommittedIsr,
  IsrChange,
  IsrMember,
  IsrState,
} from "./isr-state.js";
export type { FollowerRole, LeaderRole, PartitionRole } from "./partition-role.js";
export { effectiveMinIsr, highWatermarkCandidate } from "./high-watermark.js";
export type { HighWatermarkInput } from "./high-watermark.js";
export { PartitionState } from "./partition-state.js";
export type { FollowerFetchUpdate, PartitionStateOptions, RoleChange } from "./partition-state.js";
export type { AcksAllProgress } from "./request-checks.js";
export { ALTER_PARTITION_ATTEMPTS_MAX } from "./alter-partition-sender.js";
export type { AlterPartitionSender } from "./alter-partition-sender.js";
export { directoryAssignmentsOf, hasDirectoryAssignment } from "./directory-assignments.js";
export type { DirectoryAssigner, DirectoryAssignment } from "./directory-assignments.js";
export { defaultPartitionConfig, partitionConfigOf } from "./partition-config.js";
export type { PartitionConfig } from "./partition-config.js";
export { validateProduceRecords } from "./produce-validation.js";
export type { ProduceRules, ProduceValidation } from "./produce-validation.js";
export type { RecordError } from "./record-rules.js";
export type {
  AppendOutcome,
  DeleteRecordsOutcome,
  DivergingEpoch,
  EpochEndOffset,
  FollowerAppendOutcome,
  IsolationLevel,
  OffsetLookup,
  OffsetLookupOptions,
  ProduceEntry,
  ReadOutcome,
  ReadRequest,
  Refusal,
} from "./partition-results.js";
export {
  RACK_AWARE_REPLICA_SELECTOR_CLASS,
  rackAwareReplicaSelector,
  replicaSelectorOf,
} from "./replica-selector.js";
export type {
  ClientMetadata,
  PartitionView,
  ReplicaSelector,
  ReplicaView,
} from "./replica-selector.js";
export { findPreferredReadReplica, isFetchOnlyFromLeader } from "./preferred-read-replica.js";
export { Partition } from "./partition.driver.js";
export type { AppendedEvent, PartitionOptions } from "./partition.driver.js";
export type { HostedPartition, PartitionLookup } from "./hosted-partitions.js";
export { ReplicaManager } from "./replica-manager.driver.js";
export { ReplicaManagerMetrics } from "./replica-manager-metrics.js";
export type { FollowerLag, ReplicationSummary } from "./replication-summary.js";
export type {
  AcksAllWait,
  AppendRecordsResult,
  ReplicaManagerOptions,
  ReplicationNetwork,
} from "./replica-manager.driver.js";
export {
  initialFetchState,
  truncationFor,
  outOfRangeDecision,
  type PartitionFetchState,
} from "./fetch-state.js";
export { FetchSessionHandler, type SessionPartition } from "./fetch-session-handler.js";
export { epochRequestBody, fetchRequestBody, replicaListOffsetsBody } from "./replica-requests.js";
export {
  RemoteLeaderEndpoint,
  partitionKey,
  type FollowerFetchRequest,
  type FollowerFetchResult,
  type LeaderEndpoint,
} from "./leader-endpoint.driver.js";
export { ReplicaFetcher, type ReplicaFetcherSettings } from "./replica-fetcher.driver.js";
export {
  DEFAULT_REPLICA_FETCHER_SETTINGS,
  ReplicaFetcherManager,
  javaStringHash,
  type ReplicaFetcherManagerSettings,
} from "./replica-fetcher-manager.driver.js";
export {
  DEFAULT_REPLICATION_QUOTA_WINDOW,
  ReplicationQuotas,
  type ReplicaQuota,
} from "./replication-quotas.driver.js";
export {
  ReplicationQuota,
  THROTTLE_KEYS,
  throttleBoundOf,
  throttledPartitionsOf,
  topicThrottleOf,
} from "./replication-quota.js";
export type { ThrottledPartitions, ThrottleKeys } from "./replication-quota.js";
export { WindowedRate, type RateWindow } from "./windowed-rate.js";
