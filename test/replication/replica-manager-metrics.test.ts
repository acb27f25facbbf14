import { test } from "node:test";
import assert from "node:assert/strict";
import { PrometheusRegistry } from "../../src/adapters/index.js";
import { ReplicaManagerMetrics, type ReplicationSummary } from "../../src/replication/index.js";

const QUIET: ReplicationSummary = {
  leaderCount: 0,
  partitionCount: 0,
  offlineReplicaCount: 0,
  underReplicatedPartitions: 0,
  underMinIsrPartitionCount: 0,
  atMinIsrPartitionCount: 0,
  reassigningPartitions: 0,
  isrShrinks: 0,
  isrExpands: 0,
  failedIsrUpdates: 0,
  followerLags: [],
  maxLag: 0,
};

const samplesOf = (text: string): string[] => text.split("\n").filter((line) => /^\w/.test(line));

test("every family but the lag per partition is exported from the start, named as Kafka's", () => {
  const registry = new PrometheusRegistry();
  new ReplicaManagerMetrics(registry).update(QUIET);
  const text = registry.render();
  assert.deepEqual(samplesOf(text), [
    "sluice_replica_fetcher_max_lag_messages 0",
    "sluice_replica_manager_at_min_isr_partitions 0",
    "sluice_replica_manager_failed_isr_updates_total 0",
    "sluice_replica_manager_isr_expands_total 0",
    "sluice_replica_manager_isr_shrinks_total 0",
    "sluice_replica_manager_leader_partitions 0",
    "sluice_replica_manager_offline_replicas 0",
    "sluice_replica_manager_partitions 0",
    "sluice_replica_manager_reassigning_partitions 0",
    "sluice_replica_manager_under_min_isr_partitions 0",
    "sluice_replica_manager_under_replicated_partitions 0",
  ]);
  assert.match(text, /# HELP sluice_replica_manager_leader_partitions .*name=LeaderCount\)/);
  assert.match(text, /# TYPE sluice_replica_manager_isr_shrinks_total counter/);
  assert.match(text, /# TYPE sluice_replica_fetcher_max_lag_messages gauge/);
});

test("counters follow the summary's totals and lag series follow the followed partitions", () => {
  const registry = new PrometheusRegistry();
  const metrics = new ReplicaManagerMetrics(registry);
  const orders = (partition: number, lag: number) => ({
    topicPartition: { topic: "orders", partition },
    lag,
  });
  metrics.update({
    ...QUIET,
    isrShrinks: 2,
    isrExpands: 1,
    followerLags: [orders(0, 7), orders(1, 0)],
    maxLag: 7,
  });
  metrics.update({ ...QUIET, isrShrinks: 3, isrExpands: 1, followerLags: [orders(1, 4)] });
  assert.equal(registry.valueOf("sluice_replica_manager_isr_shrinks_total"), 3);
  assert.equal(registry.valueOf("sluice_replica_manager_isr_expands_total"), 1);
  const text = registry.render();
  assert.match(text, /# HELP sluice_replica_fetcher_lag_messages .*name=ConsumerLag\)/);
  const lagLines = samplesOf(text).filter((line) => line.includes("_lag_messages{"));
  assert.deepEqual(lagLines, [
    'sluice_replica_fetcher_lag_messages{partition="1",topic="orders"} 4',
  ]);
  metrics.update({ ...QUIET, isrShrinks: 3, isrExpands: 1 });
  assert.equal(
    registry.valueOf("sluice_replica_fetcher_lag_messages", { topic: "orders", partition: "1" }),
    undefined,
  );
  assert.equal(registry.valueOf("sluice_replica_manager_isr_shrinks_total"), 3);
});
