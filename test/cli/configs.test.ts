/**
 * `sluice configs` run as a child process against one real node: a topic's, a broker's and the
 * brokers' default configs described and altered with IncrementalAlterConfigs, and the
 * refusals (an unknown key, a key not set, an unknown entity type) with a non-zero exit; and
 * the quotas of client ids and users, set, described and removed with AlterClientQuotas and
 * DescribeClientQuotas.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SluiceProcess } from "../clients/sluice-process.js";
import { json, lines, runSluice, type Outcome } from "./run-sluice.js";

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
  const created = await runSluice([
    "topic",
    "create",
    "--topic",
    "configured",
    "--bootstrap-server",
    node.bootstrap,
  ]);
  assert.equal(created.code, 0, created.stderr);
});

after(async () => {
  await node.destroy();
});

function configs(subcommand: string, ...args: string[]): Promise<Outcome> {
  return runSluice(["configs", subcommand, "--bootstrap-server", node.bootstrap, ...args]);
}

const TOPIC = ["--entity-type", "topics", "--entity-name", "configured"];

interface Described {
  readonly entityName: string;
  readonly configs: readonly { name: string; value: string | null; source: string }[];
}

test("a topic's configs are set, described and deleted", async () => {
  const altered = await configs(
    "alter",
    ...TOPIC,
    "--add-config",
    "retention.ms=3600000,cleanup.policy=[compact,delete]",
  );
  assert.equal(altered.code, 0, altered.stderr);
  assert.equal(altered.stdout, "Completed updating config for topic configured.\n");
  const described = await configs("describe", ...TOPIC);
  assert.equal(described.code, 0, described.stderr);
  const [title, header, ...rows] = lines(described.stdout);
  assert.equal(title, "Dynamic configs for topic configured are:");
  assert.match(header ?? "", /^ {2}NAME +VALUE +SOURCE +SENSITIVE +READ-ONLY$/);
  assert.deepEqual(
    rows.map((row) => row.trim().split(/ +/).slice(0, 3)),
    [
      ["cleanup.policy", "compact,delete", "DYNAMIC_TOPIC_CONFIG"],
      ["retention.ms", "3600000", "DYNAMIC_TOPIC_CONFIG"],
    ],
  );
  const all = json<Described[]>(await configs("describe", ...TOPIC, "--all", "--json"));
  const segmentBytes = all[0]?.configs.find((entry) => entry.name === "segment.bytes");
  assert.equal(segmentBytes?.source, "DEFAULT_CONFIG");
  const deleted = await configs("alter", ...TOPIC, "--delete-config", "retention.ms");
  assert.equal(deleted.code, 0, deleted.stderr);
  const after = json<Described[]>(await configs("describe", ...TOPIC, "--json"));
  assert.deepEqual(
    after[0]?.configs.map((entry) => entry.name),
    ["cleanup.policy"],
  );
  const every = json<Described[]>(await configs("describe", "--entity-type", "topics", "--json"));
  assert.ok(every.some((entry) => entry.entityName === "configured"));
});

test("a broker's and the brokers' default configs are set and described", async () => {
  const broker = ["--entity-type", "brokers", "--entity-name", "1"];
  const altered = await configs(
    "alter",
    ...broker,
    "--add-config",
    "leader.replication.throttled.rate=1048576",
  );
  assert.equal(altered.code, 0, altered.stderr);
  assert.equal(altered.stdout, "Completed updating config for broker 1.\n");
  const described = json<Described[]>(await configs("describe", ...broker, "--json"));
  assert.deepEqual(
    described[0]?.configs.map((entry) => [entry.name, entry.value, entry.source]),
    [["leader.replication.throttled.rate", "1048576", "DYNAMIC_BROKER_CONFIG"]],
  );
  const defaults = ["--entity-type", "brokers", "--entity-default"];
  const setDefault = await configs(
    "alter",
    ...defaults,
    "--add-config",
    "log.retention.ms=7200000",
  );
  assert.equal(setDefault.code, 0, setDefault.stderr);
  assert.equal(
    setDefault.stdout,
    "Completed updating default config for brokers in the cluster.\n",
  );
  const shown = await configs("describe", ...defaults);
  assert.match(
    shown.stdout,
    new RegExp(
      "^Default configs for brokers in the cluster are:\\n +NAME.*\\n" +
        " +log\\.retention\\.ms +7200000 +DYNAMIC_DEFAULT_BROKER_CONFIG ",
    ),
  );
  const everyBroker = json<Described[]>(
    await configs("describe", "--entity-type", "brokers", "--json"),
  );
  assert.deepEqual(
    everyBroker.map((entry) => entry.entityName),
    ["1", ""],
  );
});

test("refusals name the Kafka error or the mistake", async () => {
  const unknownKey = await configs("alter", ...TOPIC, "--add-config", "no.such.key=1");
  assert.equal(unknownKey.code, 1);
  assert.match(unknownKey.stderr, /^Error while executing config command : INVALID_CONFIG: /);
  const notSet = await configs("alter", ...TOPIC, "--delete-config", "segment.ms");
  assert.equal(notSet.code, 1);
  assert.match(notSet.stderr, /INVALID_CONFIG: Invalid config\(s\): segment\.ms/);
  const missingTopic = await configs(
    "describe",
    "--entity-type",
    "topics",
    "--entity-name",
    "nope",
  );
  assert.equal(missingTopic.code, 1);
  assert.match(missingTopic.stderr, /UNKNOWN_TOPIC_OR_PARTITION/);
  const badType = await configs("describe", "--entity-type", "ips");
  assert.equal(badType.code, 1);
  assert.match(
    badType.stderr,
    /--entity-type topics, brokers, groups, users or clients, not "ips"/,
  );
  const badPair = await configs("alter", ...TOPIC, "--add-config", "retention.ms");
  assert.match(badPair.stderr, /must be in the format "key=val"/);
  const badBroker = await configs("describe", "--entity-type", "brokers", "--entity-name", "x");
  assert.match(badBroker.stderr, /must be a valid integer broker id, found: x/);
  // The cluster serves no group configs yet: the request (resource type 32) is refused.
  const group = await configs("describe", "--entity-type", "groups", "--entity-name", "g");
  assert.equal(group.code, 1);
  assert.match(group.stderr, /INVALID_REQUEST: .*resource type 32/);
  assert.equal((await configs("frob")).code, 2);
});

test("client-id and user quotas are set, described and removed, as by kafka-configs", async () => {
  const client = ["--entity-type", "clients", "--entity-name", "reporting"];
  const set = await configs("alter", ...client, "--add-config", "producer_byte_rate=1048576");
  assert.equal(set.code, 0, set.stderr);
  assert.equal(set.stdout, "Completed updating config for client-id 'reporting'.\n");
  const users = ["--entity-type", "users", "--entity-default"];
  const userSet = await configs("alter", ...users, "--add-config", "consumer_byte_rate=2048");
  assert.equal(userSet.code, 0, userSet.stderr);
  const described = await configs("describe", ...client);
  assert.equal(
    described.stdout,
    "Quota configs for client-id 'reporting' are producer_byte_rate=1048576\n",
  );
  const everyUser = json<{ quotas: { entityName: string | null; quotas: object }[] }>(
    await configs("describe", "--entity-type", "users", "--json"),
  );
  assert.deepEqual(everyUser.quotas, [{ entityName: null, quotas: { consumer_byte_rate: 2048 } }]);
  const removed = await configs("alter", ...client, "--delete-config", "producer_byte_rate");
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal((await configs("describe", ...client)).stdout, "");
  const badKey = await configs("alter", ...client, "--add-config", "controller_mutation_rate=5");
  assert.equal(badKey.code, 1);
  assert.match(badKey.stderr, /INVALID_REQUEST: Quota controller_mutation_rate is not enforced/);
});
