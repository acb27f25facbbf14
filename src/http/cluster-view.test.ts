import { test } from "node:test";
import assert from "node:assert/strict";
import {
  brokerId,
  leaderEpoch,
  offset,
  partitionIndex,
  uuidToBase64,
  type BrokerId,
  type Uuid,
} from "../common/index.js";
import {
  clusterViewJson,
  clusterViewRoute,
  replicationHealthOf,
  type ClusterView,
} from "./cluster-view.js";

const topicId = "0123456789abcdef0123456789abcdef" as Uuid;

/** A view with everything given out of order, as a source may hand it over. */
const view: ClusterView = {
  clusterId: "MkU3OEVBNTcwNTJENDM2Qk",
  nodeId: brokerId(2),
  roles: ["broker"],
  controller: {
    leaderId: brokerId(3),
    leaderEpoch: leaderEpoch(7),
    voters: [brokerId(3), brokerId(1)],
    highWatermark: 40,
    logEndOffset: 41,
    replicas: undefined,
  },
  replicaManager: {
    leaderCount: 1,
    partitionCount: 2,
    underReplicatedPartitions: 1,
    underMinIsrPartitionCount: 1,
    atMinIsrPartitionCount: 0,
    offlineReplicaCount: 0,
    reassigningPartitions: 0,
    isrShrinks: 3,
    isrExpands: 2,
    failedIsrUpdates: 1,
    maxLag: 0,
  },
  brokers: [
    {
      id: brokerId(2),
      epoch: 12,
      isFenced: true,
      inControlledShutdown: false,
      rack: undefined,
      endpoints: [{ name: "PLAINTEXT", host: "h2", port: 9092, securityProtocol: "PLAINTEXT" }],
      directories: [],
    },
    {
      id: brokerId(1),
      epoch: 10,
      isFenced: false,
      inControlledShutdown: true,
      rack: "r1",
      endpoints: [],
      directories: [],
    },
  ],
  topics: [
    {
      name: "orders",
      topicId,
      minInsyncReplicas: 2,
      partitions: [
        {
          partition: partitionIndex(1),
          leader: undefined,
          leaderEpoch: leaderEpoch(5),
          replicas: [brokerId(1), brokerId(2)],
          isr: [],
          elr: [],
          lastKnownElr: [],
          highWatermark: undefined,
          logEndOffset: undefined,
          followerLag: undefined,
        },
        {
          partition: partitionIndex(0),
          leader: brokerId(2),
          leaderEpoch: leaderEpoch(4),
          replicas: [brokerId(2), brokerId(1)],
          isr: [brokerId(2)],
          elr: [],
          lastKnownElr: [],
          highWatermark: offset(40),
          logEndOffset: offset(42),
          followerLag: 3,
        },
      ],
    },
    { name: "audit", topicId, minInsyncReplicas: 1, partitions: [] },
  ],
  logDirs: [{ path: "/data/b", isOnline: false }],
  groups: undefined,
};

test("the JSON view sorts, writes null for the unknown and counts replication health", () => {
  const json = clusterViewJson(view) as {
    controller: unknown;
    replication: unknown;
    replicaManager: unknown;
    brokers: { id: number; rack: string | null }[];
    topics: { name: string; topicId: string; partitions: Record<string, unknown>[] }[];
  };
  assert.deepEqual(json.controller, {
    leaderId: 3,
    leaderEpoch: 7,
    voters: [1, 3],
    highWatermark: 40,
    logEndOffset: 41,
    replicas: null,
  });
  // Partition 1 has no leader and an empty ISR; partition 0's ISR of one is below min ISR 2.
  assert.deepEqual(json.replication, {
    offlinePartitions: 1,
    underReplicatedPartitions: 2,
    underMinIsrPartitions: 2,
  });
  assert.deepEqual(json.replicaManager, view.replicaManager);
  const controllerOnly = clusterViewJson({ ...view, replicaManager: undefined });
  assert.equal((controllerOnly as { replicaManager: unknown }).replicaManager, null);
  assert.deepEqual(
    json.brokers.map((broker) => [broker.id, broker.rack]),
    [
      [1, "r1"],
      [2, null],
    ],
  );
  assert.deepEqual(
    json.topics.map((topic) => topic.name),
    ["audit", "orders"],
  );
  assert.equal(json.topics[1]?.topicId, uuidToBase64(topicId));
  assert.deepEqual(json.topics[1]?.partitions, [
    {
      partition: 0,
      leader: 2,
      leaderEpoch: 4,
      replicas: [2, 1],
      isr: [2],
      elr: [],
      lastKnownElr: [],
      highWatermark: 40,
      logEndOffset: 42,
      followerLag: 3,
    },
    {
      partition: 1,
      leader: null,
      leaderEpoch: 5,
      replicas: [1, 2],
      isr: [],
      elr: [],
      lastKnownElr: [],
      highWatermark: null,
      logEndOffset: null,
      followerLag: null,
    },
  ]);
});

test("GET /v1/cluster answers the view as JSON, the same text for the same view", () => {
  const route = clusterViewRoute({ clusterView: () => view });
  assert.equal(route.method, "GET");
  assert.equal(route.path, "/v1/cluster");
  const first = route.handle({ method: "GET", path: "/v1/cluster", headers: {}, query: {} });
  assert.equal(first.status, 200);
  assert.equal(first.contentType, "application/json; charset=utf-8");
  const reversed: ClusterView = {
    ...view,
    brokers: [...view.brokers].reverse(),
    topics: [...view.topics].reverse(),
  };
  const second = clusterViewRoute({ clusterView: () => reversed }).handle({
    method: "GET",
    path: "/v1/cluster",
    headers: {},
    query: {},
  });
  assert.equal(first.body, second.body);
  const parsed = JSON.parse(first.body) as { clusterId: string; nodeId: number; roles: string[] };
  assert.deepEqual(
    [parsed.clusterId, parsed.nodeId, parsed.roles],
    [view.clusterId, 2, ["broker"]],
  );
});

test("the view carries only the documented fields, whatever else a source object holds", () => {
  const extra: ClusterView = {
    ...view,
    brokers: view.brokers.map((broker) => ({ ...broker, secret: "x" })),
  };
  assert.ok(!JSON.stringify(clusterViewJson(extra)).includes("secret"));
});

test("a partition is under min ISR against min.insync.replicas capped at its replica count", () => {
  const [orders] = view.topics;
  assert.ok(orders !== undefined);
  const single = (isr: readonly BrokerId[]) => ({
    ...orders,
    minInsyncReplicas: 3,
    partitions: [{ ...orders.partitions[1]!, leader: brokerId(1), replicas: [brokerId(1)], isr }],
  });
  assert.deepEqual(replicationHealthOf([single([brokerId(1)])]), {
    offlinePartitions: 0,
    underReplicatedPartitions: 0,
    underMinIsrPartitions: 0,
  });
  assert.equal(replicationHealthOf([single([])]).underMinIsrPartitions, 1);
});

test("the JSON view says the cluster's health, worst first, and this node's dirs", () => {
  const json = clusterViewJson(view) as { health: unknown; logDirs: unknown; groups: unknown };
  assert.deepEqual(json.health, {
    status: "unavailable",
    reasons: [
      "1 partition offline (no leader)",
      "2 partitions under min ISR",
      "2 partitions under-replicated",
      "broker 2 fenced",
      "broker 1 in controlled shutdown",
    ],
  });
  assert.deepEqual(json.logDirs, [{ path: "/data/b", isOnline: false }]);
  assert.equal(json.groups, null);
});
