import { registerWorkload } from "./registry.js";
import { simulatorSelfCheck } from "./simulator-self-check.js";
import { raftWorkload } from "../raft/index.js";
import { clusterWorkload } from "../cluster/index.js";
import { nodesWorkload } from "../nodes/index.js";

export {
  registerWorkload,
  registeredWorkloads,
  findWorkload,
  InvariantViolation,
  type Workload,
  type WorkloadOutcome,
} from "./registry.js";
export { simulatorSelfCheck } from "./simulator-self-check.js";

registerWorkload(simulatorSelfCheck);
registerWorkload(raftWorkload);
registerWorkload(clusterWorkload);
registerWorkload(nodesWorkload);
