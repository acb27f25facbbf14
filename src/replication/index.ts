// The replication layer, leader side: pure partition state (role, epochs, ISR decisions, high
// watermark), produce validation, the partition driver and the replica manager (see README.md).
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
  IsolationLevel,
  OffsetLookup,
  ReadOutcome,
  Refusal,
} from "./partition-results.js";
export { Partition } from "./partition.driver.js";
export type { AppendedEvent, PartitionOptions } from "./partition.driver.js";
export type { ReadRequest } from "./partition-read.driver.js";
export type { HostedPartition, PartitionLookup } from "./hosted-partitions.js";
export { ReplicaManager } from "./replica-manager.driver.js";
export type {
  AcksAllWait,
  AppendRecordsResult,
  ProduceEntry,
  ReplicaManagerOptions,
} from "./replica-manager.driver.js";
