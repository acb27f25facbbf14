import { test } from "node:test";
import assert from "node:assert/strict";
import { formatProblem } from "./config-types.js";
import { loadNodeConfig, type ConfigBase, type ConfigInput } from "./load-config.js";
import type { NodeConfig } from "./node-config.js";
import { SINGLE_NODE_PRESET } from "./single-node.js";

const combined = [
  "process.roles=broker,controller",
  "node.id=1",
  "listeners=PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
  "controller.listener.names=CONTROLLER",
  "controller.quorum.voters=1@127.0.0.1:9093",
  "log.dirs=/var/lib/sluice",
].join("\n");

function file(text: string): ConfigBase {
  return { kind: "file", path: "server.properties", text };
}

function valid(input: ConfigInput): NodeConfig {
  const result = loadNodeConfig(input);
  assert.equal(
    result.kind,
    "valid",
    result.kind === "invalid" ? result.problems.map(formatProblem).join("\n") : "",
  );
  return (result as { config: NodeConfig }).config;
}

/** The problems of an invalid configuration, as the lines an operator would read. */
function problems(input: ConfigInput): string[] {
  const result = loadNodeConfig(input);
  assert.equal(result.kind, "invalid");
  return result.kind === "invalid" ? result.problems.map(formatProblem) : [];
}

test("a flag beats an environment variable, which beats the file, which beats the default", () => {
  const text = `${combined}\nnum.partitions=2\nmin.insync.replicas=2`;
  const environment = { SLUICE_NUM_PARTITIONS: "3", SLUICE_LOG_RETENTION_HOURS: "5", HOME: "/x" };
  const config = valid({ base: file(text), environment, flags: ["num.partitions=4"] });
  assert.equal(config.numPartitions, 4);
  assert.equal(config.minInsyncReplicas, 2);
  assert.equal(config.log.retentionMs, 5 * 3_600_000);
  assert.equal(config.defaultReplicationFactor, 1);
  assert.deepEqual(config.values.source("num.partitions"), {
    kind: "flag",
    flag: "num.partitions=4",
  });
  assert.deepEqual(config.values.source("min.insync.replicas"), {
    kind: "file",
    path: "server.properties",
    line: 8,
  });
});

test("every refused value names its key and where it came from", () => {
  const text = `${combined}\n# a comment\nbogus.key=1\nnum.partitions = many`;
  const lines = problems({
    base: file(text),
    environment: { SLUICE_AUTO_CREATE_TOPICS_ENABLE: "perhaps", SLUICE_NOT_A_KEY: "1" },
    flags: ["log.cleanup.policy=shred", "no-equals-sign", "message.max.bytes=-5"],
  });
  assert.deepEqual(lines, [
    "bogus.key (from server.properties:8): is not a known key",
    'num.partitions (from server.properties:9): "many" is not an integer',
    "SLUICE_NOT_A_KEY (from environment variable SLUICE_NOT_A_KEY): names no configuration key",
    "auto.create.topics.enable (from environment variable " +
      'SLUICE_AUTO_CREATE_TOPICS_ENABLE): "perhaps" is not true or false',
    "no-equals-sign (from flag --set no-equals-sign): is not KEY=VALUE",
    "log.cleanup.policy (from flag --set log.cleanup.policy=shred): value " +
      '"shred": "shred" is not one of compact, delete',
    'message.max.bytes (from flag --set message.max.bytes=-5): value "-5": must be at least 0',
  ]);
});

test("the single-node preset is a combined node with the design's addresses and ./data", () => {
  const config = valid({ base: SINGLE_NODE_PRESET });
  assert.deepEqual(config.processRoles, ["broker", "controller"]);
  assert.equal(config.nodeId, 1);
  assert.deepEqual(config.quorum.voters, [{ nodeId: 1, host: "127.0.0.1", port: 9093 }]);
  assert.deepEqual(config.advertisedListeners, [
    { name: "PLAINTEXT", host: "127.0.0.1", port: 9092, securityProtocol: "PLAINTEXT" },
  ]);
  assert.equal(config.interBrokerListenerName, "PLAINTEXT");
  assert.deepEqual(config.log.logDirs, ["./data"]);
  assert.equal(config.log.metadataLogDir, "./data");
  assert.deepEqual(config.httpListener, { host: "127.0.0.1", port: 9644 });
  assert.equal(config.quorum.electionTimeoutMs, 1000);
  assert.equal(config.brokerSessionTimeoutMs, 9000);
});

test("KRaft's role rules refuse a node that cannot find or serve its quorum", () => {
  const without = (key: string): string =>
    combined
      .split("\n")
      .filter((line) => !line.startsWith(`${key}=`))
      .join("\n");
  assert.deepEqual(problems({ base: file(without("process.roles")) }), [
    "process.roles (from the default): must be broker, controller, or both",
  ]);
  assert.deepEqual(problems({ base: file(without("node.id")) }), [
    "node.id (from the default): is required on a controller",
  ]);
  assert.deepEqual(problems({ base: file(without("controller.quorum.voters")) }), [
    "controller.quorum.voters (from the default): or " +
      "controller.quorum.bootstrap.servers must name the controllers in " +
      "KRaft mode",
  ]);
  assert.deepEqual(problems({ base: file(combined), flags: ["controller.quorum.voters=2@h:1"] }), [
    "controller.quorum.voters (from flag --set " +
      "controller.quorum.voters=2@h:1): must include this controller's " +
      "node.id 1",
  ]);
  assert.deepEqual(problems({ base: file(combined), flags: ["process.roles=broker,broker"] }), [
    "process.roles (from flag --set process.roles=broker,broker): value " +
      '"broker,broker": lists an entry twice',
  ]);
});

