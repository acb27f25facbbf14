// The public surface of sim/raft: the Raft simulation workload, its per-seed runner, and the
// checker (for tests that feed it histories directly).
export { raftWorkload, raftLivenessSamples } from "./workload.js";
export {
  runRaftSeed,
  type RaftRunReport,
  type RaftSeedResult,
  type RaftClusterShape,
} from "./raft-workload.js";
export { RaftChecker, type CheckedReplica } from "./checker.js";
export { LivenessSamples } from "./liveness.js";
export { livenessBoundMs, simulatedTimings } from "./settings.js";
