// The public surface of sim/cluster: the controller and broker simulation workload, its
// per-seed runner, and the checker (for tests that feed it histories directly).
export { clusterWorkload } from "./workload.js";
export {
  runClusterSeed,
  type ClusterRunReport,
  type ClusterSeedResult,
} from "./cluster-workload.js";
export { ClusterChecker, type ConvergingNode, type DeliveredBatch } from "./cluster-checker.js";
export { checkFencedLeaders, checkRecord, type RecordOutcome } from "./partition-rules.js";
