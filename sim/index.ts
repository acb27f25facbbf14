export { SeededRandom } from "./random.js";
export { ManualClock, simulationEpochMs } from "./clock.js";
export { Scheduler, Lane, type SchedulerOptions } from "./scheduler.js";
export { SimNode, type ScheduleOptions } from "./node.js";
export { Trace, type TraceOptions } from "./trace.js";
export { Fnv1a64, fnv1a64Hex } from "./hash.js";
export { settle } from "./settle.js";
export { SimWorld, type SimWorldOptions } from "./world.js";
export {
  SimFileSystem,
  type SimFileSystemOptions,
  type LatencyRange,
} from "./fs/sim-file-system.js";
export { SimFileHandle } from "./fs/sim-file-handle.js";
export { keepAllWritten, loseAllUnsynced, type CrashOptions } from "./fs/crash.js";
export type { FaultRule, FileOperation, InjectedFault } from "./fs/faults.js";
export { SimNetwork, type SimNetworkOptions } from "./net/sim-network.js";
export { SimConnection } from "./net/sim-connection.js";
export { defaultLinkSettings, LinkTable, type LinkSettings } from "./net/links.js";
export type { MessageHandler, MessageStats } from "./net/messages.js";
export { SimNetworkError, type NetworkErrorCode } from "./net/errors.js";
export {
  registerWorkload,
  registeredWorkloads,
  findWorkload,
  InvariantViolation,
  simulatorSelfCheck,
  type Workload,
  type WorkloadOutcome,
} from "./workloads/index.js";
export { MemoryMetricsSink, type MemoryMetricType } from "./memory-metrics.js";
export { raftWorkload, runRaftSeed, RaftChecker } from "./raft/index.js";
