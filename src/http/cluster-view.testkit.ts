/** A cluster view for the tests of src/http: one combined node, its quorum, nothing else. */
import { brokerId, leaderEpoch } from "../common/index.js";
import type { ClusterView } from "./cluster-view.js";

export function emptyClusterView(fields: Partial<ClusterView> = {}): ClusterView {
  return {
    clusterId: "abc",
    nodeId: brokerId(1),
    roles: ["broker", "controller"],
    controller: {
      leaderId: brokerId(1),
      leaderEpoch: leaderEpoch(2),
      voters: [brokerId(1)],
      highWatermark: undefined,
      logEndOffset: 41,
      replicas: undefined,
    },
    replicaManager: undefined,
    brokers: [],
    topics: [],
    logDirs: [],
    groups: undefined,
    ...fields,
  };
}
