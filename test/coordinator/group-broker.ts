/**
 * A broker with the group APIs for the coordinator tests: a real LogManager and ReplicaManager on
 * the simulator's disk, a GroupCoordinator over them, and a router with every group API. It can
 * be closed and opened again on the same disk, as a restarted broker would be. `call` encodes a
 * request, routes it and decodes the response, so every answer passes through the codec.
 */
import assert from "node:assert/strict";
import { brokerId } from "../../src/common/index.js";
import {
  DEFAULT_GROUP_CONFIG,
  GroupCoordinator,
  OFFSETS_TOPIC,
  type GroupConfig,
} from "../../src/coordinator/index.js";
import { EMPTY_IMAGE, EMPTY_PROVENANCE, MetadataDelta } from "../../src/metadata/index.js";
import {
  partitionRecord,
  registerBroker,
  testUuid,
  topicRecord,
  unfenceBroker,
} from "../../src/metadata/records.test-support.js";
import type { MetadataRecord } from "../../src/protocol/index.js";
import { defaultPartitionConfig, ReplicaManager } from "../../src/replication/index.js";
import { defaultLogConfig, defaultLogManagerConfig, LogManager } from "../../src/storage/index.js";
import { TestRandom } from "../../src/storage/manager/manager-doubles.test-support.js";
import {
  MetadataCache,
  RequestRouter,
  registerGroupApis,
  type GroupApiDependencies,
} from "../../src/broker/index.js";
import { MemoryMetricsSink } from "../../sim/index.js";
import { LogHarness } from "../storage/log-harness.js";
import { RecordingSender, unreachableNetwork } from "../replication/fixtures.js";
import { RecordingForwarder } from "../broker/apis/harness.js";
import { requestPath } from "./group-requests.js";

/** Kafka's defaults, with no initial rebalance delay and a small offsets topic. */
export const TEST_GROUP_CONFIG: GroupConfig = {
  ...DEFAULT_GROUP_CONFIG,
  initialRebalanceDelayMs: 0,
  offsetsTopicNumPartitions: 3,
};

const OFFSETS_TOPIC_ID = testUuid(77);
const ORDERS_TOPIC_ID = testUuid(78);

/**
 * The records of broker 1, registered and unfenced, of the topic "orders" (partitions 0 and 1,
 * which the tests commit offsets for), and of `__consumer_offsets` if asked.
 */
function metadataRecords(hasOffsetsTopic: boolean): MetadataRecord[] {
  const records = [registerBroker(1, 10), unfenceBroker(1, 10)];
  records.push(topicRecord("orders", ORDERS_TOPIC_ID));
  records.push(partitionRecord(ORDERS_TOPIC_ID, 0, [1]), partitionRecord(ORDERS_TOPIC_ID, 1, [1]));
  if (!hasOffsetsTopic) return records;
  records.push(topicRecord(OFFSETS_TOPIC, OFFSETS_TOPIC_ID));
  for (let partition = 0; partition < TEST_GROUP_CONFIG.offsetsTopicNumPartitions; partition++) {
    records.push(partitionRecord(OFFSETS_TOPIC_ID, partition, [1]));
  }
  return records;
}

/** One run of broker 1 on `harness`'s disk; `close` ends it cleanly, `open` starts another. */
export class GroupBroker {
  private constructor(
    readonly harness: LogHarness,
    readonly logManager: LogManager,
    readonly replicaManager: ReplicaManager,
    readonly coordinator: GroupCoordinator,
    readonly router: RequestRouter,
    readonly dependencies: GroupApiDependencies,
  ) {}

  /** Opens broker 1 on `harness`'s disk and publishes its metadata. */
  static async open(
    harness: LogHarness,
    options: { readonly hasOffsetsTopic: boolean },
  ): Promise<GroupBroker> {
    const { clock, timers } = harness.node;
    const logManager = await harness.run(
      LogManager.start({
        fileSystem: harness.fs,
        clock,
        random: new TestRandom(),
        logger: harness.logger,
        metrics: new MemoryMetricsSink(),
        config: defaultLogManagerConfig(["/data/a"]),
        identity: { clusterId: "Dz1DTnH3T0WL3dxJgZCkvg", nodeId: brokerId(1) },
        formatUnformatted: true,
      }),
    );
    const replicaManager = new ReplicaManager({
      brokerId: brokerId(1),
      brokerEpoch: () => 10,
      logManager,
      alterPartitionSender: new RecordingSender(),
      clock,
      logger: harness.logger,
      defaults: defaultPartitionConfig(defaultLogConfig),
      replicaLagTimeMaxMs: 30_000,
      replicaSelector: undefined,
      timers: harness.node.timers,
      network: unreachableNetwork(),
    });
    const coordinator = new GroupCoordinator({
      config: TEST_GROUP_CONFIG,
      replicaManager,
      clock,
      timers,
      random: new TestRandom(),
      logger: harness.logger,
    });
    const metadataCache = new MetadataCache({
      clusterId: "test-cluster",
      random: new TestRandom(),
    });
    const router = new RequestRouter({ logger: harness.logger });
    const forwarder = new RecordingForwarder();
    const dependencies = {
      ...{ coordinator, metadataCache, forwarder, clock },
      requestTimeoutMs: 30_000,
    };
    registerGroupApis(router, dependencies);
    const delta = new MetadataDelta(EMPTY_IMAGE);
    delta.replayAll(metadataRecords(options.hasOffsetsTopic));
    const image = delta.apply(EMPTY_PROVENANCE);
    metadataCache.onMetadataUpdate(delta, image);
    replicaManager.onMetadataUpdate(delta, image, {
      kind: "snapshot",
      provenance: image.provenance,
    });
    await harness.run(replicaManager.whenMetadataApplied());
    return new GroupBroker(harness, logManager, replicaManager, coordinator, router, dependencies);
  }

  /** Sends a request through the codec and the router; runs the simulator until it is answered. */
  call(apiKey: number, apiVersion: number, body: object): Promise<Record<string, unknown>> {
    return requestPath(this.router, this.harness).call(apiKey, apiVersion, body);
  }

  /** Sends requests at once, as several clients would; their responses in order. */
  callAll(requests: readonly (readonly [number, number, object])[]) {
    return requestPath(this.router, this.harness).callAll(requests);
  }

  /** Publishes metadata records (a topic created or removed) to the broker's metadata cache. */
  publish(records: readonly MetadataRecord[]): void {
    const cache = this.dependencies.metadataCache;
    const delta = new MetadataDelta(cache.image);
    delta.replayAll(records);
    cache.onMetadataUpdate(delta, delta.apply(EMPTY_PROVENANCE));
  }

  /** Runs the simulator until the coordinator has loaded the partition of `groupId`. */
  async untilLoaded(groupId: string): Promise<void> {
    const { timers } = this.harness.node;
    for (let step = 0; step < 100 && this.coordinator.statusOf(groupId) !== "active"; step++) {
      await this.harness.run(new Promise<void>((resolve) => timers.schedule(1, resolve)));
    }
    assert.equal(this.coordinator.statusOf(groupId), "active", "the offsets partition loaded");
  }

  /** Stops the coordinator, then the replica manager and the logs, as a clean shutdown does. */
  async close(): Promise<void> {
    await this.harness.run(this.coordinator.close());
    await this.harness.run(this.replicaManager.shutdown());
    await this.harness.run(this.logManager.shutdown());
  }
}
