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
    'kafka_server_replicafetchermanager_maxlag{clientId="Replica"} 0',
    "kafka_server_replicamanager_atminisrpartitioncount 0",
    "kafka_server_replicamanager_failedisrupdates_total 0",
    "kafka_server_replicamanager_isrexpands_total 0",
    "kafka_server_replicamanager_isrshrinks_total 0",
    "kafka_server_replicamanager_leadercount 0",
    "kafka_server_replicamanager_offlinereplicacount 0",
    "kafka_server_replicamanager_partitioncount 0",
    "kafka_server_replicamanager_reassigningpartitions 0",
    "kafka_server_replicamanager_underminisrpartitioncount 0",
    "kafka_server_replicamanager_underreplicatedpartitions 0",
  ]);
  assert.match(text, /# HELP kafka_server_replicamanager_leadercount .*name=LeaderCount\)/);
  assert.match(text, /# TYPE kafka_server_replicamanager_isrshrinks_total counter/);
  assert.match(text, /# TYPE kafka_server_replicafetchermanager_maxlag gauge/);
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
  assert.equal(registry.valueOf("kafka_server_replicamanager_isrshrinks_total"), 3);
  assert.equal(registry.valueOf("kafka_server_replicamanager_isrexpands_total"), 1);
  const text = registry.render();
  assert.match(text, /# HELP kafka_server_fetcherlagmetrics_consumerlag .*name=ConsumerLag\)/);
  const lagLines = samplesOf(text).filter((line) =>
    line.startsWith("kafka_server_fetcherlagmetrics_consumerlag{"),
  );
  assert.deepEqual(lagLines, [
    'kafka_server_fetcherlagmetrics_consumerlag{partition="1",topic="orders"} 4',
  ]);
  metrics.update({ ...QUIET, isrShrinks: 3, isrExpands: 1 });
  assert.equal(
    registry.valueOf("kafka_server_fetcherlagmetrics_consumerlag", {
      topic: "orders",
      partition: "1",
    }),
    undefined,
  );
  assert.equal(registry.valueOf("kafka_server_replicamanager_isrshrinks_total"), 3);
});
