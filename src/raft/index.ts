// The public surface of src/raft: the pure KRaft-style Raft node, its inputs and outputs, and
// the helpers a driver needs to write snapshots and describe its log.
export { RaftNode, type RaftNodeOptions, type RaftRole } from "./raft-node.js";
export type { ProposeOptions, ProposeResult } from "./propose.js";
export {
  DEFAULT_RAFT_TIMINGS,
  checkRaftConfig,
  type ConfiguredVoter,
  type RaftConfig,
  type RaftTimings,
} from "./config.js";
export { EMPTY_ELECTION_STATE, type PersistedElectionState } from "./initial-state.js";
export type { LogShape, FetchValidation } from "./log-view.js";
export type {
  InboundRequest,
  InboundResponse,
  LogRead,
  OutboundMessage,
  RaftApi,
  RaftRequest,
  RaftResponse,
  SnapshotRead,
} from "./messages.js";
export type {
  AppendAction,
  LeaderChange,
  QuorumStateToPersist,
  RaftOutput,
  SnapshotAction,
} from "./output.js";
export type { CreateSnapshotResult } from "./snapshots.js";
export {
  controlRecordsOf,
  snapshotFooterBatch,
  snapshotHeaderBatch,
  type LoggedControlRecord,
} from "./control-records.js";
export { METADATA_TOPIC_ID } from "./request-builders.js";
export {
  METADATA_PARTITION_INDEX,
  METADATA_TOPIC_NAME,
  NO_REPLICA_ID,
  compareSnapshotIds,
  sameReplica,
  snapshotName,
  type Endpoint,
  type OffsetAndEpoch,
  type ReplicaKey,
  type SnapshotId,
  type SnapshotInfo,
} from "./types.js";
export { VoterSet, SUPPORTED_KRAFT_VERSIONS, type Voter } from "./voter-set.js";
export { computeHighWatermark, type HighWatermarkInput } from "./high-watermark.js";
// The driver: persistence, transport, timers and listeners.
export { RaftDriver } from "./raft.driver.js";
export type {
  RaftDriverOptions,
  RaftDriverStatus,
  RaftTransport,
  SnapshotResult,
} from "./raft-driver-options.js";
export type {
  RaftListener,
  CommittedRecords,
  SnapshotRecords,
} from "./log/commit-delivery.driver.js";
export { RAFT_API_BRIDGES, RAFT_API_CODECS, type RaftApiBridge } from "./raft-driver-apis.js";
export { metadataLogFolder } from "./log/metadata-log.driver.js";
export { QUORUM_STATE_FILE } from "./quorum-state.driver.js";
export {
  FETCH_REPLICA_STATE_VERSION_MIN,
  fetchRequestForVersion,
  fetchWireForms,
  RAFT_FETCH_VERSION_MIN,
} from "./fetch-versions.js";
export type { FetchWireForm } from "./fetch-versions.js";
export {
  BOOTSTRAP_SNAPSHOT_ID,
  writeBootstrapCheckpoint,
  type BootstrapCheckpointResult,
} from "./log/bootstrap-checkpoint.driver.js";
export {
  BOOTSTRAP_METADATA_FILE,
  readBootstrapMetadata,
  writeBootstrapMetadata,
} from "./log/bootstrap-metadata.driver.js";
