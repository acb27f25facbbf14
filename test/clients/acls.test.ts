/**
 * The authorizer with real clients: a node with Kafka's StandardAuthorizer whose listeners all
 * use SASL/PLAIN (the controller's too, so that the node's own principal, User:admin, is the
 * super user it is in Kafka), kafkajs as the super user creating topics and ACLs, and as bob,
 * who is refused with Kafka's codes and learns no topic names until ACLs allow him; DENY wins
 * over ALLOW; prefixed patterns match the names that start with them. `sluice acls`, which logs
 * in to no SASL listener, runs as User:ANONYMOUS on a PLAINTEXT listener, a super user here.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import kafkajs from "kafkajs";
import { SLUICE } from "./sluice-process.js";
import { aclNodeOfFile, bobAcl, errorTypeOf, outcomeOf, withAdmin } from "./acl-test-support.js";

const { ports, admin, bob } = aclNodeOfFile();

/** The error type kafkajs reports for a produce of one record to `topic` as bob. */
async function bobProduces(topic: string): Promise<string> {
  const producer = bob().producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: [{ value: "v" }] });
    return "NONE";
  } catch (error) {
    return errorTypeOf(error);
  } finally {
    await producer.disconnect();
  }
}

const {
  AclResourceTypes: ResourceTypes,
  AclOperationTypes,
  AclPermissionTypes,
  ResourcePatternTypes,
} = kafkajs;

test("a principal without ACLs is refused and learns no topic names", async () => {
  await withAdmin(admin(), (client) =>
    client.createTopics({
      waitForLeaders: true,
      topics: ["orders", "app-logs", "secret"].map((topic) => ({ topic, numPartitions: 1 })),
    }),
  );
  const seen = await withAdmin(bob(), (client) => client.fetchTopicMetadata());
  assert.deepEqual(seen.topics, []);
  assert.equal(await bobProduces("orders"), "TOPIC_AUTHORIZATION_FAILED");
  assert.equal(await bobProduces("no-such-topic"), "TOPIC_AUTHORIZATION_FAILED");
  const configs = await outcomeOf(
    withAdmin(bob(), (client) =>
      client.describeConfigs({
        resources: [{ type: kafkajs.ConfigResourceTypes.TOPIC, name: "secret" }],
        includeSynonyms: false,
      }),
    ),
  );
  assert.equal(configs, "TOPIC_AUTHORIZATION_FAILED");
  const offsets = await outcomeOf(withAdmin(bob(), (client) => client.fetchTopicOffsets("secret")));
  assert.equal(offsets, "TOPIC_AUTHORIZATION_FAILED");
  await assert.rejects(
    withAdmin(bob(), (client) =>
      client.describeAcls({
        resourceType: ResourceTypes.ANY,
        resourcePatternType: ResourcePatternTypes.ANY,
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ANY,
      }),
    ),
    (error: { type?: string }) => {
      assert.equal(error.type, "CLUSTER_AUTHORIZATION_FAILED");
      return true;
    },
  );
  await assert.rejects(
    withAdmin(bob(), (client) => client.createAcls({ acl: [bobAcl("orders", 2)] })),
    (error: { type?: string }) => {
      assert.equal(error.type, "CLUSTER_AUTHORIZATION_FAILED");
      return true;
    },
  );
});

test("ACLs allow, DENY wins, prefixes match, and a deleted ACL stops counting", async () => {
  await withAdmin(admin(), (client) =>
    client.createAcls({
      acl: [
        bobAcl("orders", AclOperationTypes.ALL),
        bobAcl("orders", AclOperationTypes.WRITE, { deny: true }),
        bobAcl("app-", AclOperationTypes.WRITE, { prefixed: true }),
      ],
    }),
  );
  const described = await withAdmin(admin(), (client) =>
    client.describeAcls({
      resourceType: ResourceTypes.TOPIC,
      resourcePatternType: ResourcePatternTypes.ANY,
      principal: "User:bob",
      operation: AclOperationTypes.ANY,
      permissionType: AclPermissionTypes.ANY,
    }),
  );
  const patterns = described.resources.map((r) => `${r.resourceName}/${r.acls.length}`).sort();
  assert.deepEqual(patterns, ["app-/1", "orders/2"]);
  const seen = await withAdmin(bob(), (client) => client.fetchTopicMetadata());
  assert.deepEqual(seen.topics.map((topic) => topic.name).sort(), ["app-logs", "orders"]);
  assert.equal(await bobProduces("app-logs"), "NONE");
  assert.equal(await bobProduces("orders"), "TOPIC_AUTHORIZATION_FAILED");
  assert.equal(await bobProduces("secret"), "TOPIC_AUTHORIZATION_FAILED");
  const deleted = await withAdmin(admin(), (client) =>
    client.deleteAcls({
      filters: [
        {
          ...bobAcl("orders", AclOperationTypes.WRITE, { deny: true }),
          resourcePatternType: ResourcePatternTypes.LITERAL,
        },
      ],
    }),
  );
  assert.equal(deleted.filterResponses[0]?.matchingAcls.length, 1);
  assert.equal(await bobProduces("orders"), "NONE");
});

