// Partition reassignment: AlterPartitionReassignments (start, replace, cancel) and
// ListPartitionReassignments; completion happens in the PartitionChangeBuilder.
export { alterPartitionReassignments } from "./alter-partition-reassignments.js";
export { listPartitionReassignments } from "./list-partition-reassignments.js";
export { reassignmentPlan, reassignmentRevert } from "./reassignment-plan.js";
export type { ReassignmentPlan, ReassignmentRevert } from "./reassignment-plan.js";
