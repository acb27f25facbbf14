import { test } from "node:test";
import assert from "node:assert/strict";
import { loadNodeConfig } from "./config/load-config.js";
import { SINGLE_NODE_PRESET } from "./config/single-node.js";
import type { NodeConfig } from "./config/node-config.js";
import {
  controllerSettingsOf,
  defaultLogConfigOf,
  defaultPartitionConfigOf,
  logManagerConfigOf,
  socketServerConfigOf,
  staticConfigOf,
} from "./node-settings.js";

function configOf(flags: readonly string[]): NodeConfig {
  const loaded = loadNodeConfig({ base: SINGLE_NODE_PRESET, flags, environment: {} });
  assert.equal(loaded.kind, "valid");
  if (loaded.kind !== "valid") throw new Error("unreachable");
  return loaded.config;
}

test("the log keys of the node become every topic's default log config", () => {
  const config = configOf([
    "log.segment.bytes=1048576",
    "log.retention.minutes=5",
    "log.cleanup.policy=compact,delete",
    "log.flush.interval.messages=1",
    "message.max.bytes=2000000",
  ]);
  const log = defaultLogConfigOf(config);
  assert.equal(log.segmentBytes, 1_048_576);
  assert.equal(log.retentionMs, 300_000);
  assert.deepEqual(log.cleanupPolicy, { delete: true, compact: true });
  assert.equal(log.flushMessages, 1);
  assert.equal(log.maxMessageBytes, 2_000_000);
  assert.deepEqual(logManagerConfigOf(config).defaultLogConfig, log);
  assert.deepEqual(logManagerConfigOf(config).logDirs, ["./data"]);
});

test("min.insync.replicas reaches the partition defaults and the controller", () => {
  const config = configOf(["min.insync.replicas=2", "num.partitions=6"]);
  assert.equal(defaultPartitionConfigOf(config).minInsyncReplicas, 2);
  const settings = controllerSettingsOf(config, "cluster-a");
  assert.equal(settings.clusterId, "cluster-a");
  assert.equal(settings.replication.minInsyncReplicas, 2);
  assert.equal(settings.topicDefaults.numPartitions, 6);
  assert.equal(settings.cluster.sessionTimeoutMs, 9000);
});

test("the static config holds the keys the operator set, and only those", () => {
  const config = configOf(["num.partitions=3"]);
  const staticConfig = staticConfigOf(config);
  assert.equal(staticConfig["num.partitions"], "3");
  assert.equal(staticConfig["node.id"], "1");
  assert.equal(staticConfig["log.dirs"], "./data");
  assert.equal(staticConfig["log.segment.bytes"], undefined);
});

test("the connection keys reach every server of the node", () => {
  const config = configOf([
    "queued.max.requests=7",
    "max.connections=40",
    "max.connections.per.ip=3",
    "socket.request.max.bytes=65536",
    "queued.max.request.bytes=1048576",
    "max.connections.per.ip.overrides=127.0.0.1:9, ::1:0",
  ]);
  assert.deepEqual(socketServerConfigOf(config), {
    socketRequestMaxBytes: 65_536,
    connectionsMaxIdleMs: 600_000,
    queuedMaxRequests: 7,
    maxConnections: 40,
    maxConnectionsPerIp: 3,
    maxConnectionsPerIpOverrides: new Map([
      ["127.0.0.1", 9],
      ["::1", 0],
    ]),
    queuedMaxRequestBytes: 1_048_576,
  });
});

test("the socket server keys are refused where Kafka refuses them", () => {
  const problemsOf = (flags: string[]) => {
    const loaded = loadNodeConfig({ base: SINGLE_NODE_PRESET, flags, environment: {} });
    return loaded.kind === "invalid" ? loaded.problems.map((problem) => problem.key) : [];
  };
  assert.deepEqual(problemsOf(["queued.max.request.bytes=1000"]), ["queued.max.request.bytes"]);
  assert.deepEqual(problemsOf(["queued.max.request.bytes=104857600"]), []);
  assert.deepEqual(problemsOf(["max.connections.per.ip=0"]), ["max.connections.per.ip"]);
  const zeroWithOverride = [
    "max.connections.per.ip=0",
    "max.connections.per.ip.overrides=10.1.2.3:5",
  ];
  assert.deepEqual(problemsOf(zeroWithOverride), []);
  for (const overrides of ["broker-1:5", "127.0.0.1", "127.0.0.1:x", "1.2.3.4:1,1.2.3.4:2"]) {
    const flags = [`max.connections.per.ip.overrides=${overrides}`];
    assert.deepEqual(problemsOf(flags), ["max.connections.per.ip.overrides"], overrides);
  }
  assert.deepEqual(problemsOf(["connections.max.idle.ms=0"]), ["connections.max.idle.ms"]);
  assert.deepEqual(problemsOf(["connections.max.idle.ms=-1"]), []);
});

test("metadata.log.segment.bytes below metadata.log.segment.min.bytes is refused", () => {
  const refused = loadNodeConfig({
    base: SINGLE_NODE_PRESET,
    flags: ["metadata.log.segment.bytes=1048576"],
    environment: {},
  });
  assert.equal(refused.kind, "invalid");
  if (refused.kind === "invalid") {
    assert.equal(refused.problems[0]?.key, "metadata.log.segment.bytes");
    assert.match(refused.problems[0]?.message ?? "", /at least 8388608/);
  }
  const lowered = configOf([
    "metadata.log.segment.min.bytes=4096",
    "metadata.log.segment.bytes=4096",
  ]);
  assert.equal(lowered.metadataLogSegmentBytes, 4096);
});

test("the client quota window keys default to Kafka's 11 samples of 1 s and refuse 0", () => {
  const defaults = configOf([]).values;
  assert.equal(defaults.number("quota.window.num"), 11);
  assert.equal(defaults.number("quota.window.size.seconds"), 1);
  const set = configOf(["quota.window.num=5", "quota.window.size.seconds=2"]).values;
  assert.equal(set.number("quota.window.num"), 5);
  assert.equal(set.number("quota.window.size.seconds"), 2);
  const refused = loadNodeConfig({
    base: SINGLE_NODE_PRESET,
    flags: ["quota.window.size.seconds=0"],
    environment: {},
  });
  assert.equal(refused.kind, "invalid");
});

test("the replication quota window keys become the throttles' rate window", () => {
  assert.deepEqual(configOf([]).replication.quotaWindow, { samples: 11, windowMs: 1000 });
  const config = configOf([
    "replication.quota.window.num=5",
    "replication.quota.window.size.seconds=2",
  ]);
  assert.deepEqual(config.replication.quotaWindow, { samples: 5, windowMs: 2000 });
  const refused = loadNodeConfig({
    base: SINGLE_NODE_PRESET,
    flags: ["replication.quota.window.num=0"],
    environment: {},
  });
  assert.equal(refused.kind, "invalid");
});
