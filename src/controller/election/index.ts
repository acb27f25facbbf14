// Leader election: Kafka's PartitionChangeBuilder, the partition changes that follow broker
// events, ElectLeaders, and the automatic preferred-leader rebalance.
export { movePartitionsAwayFrom } from "./broker-events.js";
export type { MoveAwayReason } from "./broker-events.js";
export {
  handleBrokerFenced,
  handleBrokerShutdown,
  handleBrokerUnfenced,
  handleBrokerUnregistered,
  handleBrokerUncleanShutdown,
  handleOfflineLogDirs,
} from "./broker-events.js";
export type {
  ElectionCandidate,
  ElectionMode,
  ElectionOutcome,
  ElectionReport,
  ReplicaState,
} from "./election-report.js";
export { describeElection, isLeaderChange, logElection } from "./election-report.js";
export { ElectionTypeCode, electLeaders } from "./elect-leaders.js";
export {
  DEFAULT_LEADER_REBALANCE_SETTINGS,
  leaderImbalanceCheckIntervalMs,
  preferredLeaderRebalance,
} from "./leader-rebalance.js";
export type {
  BrokerLeaderImbalance,
  LeaderRebalance,
  LeaderRebalanceSettings,
} from "./leader-rebalance.js";
export { buildPartitionChange } from "./partition-change-builder.js";
export type { PartitionChangeInput, PartitionChangeResult } from "./partition-change-builder.js";
export {
  ELR_PARTITION_CHANGE_RECORD_VERSION,
  addPartitionChange,
  changePartition,
  noPartitionChanges,
  partitionChangeMetadataRecord,
  partitionChangeRecordVersion,
} from "./partition-changes.js";
export type {
  PartitionChangeRequest,
  PartitionChanges,
  PartitionControlResult,
} from "./partition-changes.js";
export { partitionsWhere } from "./partition-scan.js";
export type { PartitionEntry } from "./partition-scan.js";
export { completedReassignment, isReassignmentInProgress } from "./reassignment-completion.js";
export {
  containsAllReplicas,
  hasDuplicateReplicas,
  sameReplicas,
  withoutReplicas,
} from "./replica-lists.js";
export {
  DIRECTORY_LOST,
  DIRECTORY_UNASSIGNED,
  defaultDirectory,
  isActiveBroker,
  replicaState,
} from "./replica-state.js";
export type { EligibilityOverrides } from "./replica-state.js";
export {
  DEFAULT_REPLICATION_DEFAULTS,
  MIN_IN_SYNC_REPLICAS,
  UNCLEAN_LEADER_ELECTION_ENABLE,
  effectiveMinIsr,
  isElrEnabled,
  isUncleanLeaderElectionEnabled,
  topicElectionSettings,
} from "./topic-settings.js";
export type { ReplicationDefaults, TopicElectionSettings } from "./topic-settings.js";
export { electionPartitionHooks } from "./election-hooks.js";
export { elrClearingRecords } from "./clear-elr.js";
