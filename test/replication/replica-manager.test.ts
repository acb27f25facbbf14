import { test } from "node:test";
import assert from "node:assert/strict";
import { brokerId, ErrorCode } from "../../src/common/index.js";
import {
  EMPTY_IMAGE,
  EMPTY_PROVENANCE,
  MetadataDelta,
  type MetadataImage,
} from "../../src/metadata/index.js";
import type { MetadataRecord } from "../../src/protocol/index.js";
import {
  configRecord,
  partitionRecord,
  removeTopic,
  topicRecord,
} from "../../src/metadata/records.test-support.js";
import {
  defaultPartitionConfig,
  ReplicaManager,
  ReplicaManagerMetrics,
} from "../../src/replication/index.js";
import { defaultLogConfig, defaultLogManagerConfig, LogManager } from "../../src/storage/index.js";
import { MemoryMetricsSink } from "../../sim/index.js";
import { TestRandom } from "../../src/storage/manager/manager-doubles.test-support.js";
import { LogHarness } from "../storage/log-harness.js";
import { clientBatch, RecordingSender, TOPIC_ID, unreachableNetwork } from "./fixtures.js";

async function start(seed: number) {
  const harness = new LogHarness(seed);
  const logManager = await harness.run(
    LogManager.start({
      fileSystem: harness.fs,
      clock: harness.node.clock,
      random: new TestRandom(),
      logger: harness.logger,
      metrics: new MemoryMetricsSink(),
      config: defaultLogManagerConfig(["/data/a"]),
      identity: { clusterId: "Dz1DTnH3T0WL3dxJgZCkvg", nodeId: brokerId(1) },
      formatUnformatted: true,
    }),
  );
  const replicas = new ReplicaManager({
    brokerId: brokerId(1),
    brokerEpoch: () => 10,
    logManager,
    alterPartitionSender: new RecordingSender(),
    clock: harness.node.clock,
    logger: harness.logger,
    defaults: defaultPartitionConfig(defaultLogConfig),
    replicaLagTimeMaxMs: 30_000,
    replicaSelector: undefined,
    timers: harness.node.timers,
    network: unreachableNetwork(),
  });
  let image: MetadataImage = EMPTY_IMAGE;
  const publish = async (records: MetadataRecord[]) => {
    const delta = new MetadataDelta(image);
    delta.replayAll(records);
    image = delta.apply(EMPTY_PROVENANCE);
    replicas.onMetadataUpdate(delta, image, { kind: "snapshot", provenance: image.provenance });
    await harness.run(replicas.whenMetadataApplied());
  };
  return { harness, logManager, replicas, publish };
}

const orders = { topic: "orders", partition: 0 };

test("create topic, lead, produce and fetch; delete topic removes the log", async () => {
  const { harness, logManager, replicas, publish } = await start(11);
  assert.deepEqual(replicas.getPartitionOrError(orders), {
    kind: "error",
    errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  });
  await publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  assert.equal(logManager.getLog(orders).kind, "online");
  const produced = await harness.run(
    replicas.appendRecords(
      [{ topicPartition: orders, records: clientBatch([{ timestamp: 1 }, { timestamp: 2 }]) }],
      {
        requiredAcks: -1,
      },
    ),
  );
  assert.equal(produced.results[0]?.outcome.kind, "appended");
  assert.equal(produced.waits[0]?.requiredOffset, 2);
  assert.deepEqual(produced.waits[0]?.partition.checkEnoughReplicasReachOffset(2), {
    kind: "done",
    errorCode: 0,
  });
  assert.equal(logManager.highWatermarkOf(orders), 2);
  const request = {
    fetchOffset: 0,
    maxBytes: 1 << 20,
    isolation: "read_uncommitted",
    currentLeaderEpoch: 0,
    replicaId: -1,
    logStartOffset: -1,
    brokerEpoch: -1,
    lastFetchedEpoch: -1,
  } as const;
  const fetched = await harness.run(
    replicas.fetchMessages([{ topicPartition: orders, request }], {
      maxBytes: 1 << 20,
      isHardMaxBytesLimit: false,
      clientMetadata: undefined,
    }),
  );
  const outcome = fetched[0]?.outcome;
  assert.ok(outcome?.kind === "records" && outcome.sizeInBytes > 0 && outcome.highWatermark === 2);
  await publish([removeTopic(TOPIC_ID)]);
  assert.equal(logManager.getLog(orders).kind, "notFound");
  assert.deepEqual(replicas.getPartitionOrError(orders), {
    kind: "error",
    errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  });
});

