// The quorum controller's parts: the Raft interface it drives (and an adapter for src/raft's
// driver), its settings, the operations of its queue, the answers that wait
// for commits, the activation batches, the periodic writes and their metrics.
export type {
  ControllerProposeOptions,
  ControllerProposeResult,
  ControllerRaft,
  ControllerRaftListener,
  ControllerSnapshotRequest,
  ControllerSnapshotResult,
  LeaderAndEpoch,
} from "./controller-raft.js";
export { RaftDriverAdapter } from "./raft-driver-adapter.js";
export type { RaftDriverSurface } from "./raft-driver-adapter.js";
export { defaultQuorumControllerSettings } from "./controller-settings.js";
export type { QuorumControllerSettings } from "./controller-settings.js";
export type {
  ControllerOperation,
  ControllerRefusal,
  ReadContext,
  ReadOperation,
  WriteContext,
  WriteOperation,
  WriteResult,
} from "./operation.js";
export { PendingCompletions } from "./pending-completions.js";
export type { PendingCompletion } from "./pending-completions.js";
export { activationRecords, noOpRecord, stepAfter } from "./activation.js";
export type { ActivationStep } from "./activation.js";
export { leaderRebalanceOperation, livenessScanOperation } from "./periodic-operations.js";
export type { LivenessScanOutcome, RebalanceOutcome } from "./periodic-operations.js";
export { ControllerMetrics } from "./controller-metrics.js";
