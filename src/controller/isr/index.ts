// ISR changes: AlterPartition from partition leaders, validated and applied with the
// PartitionChangeBuilder of src/controller/election.
export { alterPartition } from "./alter-partition.js";
export {
  LeaderRecoveryStateCode,
  ineligibility,
  validateAlterPartition,
} from "./alter-partition-validation.js";
export type { IsrMember, ProposedPartitionState } from "./alter-partition-validation.js";
export { assignReplicasToDirs } from "./assign-replicas-to-dirs.js";