test(
  "a partition led elsewhere answers NOT_LEADER_OR_FOLLOWER and a topic config reaches " +
    "the partition",
  async () => {
    const { harness, replicas, publish } = await start(12);
    await publish([
      topicRecord("orders", TOPIC_ID),
      partitionRecord(TOPIC_ID, 0, [2, 1]),
      configRecord(2, "orders", "min.insync.replicas", "3"),
    ]);
    assert.equal(replicas.configOf("orders").minInsyncReplicas, 3);
    const produced = await harness.run(
      replicas.appendRecords(
        [{ topicPartition: orders, records: clientBatch([{ timestamp: 1 }]) }],
        {
          requiredAcks: 1,
        },
      ),
    );
    assert.equal(
      produced.results[0]?.outcome.kind === "error" && produced.results[0].outcome.errorCode,
      ErrorCode.NOT_LEADER_OR_FOLLOWER,
    );
    const missing = await harness.run(
      replicas.appendRecords(
        [
          {
            topicPartition: { topic: "orders", partition: 9 },
            records: clientBatch([{ timestamp: 1 }]),
          },
        ],
        {
          requiredAcks: 1,
        },
      ),
    );
    assert.equal(
      missing.results[0]?.outcome.kind === "error" && missing.results[0].outcome.errorCode,
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    );
    assert.equal(missing.waits.length, 0);
  },
);

test("a partition in an offline log dir answers KAFKA_STORAGE_ERROR", async () => {
  const { harness, logManager, replicas, publish } = await start(13);
  await publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  logManager.failDir("/data/a", new Error("disk gone"));
  assert.deepEqual(replicas.getPartitionOrError(orders), {
    kind: "error",
    errorCode: ErrorCode.KAFKA_STORAGE_ERROR,
  });
  const produced = await harness.run(
    replicas.appendRecords([{ topicPartition: orders, records: clientBatch([{ timestamp: 1 }]) }], {
      requiredAcks: -1,
    }),
  );
  assert.equal(
    produced.results[0]?.outcome.kind === "error" && produced.results[0].outcome.errorCode,
    ErrorCode.KAFKA_STORAGE_ERROR,
  );
  assert.equal(produced.waits.length, 0);
});

