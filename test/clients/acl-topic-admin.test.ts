/**
 * The topic and config admin APIs a broker forwards, checked per resource as Kafka checks them,
 * with real clients on a node with the StandardAuthorizer (acl-test-support.ts): kafkajs as bob
 * deletes only the topics he may DELETE, and is refused without being told whether a topic he
 * may not describe exists; DeleteTopics by topic id names a refused topic only when bob may
 * describe it; CreatePartitions needs ALTER; AlterConfigs and IncrementalAlterConfigs need
 * ALTER_CONFIGS on the topic, group or cluster, each resource answered in its place.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import kafkajs from "kafkajs";
import { ErrorCode } from "../../src/common/index.js";
import { deleteTopics, incrementalAlterConfigs, metadata } from "../../src/protocol/index.js";
import {
  ADMIN_LOGIN,
  aclNodeOfFile,
  asUser,
  BOB_LOGIN,
  bobAcl,
  outcomeOf,
  withAdmin,
} from "./acl-test-support.js";

const { ports, admin, bob } = aclNodeOfFile();
const { AclOperationTypes } = kafkajs;

async function createTopics(topics: readonly string[]): Promise<void> {
  await withAdmin(admin(), (client) =>
    client.createTopics({
      waitForLeaders: true,
      topics: topics.map((topic) => ({ topic, numPartitions: 1 })),
    }),
  );
}

async function allowBob(acls: readonly [string, kafkajs.AclOperationTypes][]): Promise<void> {
  const acl = acls.map(([topic, operation]) => bobAcl(topic, operation));
  await withAdmin(admin(), (client) => client.createAcls({ acl }));
}

async function topicNames(): Promise<string[]> {
  return withAdmin(admin(), (client) => client.listTopics());
}

/** Each topic's id, from a Metadata request of the super user. */
async function topicIds(topics: readonly string[]): Promise<Map<string, string>> {
  const body = { topics: topics.map((name) => ({ name })), allowAutoTopicCreation: false };
  const result = await asUser(ports(), ADMIN_LOGIN, (connection) =>
    connection.send(metadata, body),
  );
  assert.ok(result.kind === "response", JSON.stringify(result));
  return new Map(result.body.topics.map((topic) => [topic.name ?? "", topic.topicId]));
}

test("DeleteTopics deletes what bob may DELETE and hides what he may not describe", async () => {
  await createTopics(["del-ok", "del-seen", "del-hidden"]);
  await allowBob([
    ["del-ok", AclOperationTypes.DELETE],
    ["del-seen", AclOperationTypes.DESCRIBE],
    ["del-ghost", AclOperationTypes.DESCRIBE],
  ]);
  const remove = (topic: string) =>
    outcomeOf(withAdmin(bob(), (client) => client.deleteTopics({ topics: [topic] })));
  assert.equal(await remove("del-seen"), "TOPIC_AUTHORIZATION_FAILED");
  assert.equal(await remove("del-hidden"), "TOPIC_AUTHORIZATION_FAILED");
  assert.equal(await remove("no-such-topic"), "TOPIC_AUTHORIZATION_FAILED", "existence not told");
  assert.equal(await remove("del-ghost"), "UNKNOWN_TOPIC_OR_PARTITION", "he may describe it");
  assert.equal(await remove("del-ok"), "NONE");
  const left = await topicNames();
  assert.ok(!left.includes("del-ok"));
  assert.ok(left.includes("del-seen") && left.includes("del-hidden"));
});

test("DeleteTopics by topic id names a refused topic only to whom may describe it", async () => {
  await createTopics(["id-ok", "id-seen", "id-hidden"]);
  await allowBob([["id-seen", AclOperationTypes.DESCRIBE]]);
  const ids = await topicIds(["id-ok", "id-seen", "id-hidden"]);
  const unknownId = "0123456789abcdef0123456789abcdef";
  const remove = async (names: readonly string[]) => {
    const topics = names.map((name) => ({ name: null, topicId: ids.get(name) ?? unknownId }));
    const body = { topics, topicNames: [], timeoutMs: 30_000 };
    const result = await asUser(ports(), BOB_LOGIN, (connection) =>
      connection.send(deleteTopics, body),
    );
    assert.ok(result.kind === "response", JSON.stringify(result));
    const answers = result.body.responses.map((one) => [one.topicId, one.name, one.errorCode]);
    return answers.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  };
  const expected = [
    [ids.get("id-ok"), null, ErrorCode.TOPIC_AUTHORIZATION_FAILED],
    [ids.get("id-seen"), "id-seen", ErrorCode.TOPIC_AUTHORIZATION_FAILED],
    [ids.get("id-hidden"), null, ErrorCode.TOPIC_AUTHORIZATION_FAILED],
    [unknownId, null, ErrorCode.UNKNOWN_TOPIC_ID],
  ].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  assert.deepEqual(await remove(["id-ok", "id-seen", "id-hidden", "unknown"]), expected);
  await allowBob([["id-ok", AclOperationTypes.DELETE]]);
  assert.deepEqual(await remove(["id-ok"]), [[ids.get("id-ok"), "id-ok", ErrorCode.NONE]]);
  assert.ok(!(await topicNames()).includes("id-ok"));
});