test("controller listeners must be listed by controllers and only by them", () => {
  const flags = (...set: string[]): ConfigInput => ({ base: file(combined), flags: set });
  assert.deepEqual(problems(flags("controller.listener.names=OTHER")), [
    "listeners (from server.properties:3): listener CONTROLLER has no " +
      "entry in listener.security.protocol.map",
    "controller.listener.names (from flag --set " +
      "controller.listener.names=OTHER): must name a listener in listeners " +
      "when the node is a controller",
  ]);
  assert.deepEqual(problems(flags("process.roles=broker")), [
    "listeners (from server.properties:3): a broker-only node must not " +
      "list controller listener CONTROLLER",
  ]);
  assert.deepEqual(problems(flags("process.roles=controller")), [
    "listeners (from server.properties:3): a controller-only node may list " +
      "only controller listeners, not PLAINTEXT",
  ]);
  const brokerOnly = flags("process.roles=broker", "node.id=-1", "listeners=PLAINTEXT://:9092");
  const broker = valid(brokerOnly);
  assert.equal(broker.nodeId, undefined, "a broker may wait for the controller to give it an id");
  assert.deepEqual(broker.listeners, [
    { name: "PLAINTEXT", host: "", port: 9092, securityProtocol: "PLAINTEXT" },
  ]);
});

test("advertised listeners default to listeners and must be routable; SSL needs PEM stores", () => {
  const config = valid({ base: file(combined) });
  assert.deepEqual(
    config.advertisedListeners.map((listener) => listener.name),
    ["PLAINTEXT"],
  );
  const flags = (...set: string[]): ConfigInput => ({ base: file(combined), flags: set });
  assert.deepEqual(problems(flags("advertised.listeners=PLAINTEXT://0.0.0.0:9092")), [
    "advertised.listeners (from flag --set " +
      "advertised.listeners=PLAINTEXT://0.0.0.0:9092): PLAINTEXT advertises " +
      "the non-routable address 0.0.0.0",
  ]);
  assert.deepEqual(problems(flags("inter.broker.listener.name=INTERNAL")), [
    "inter.broker.listener.name (from flag --set " +
      "inter.broker.listener.name=INTERNAL): INTERNAL must be a listener " +
      "name in listeners",
  ]);
  // An SSL listener needs PEM stores and a key; each missing piece is named.
  assert.deepEqual(problems(flags("listeners=PLAINTEXT://:9092,SSL://:9094,CONTROLLER://:9093")), [
    "ssl.keystore.type (from the default): listener SSL: is JKS; Sluice reads PEM stores only " +
      "(set PEM)",
    "ssl.truststore.type (from the default): listener SSL: is JKS; Sluice reads PEM stores " +
      "only (set PEM)",
    "ssl.keystore.location (from the default): listener SSL: or ssl.keystore.key must give the " +
      "listener a key",
  ]);
  const duplicatePort =
    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,B:PLAINTEXT";
  assert.deepEqual(
    problems(flags(duplicatePort, "listeners=PLAINTEXT://:9092,B://:9092,CONTROLLER://:9093")),
    [
      "listeners (from flag --set " +
        "listeners=PLAINTEXT://:9092,B://:9092,CONTROLLER://:9093): uses port " +
        "9092 twice",
    ],
  );
});

test("log dirs, the metadata log dir, retention and roll follow Kafka's precedence", () => {
  const noDirs = combined.replace("log.dirs=/var/lib/sluice", "log.dir=/srv/one");
  const single = valid({ base: file(noDirs) });
  assert.deepEqual(single.log.logDirs, ["/srv/one"]);
  assert.equal(single.log.metadataLogDir, "/srv/one");
  assert.equal(single.log.retentionMs, 168 * 3_600_000);
  assert.equal(single.log.rollMs, 168 * 3_600_000);
  const set = valid({
    base: file(combined),
    flags: [
      "log.dirs=/a,/b",
      "metadata.log.dir=/m",
      "log.retention.minutes=3",
      "log.retention.hours=1",
      "log.roll.ms=1234",
      "log.flush.interval.messages=9223372036854775807",
    ],
  });
  assert.deepEqual(set.log.logDirs, ["/a", "/b"]);
  assert.equal(set.log.metadataLogDir, "/m");
  assert.equal(set.log.retentionMs, 180_000);
  assert.equal(set.log.rollMs, 1234);
  assert.equal(set.log.flushIntervalMessages, Number.MAX_SAFE_INTEGER);
  assert.equal(valid({ base: file(combined), flags: ["log.retention.ms=-7"] }).log.retentionMs, -1);
  assert.deepEqual(
    problems({ base: file(combined), flags: ["log.retention.ms=0", "log.retention.hours=2"] }),
    [
      "log.retention.ms (from flag --set log.retention.ms=0): must be -1 " +
        "(unlimited) or at least 1 ms",
    ],
  );
});

test("replica.selector.class takes Kafka's rack-aware selector and refuses any other class", () => {
  const rackAware = "org.apache.kafka.common.replica.RackAwareReplicaSelector";
  const config = valid({ base: file(combined), flags: [`replica.selector.class=${rackAware}`] });
  assert.equal(config.values.stringOrNull("replica.selector.class"), rackAware);
  assert.equal(valid({ base: file(combined) }).values.stringOrNull("replica.selector.class"), null);
  const other = "replica.selector.class=org.apache.kafka.common.replica.LeaderSelector";
  assert.deepEqual(problems({ base: file(combined), flags: [other] }), [
    `replica.selector.class (from flag --set ${other}): value ` +
      '"org.apache.kafka.common.replica.LeaderSelector": must be one of ' +
      rackAware,
  ]);
});