test("a replayed ConfigRecord of a topic or a broker default reaches the open logs", async () => {
  const { harness, logManager, replicas, publish } = await start(14);
  const paymentsId = "fedcba9876543210fedcba9876543210";
  await publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1]),
    topicRecord("payments", paymentsId),
    partitionRecord(paymentsId, 0, [1]),
  ]);
  const logOf = (topic: string) => {
    const lookup = logManager.getLog({ topic, partition: 0 });
    assert.ok(lookup.kind === "online");
    return lookup.log;
  };
  const ordersLog = logOf("orders");
  const paymentsLog = logOf("payments");
  assert.equal(ordersLog.config.messageTimestampType, "CreateTime");
  await publish([
    configRecord(2, "orders", "segment.bytes", "100000"),
    configRecord(2, "orders", "cleanup.policy", "compact"),
    configRecord(2, "orders", "message.timestamp.type", "LogAppendTime"),
  ]);
  assert.equal(logOf("orders"), ordersLog, "the log stayed open");
  assert.equal(ordersLog.config.segmentBytes, 100_000);
  assert.deepEqual(ordersLog.config.cleanupPolicy, { delete: false, compact: true });
  assert.equal(paymentsLog.config.segmentBytes, defaultLogConfig.segmentBytes);
  const produced = await harness.run(
    replicas.appendRecords(
      [{ topicPartition: orders, records: clientBatch([{ key: "k", timestamp: 1 }]) }],
      {
        requiredAcks: 1,
      },
    ),
  );
  const outcome = produced.results[0]?.outcome;
  assert.ok(outcome?.kind === "appended");
  assert.ok(outcome.logAppendTime >= 0, "the log stamped the append time");
  await publish([configRecord(4, "", "log.retention.ms", "5000")]);
  assert.equal(ordersLog.config.retentionMs, 5000);
  assert.equal(paymentsLog.config.retentionMs, 5000);
  await publish([configRecord(2, "orders", "segment.bytes", null)]);
  assert.equal(ordersLog.config.segmentBytes, defaultLogConfig.segmentBytes);
  assert.equal(ordersLog.config.retentionMs, 5000, "the broker default still applies");
});

test("the replication summary counts leaders, ISR health and reassignments as Kafka", async () => {
  const { logManager, replicas, publish } = await start(15);
  const isr = (ids: number[]) => ({ isr: ids });
  await publish([
    topicRecord("orders", TOPIC_ID),
    configRecord(2, "orders", "min.insync.replicas", "2"),
    // At its effective min ISR: min.insync.replicas capped at one replica.
    partitionRecord(TOPIC_ID, 0, [1]),
    partitionRecord(TOPIC_ID, 1, [1, 2, 3], isr([1])),
    partitionRecord(TOPIC_ID, 2, [1, 2, 3], isr([1, 2])),
    partitionRecord(TOPIC_ID, 3, [2, 1]),
    // Broker 4 is being added: the replication factor is the two others, both in the ISR.
    partitionRecord(TOPIC_ID, 4, [1, 2, 4], { isr: [1, 2], addingReplicas: [4] }),
  ]);
  const summary = replicas.replicationSummary();
  assert.deepEqual(
    { ...summary, followerLags: summary.followerLags.length },
    {
      leaderCount: 4,
      partitionCount: 5,
      offlineReplicaCount: 0,
      underReplicatedPartitions: 2,
      underMinIsrPartitionCount: 1,
      atMinIsrPartitionCount: 3,
      reassigningPartitions: 1,
      isrShrinks: 0,
      isrExpands: 0,
      failedIsrUpdates: 0,
      followerLags: 0,
      maxLag: 0,
    },
  );
  const metrics = new MemoryMetricsSink();
  const replicaMetrics = new ReplicaManagerMetrics(metrics);
  replicaMetrics.update(summary);
  assert.equal(metrics.valueOf("kafka_server_replicamanager_leadercount"), 4);
  assert.equal(metrics.valueOf("kafka_server_replicamanager_underreplicatedpartitions"), 2);
  assert.equal(metrics.valueOf("kafka_server_replicamanager_underminisrpartitioncount"), 1);
  assert.equal(metrics.valueOf("kafka_server_replicamanager_atminisrpartitioncount"), 3);
  assert.equal(metrics.valueOf("kafka_server_replicamanager_reassigningpartitions"), 1);
  // A failed dir takes every replica in it offline: hosted still, led no more.
  logManager.failDir("/data/a", new Error("disk gone"));
  replicaMetrics.update(replicas.replicationSummary());
  assert.equal(metrics.valueOf("kafka_server_replicamanager_offlinereplicacount"), 5);
  assert.equal(metrics.valueOf("kafka_server_replicamanager_partitioncount"), 5);
  assert.equal(metrics.valueOf("kafka_server_replicamanager_leadercount"), 0);
  assert.equal(metrics.valueOf("kafka_server_replicamanager_underreplicatedpartitions"), 0);
});
