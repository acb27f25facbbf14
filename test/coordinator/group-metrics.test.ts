/**
 * The group coordinator's rebalance counters (group-coordinator-metrics.ts): every bump of a
 * consumer group's (KIP-848) epoch is one rebalance, as Kafka's consumer-group-rebalance-count
 * counts them, and classic groups keep their own counter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { PrometheusRegistry } from "../../src/adapters/index.js";
import {
  DEFAULT_GROUP_CONFIG,
  GroupCoordinatorMetrics,
  GroupCoordinatorState,
  type ConsumerHeartbeatRequest,
} from "../../src/coordinator/index.js";

const topics = {
  topic: (name: string) => (name === "t" ? { topicId: "t-id", partitionCount: 2 } : undefined),
  names: () => ["t"],
  version: 1,
};

function heartbeat(memberId: string, memberEpoch: number): ConsumerHeartbeatRequest {
  return {
    ...{ memberId, memberEpoch, instanceId: null, rackId: null, rebalanceTimeoutMs: 30_000 },
    ...{ subscribedTopicNames: ["t"], subscribedTopicRegex: null, serverAssignor: null },
    ...{ topicPartitions: [], clientId: "c", clientHost: "/h" },
  };
}

const PREFIX = "kafka_server_groupcoordinatormetrics";

test("each bump of a consumer group's epoch counts one rebalance", () => {
  const state = new GroupCoordinatorState({ ...DEFAULT_GROUP_CONFIG, initialRebalanceDelayMs: 0 });
  const registry = new PrometheusRegistry();
  const metrics = new GroupCoordinatorMetrics(registry, {
    isPartitionLevel: false,
    highWatermarkOf: () => undefined,
  });
  const at = { nowMs: 1000, topics };
  state.consumerHeartbeat("cg", heartbeat("a", 0), at);
  state.consumerHeartbeat("cg", heartbeat("b", 0), at);
  metrics.update(state);
  assert.equal(registry.valueOf(`${PREFIX}_consumer_group_rebalance_total`), 2, "two joins");
  metrics.update(state);
  assert.equal(registry.valueOf(`${PREFIX}_consumer_group_rebalance_total`), 2, "once each");
  state.consumerHeartbeat("cg", heartbeat("b", -1), at);
  metrics.update(state);
  assert.equal(registry.valueOf(`${PREFIX}_consumer_group_rebalance_total`), 3, "a leave");
  assert.equal(registry.valueOf(`${PREFIX}_classic_group_rebalance_total`), 0);
});
