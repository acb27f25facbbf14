// The public surface of sim/nodes: the whole-node simulation workload, its per-seed runner, the
// simulated node and client, and the independent checker (for tests that feed it histories).
export { nodesWorkload } from "./workload.js";
export { runNodesSeed, type NodesRunReport } from "./nodes-workload.js";
export { SimulatedNode, combinedNodeSettings, simNodeConfig } from "./sim-nodes.js";
export { SimClient } from "./sim-client.js";
export { History, partitionKey, type HistoryEvent, type ReadRecord } from "./history.js";
export { checkHistory, type CheckReport, type FinalLogs } from "./nodes-checker.js";