test("CreatePartitions needs ALTER on each topic", async () => {
  await createTopics(["grow-ok", "grow-no"]);
  await allowBob([["grow-ok", AclOperationTypes.ALTER]]);
  const grow = (topic: string) =>
    outcomeOf(
      withAdmin(bob(), (client) =>
        client.createPartitions({ topicPartitions: [{ topic, count: 3 }] }),
      ),
    );
  assert.equal(await grow("grow-no"), "TOPIC_AUTHORIZATION_FAILED");
  assert.equal(await grow("grow-ok"), "NONE");
  const described = await withAdmin(admin(), (client) =>
    client.fetchTopicMetadata({ topics: ["grow-ok", "grow-no"] }),
  );
  const counts = described.topics.map((topic) => [topic.name, topic.partitions.length]);
  assert.deepEqual(counts.sort(), [
    ["grow-no", 1],
    ["grow-ok", 3],
  ]);
});

test("config changes need ALTER_CONFIGS on the topic, the group or the cluster", async () => {
  await createTopics(["conf-ok", "conf-no"]);
  await allowBob([["conf-ok", AclOperationTypes.ALTER_CONFIGS]]);
  const { ConfigResourceTypes } = kafkajs;
  const alter = (type: kafkajs.ConfigResourceTypes, name: string) =>
    outcomeOf(
      withAdmin(bob(), (client) =>
        client.alterConfigs({
          validateOnly: false,
          resources: [{ type, name, configEntries: [{ name: "retention.ms", value: "3600000" }] }],
        }),
      ),
    );
  assert.equal(await alter(ConfigResourceTypes.TOPIC, "conf-no"), "TOPIC_AUTHORIZATION_FAILED");
  assert.equal(await alter(ConfigResourceTypes.BROKER, "1"), "CLUSTER_AUTHORIZATION_FAILED");
  assert.equal(await alter(ConfigResourceTypes.TOPIC, "conf-ok"), "NONE");
  const set = (resourceType: number, resourceName: string, name: string) => ({
    resourceType,
    resourceName,
    configs: [{ name, configOperation: 0, value: "7200000" }],
  });
  const body = {
    validateOnly: false,
    resources: [
      set(2, "conf-no", "retention.ms"),
      set(2, "conf-ok", "segment.ms"),
      set(32, "bob-group", "consumer.session.timeout.ms"),
      set(8, "1", "kafka.server"),
      set(4, "", "log.retention.ms"),
    ],
  };
  const result = await asUser(ports(), BOB_LOGIN, (connection) =>
    connection.send(incrementalAlterConfigs, body),
  );
  assert.ok(result.kind === "response", JSON.stringify(result));
  const answers = result.body.responses.map((one) => [one.resourceName, one.errorCode]);
  assert.deepEqual(answers, [
    ["conf-no", ErrorCode.TOPIC_AUTHORIZATION_FAILED],
    ["conf-ok", ErrorCode.NONE],
    ["bob-group", ErrorCode.GROUP_AUTHORIZATION_FAILED],
    ["1", ErrorCode.CLUSTER_AUTHORIZATION_FAILED],
    ["", ErrorCode.CLUSTER_AUTHORIZATION_FAILED],
  ]);
  const configs = await withAdmin(admin(), (client) =>
    client.describeConfigs({
      resources: [{ type: ConfigResourceTypes.TOPIC, name: "conf-ok" }],
      includeSynonyms: false,
    }),
  );
  const entries = configs.resources[0]?.configEntries ?? [];
  const valueOf = (name: string) => entries.find((entry) => entry.configName === name)?.configValue;
  assert.deepEqual([valueOf("retention.ms"), valueOf("segment.ms")], ["3600000", "7200000"]);
});