/** Consumes `orders` as bob in `groupId`: the first record's value, or the crash's error. */
async function bobConsumes(groupId: string, retries: number): Promise<string> {
  const consumer = bob(retries).consumer({ groupId, retry: { retries } });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: ["orders"], fromBeginning: true });
    const outcome = new Promise<string>((resolve) => {
      consumer.on(consumer.events.CRASH, (event) => resolve(errorTypeOf(event.payload.error)));
      void consumer.run({
        eachMessage: async ({ message }) => resolve(`value ${String(message.value)}`),
      });
    });
    return await outcome;
  } finally {
    await consumer.disconnect();
  }
}

test("a consumer group needs READ on the group as well as on the topic", async () => {
  // FindCoordinator answers GROUP_AUTHORIZATION_FAILED, which kafkajs reports as not finding
  // the coordinator.
  assert.match(await bobConsumes("bob-group", 0), /group coordinator/);
  await withAdmin(admin(), (client) =>
    client.createAcls({
      acl: [
        {
          ...bobAcl("bob-", AclOperationTypes.READ, { prefixed: true }),
          resourceType: ResourceTypes.GROUP,
        },
      ],
    }),
  );
  // Retries: the first FindCoordinator allowed starts creating __consumer_offsets.
  assert.equal(await bobConsumes("bob-group", 8), "value v");
});

test("CreateTopics needs CREATE on the cluster or on each topic", async () => {
  const create = (topic: string) =>
    outcomeOf(
      // Without waiting for leaders: that needs DESCRIBE, which CREATE does not imply.
      withAdmin(bob(), (client) =>
        client.createTopics({ waitForLeaders: false, topics: [{ topic, numPartitions: 1 }] }),
      ),
    );
  assert.equal(await create("bob-new"), "TOPIC_AUTHORIZATION_FAILED");
  await withAdmin(admin(), (client) =>
    client.createAcls({
      acl: [bobAcl("bob-", AclOperationTypes.CREATE, { prefixed: true })],
    }),
  );
  assert.equal(await create("bob-new"), "NONE");
  assert.equal(await create("other-new"), "TOPIC_AUTHORIZATION_FAILED");
  const names = await withAdmin(admin(), (client) => client.listTopics());
  assert.ok(names.includes("bob-new"));
  assert.ok(!names.includes("other-new"));
});

/** `sluice acls` against the PLAINTEXT listener; its standard output. */
async function sluiceAcls(args: readonly string[]): Promise<string> {
  const bootstrap = ["--bootstrap-server", `127.0.0.1:${ports().ssl}`];
  const { stdout } = await promisify(execFile)(process.execPath, [
    SLUICE,
    "acls",
    ...args,
    ...bootstrap,
  ]);
  return stdout;
}

test("sluice acls creates, lists and deletes ACLs, and they take effect", async () => {
  const created = await sluiceAcls([
    ...["create", "--topic", "secret", "--allow-principal", "User:bob"],
    ...["--operation", "write", "--operation", "describe"],
  ]);
  assert.match(created, /operation=WRITE, permissionType=ALLOW/);
  assert.equal(await bobProduces("secret"), "NONE");
  const listed = await sluiceAcls(["list", "--topic", "secret"]);
  assert.match(listed, /name=secret, patternType=LITERAL/);
  assert.match(listed, /principal=User:bob, host=\*, operation=DESCRIBE/);
  const deleted = await sluiceAcls(["delete", "--topic", "secret", "--operation", "write"]);
  assert.match(deleted, /Removed \(principal=User:bob, host=\*, operation=WRITE/);
  assert.equal(await bobProduces("secret"), "TOPIC_AUTHORIZATION_FAILED");
  const all = JSON.parse(await sluiceAcls(["list", "--json"])) as { resourceName: string }[];
  assert.ok(all.some((resource) => resource.resourceName === "secret"));
});
