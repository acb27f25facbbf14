// The group coordinator (see README.md): the pure classic group state machine, committed
// offsets, and the driver that keeps them in `__consumer_offsets`.
export type {
  Answer,
  GroupDelivery,
  JoinedMember,
  JoinRequest,
  JoinResult,
  MemberIdentity,
  SyncRequest,
  SyncResult,
} from "./group-messages.js";
export {
  DEFAULT_GROUP_CONFIG,
  OFFSETS_TOPIC,
  javaStringHashCode,
  offsetsPartitionFor,
  type GroupConfig,
} from "./group-config.js";
export { ClassicGroup, type GroupEffects, type GroupState } from "./classic-group.js";
export type { GroupMember } from "./group-member.js";
export type { MemberProtocol } from "./protocol-selection.js";
export { consumesTopic, deletableError, offsetsDeletableError } from "./group-views.js";
export {
  GroupCoordinatorState,
  type GroupDescription,
  type GroupListing,
  type Outcome,
} from "./group-coordinator-state.js";
export { DeadlineHeap, type Deadline } from "./deadline-heap.js";
export { OffsetStore, type CommittedOffset, type OffsetKey } from "./offset-store.js";
export {
  encodeOffsetRecords,
  replayOffsetsRecord,
  type OffsetRecord,
  type ReplayedRecord,
} from "./offset-records.js";
export type {
  ClassicGroupStore,
  PersistedClassicGroup,
  PersistedClassicMember,
} from "./classic-group-records.js";
export { loadOffsetsPartition, type LoadReport } from "./offsets-loader.driver.js";
export { awaitHighWatermark, commitErrorOf } from "./offset-writes.driver.js";
export {
  GroupCoordinator,
  OFFSET_COMMIT_TIMEOUT_MS,
  type CoordinatorStatus,
  type GroupCoordinatorOptions,
} from "./group-coordinator.driver.js";
export * from "./producer-ids/index.js";
export {
  ConsumerGroup,
  DEFAULT_CONSUMER_GROUP_CONFIG,
  type ConsumerGroupConfig,
  type ConsumerGroupState,
} from "./consumer-group.js";
export {
  ConsumerGroups,
  type ClassicOccupant,
  type ConsumerHeartbeatRequest,
} from "./consumer-groups.js";
export type {
  ConsumerHeartbeat,
  ConsumerHeartbeatResult,
  ConsumerMemberDescription,
} from "./consumer-group-messages.js";
export type { TopicCatalog } from "./subscribed-regexes.js";
export { compileTopicRegex, type CompiledTopicRegex } from "./topic-regex.js";
export type { Assignment, MemberState, OwnedPartitions } from "./current-assignment.js";
export { ASSIGNOR_NAMES, assign, type AssignorName } from "./assignors.js";
export * from "./transactions/index.js";
export { GroupCoordinatorMetrics, type GroupMetricsOptions } from "./group-coordinator-metrics.js";
