/**
 * Three combined nodes with Kafka's StandardAuthorizer and SASL_SSL controller and inter-broker
 * listeners, the nodes' own principals (User:broker, User:controller) being the super users, as
 * Kafka requires: the cluster forms and replicates, while a principal that logged in but is no
 * super user is refused what only nodes may do. Its UnregisterBroker is answered
 * CLUSTER_AUTHORIZATION_FAILED and the broker stays registered; its Fetch posing as a follower
 * (replica id 2) is answered TOPIC_AUTHORIZATION_FAILED for every partition and reads nothing.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ErrorCode } from "../../src/common/index.js";
import { withConnection } from "../../src/client/index.js";
import {
  createTopics,
  fetch,
  metadata,
  unregisterBroker,
  type ApiCodec,
  type MessageInput,
} from "../../src/protocol/index.js";
import { clientPorts } from "../clients/sluice-process.js";
import { makeCertificates } from "../clients/security-node.js";
import { killAll, pollUntil, temporaryDir, type Endpoint } from "./cluster-process.js";
import { startThreeNodes, type Member } from "./three-nodes.js";

const jaas = (users: string) =>
  `org.apache.kafka.common.security.plain.PlainLoginModule required ${users};`;

let certificates: string;
let members: Member[];

before(async () => {
  certificates = temporaryDir("authorized-certificates");
  await makeCertificates(certificates);
  members = await startThreeNodes("authorized", {
    "listener.security.protocol.map": "PLAINTEXT:SASL_SSL,CONTROLLER:SASL_SSL",
    "sasl.enabled.mechanisms": "PLAIN",
    "sasl.mechanism.inter.broker.protocol": "PLAIN",
    "sasl.mechanism.controller.protocol": "PLAIN",
    "listener.name.plaintext.plain.sasl.jaas.config": jaas(
      'username="broker" password="broker-secret" user_broker="broker-secret" ' +
        'user_client="client-secret"',
    ),
    "listener.name.controller.plain.sasl.jaas.config": jaas(
      'username="controller" password="controller-secret" ' +
        'user_controller="controller-secret" user_intruder="intruder-secret"',
    ),
    "ssl.keystore.type": "PEM",
    "ssl.truststore.type": "PEM",
    "ssl.keystore.location": join(certificates, "server-keystore.pem"),
    "ssl.key.password": "key-secret",
    "ssl.truststore.location": join(certificates, "ca.pem"),
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:broker;User:controller",
    "default.replication.factor": "3",
    "min.insync.replicas": "2",
  });
});

after(killAll);

/** Sends one request as `username` over SASL_SSL and returns the response body. */
async function requestAs<Request extends object, Response extends object>(
  user: { readonly username: string; readonly password: string },
  endpoint: Endpoint,
  api: ApiCodec<Request, Response>,
  body: MessageInput<Request>,
  maxVersion: number,
): Promise<Response> {
  const trustedCertificates = readFileSync(join(certificates, "ca.pem"), "utf8");
  const security = {
    tls: { trustedCertificates, verifyHostname: true },
    sasl: { mechanism: "PLAIN" as const, ...user },
  };
  const result = await withConnection(
    endpoint,
    clientPorts(),
    (connection) => connection.send(api, body, { maxVersion }),
    { requestTimeoutMs: 10_000, security },
  );
  if (result.kind !== "response") throw new Error(`no answer: ${JSON.stringify(result)}`);
  return result.body;
}

const broker = { username: "broker", password: "broker-secret" };
const client = { username: "client", password: "client-secret" };
const intruder = { username: "intruder", password: "intruder-secret" };

const first = () => members[0] as Member;

/** The broker ids the cluster's metadata lists, as the super user sees them. */
async function registeredBrokers(): Promise<number[]> {
  const answer = await requestAs(broker, first().client, metadata, { topics: [] }, 12);
  return answer.brokers.map((entry) => entry.nodeId).sort();
}

test("the nodes, as super users, form the cluster and replicate", async () => {
  await pollUntil(async () => ((await registeredBrokers()).length === 3 ? true : undefined), {
    deadlineMs: 60_000,
    intervalMs: 200,
    what: "three registered brokers",
  });
  const topics = [{ name: "guarded", numPartitions: 1, replicationFactor: 3 }];
  const created = await requestAs(
    broker,
    first().client,
    createTopics,
    { topics, timeoutMs: 30_000 },
    7,
  );
  assert.equal(created.topics[0]?.errorCode, ErrorCode.NONE);
  await pollUntil(
    async () => {
      const answer = await requestAs(broker, first().client, metadata, { topics: null }, 12);
      const partition = answer.topics.find((t) => t.name === "guarded")?.partitions[0];
      return partition !== undefined && partition.isrNodes.length === 3 ? true : undefined;
    },
    { deadlineMs: 60_000, intervalMs: 200, what: "a full ISR of guarded" },
  );
});

test("an UnregisterBroker from a principal that is no super user is refused", async () => {
  for (const member of members) {
    const answer = await requestAs(
      intruder,
      member.controller,
      unregisterBroker,
      { brokerId: 3 },
      0,
    );
    assert.equal(answer.errorCode, ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
  }
  assert.deepEqual(await registeredBrokers(), [1, 2, 3]);
});

test("a Fetch posing as a follower without CLUSTER_ACTION reads nothing", async () => {
  const answer = await requestAs(broker, first().client, metadata, { topics: null }, 12);
  const leader = answer.topics.find((t) => t.name === "guarded")?.partitions[0]?.leaderId;
  const leaderMember = members.find((member) => member.nodeId === leader);
  assert.ok(leaderMember !== undefined);
  const follower = members.find((member) => member.nodeId !== leader) as Member;
  const partitions = [{ partition: 0, fetchOffset: 0, partitionMaxBytes: 1_000_000 }];
  const spoofed = await requestAs(
    client,
    leaderMember.client,
    fetch,
    {
      replicaId: follower.nodeId,
      maxWaitMs: 0,
      minBytes: 0,
      maxBytes: 1_000_000,
      topics: [{ topic: "guarded", partitions }],
    },
    12,
  );
  const refused = spoofed.responses[0]?.partitions[0];
  assert.equal(refused?.errorCode, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
  assert.equal(refused?.highWatermark, -1);
});
