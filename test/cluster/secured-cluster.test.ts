/**
 * Three combined nodes whose controller and inter-broker listeners are SASL_SSL (PEM stores,
 * PLAIN logins from each listener's JAAS entry): Raft between the controllers, the brokers'
 * registration and heartbeats, and replica fetches all go over TLS with a SASL login, and a
 * client producing with acks=all to a topic with three replicas is answered only once every
 * replica in the ISR has the records; kcat reads them back.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { makeCertificates, replicatedOverTls } from "../clients/security-node.js";
import { killAll, pollUntil, temporaryDir } from "./cluster-process.js";
import { bootstrapServers, startThreeNodes } from "./three-nodes.js";

const run = promisify(execFile);

after(killAll);

const jaas = (users: string) =>
  `org.apache.kafka.common.security.plain.PlainLoginModule required ${users};`;

test("SASL_SSL controller and inter-broker listeners replicate acks=all", async () => {
  const certificates = temporaryDir("secured-certificates");
  await makeCertificates(certificates);
  const members = await startThreeNodes("secured", {
    // The harness's listener names, both secured: PLAINTEXT is the inter-broker (and client)
    // listener's name here, not its protocol.
    "listener.security.protocol.map": "PLAINTEXT:SASL_SSL,CONTROLLER:SASL_SSL",
    "sasl.enabled.mechanisms": "PLAIN",
    "sasl.mechanism.inter.broker.protocol": "PLAIN",
    "sasl.mechanism.controller.protocol": "PLAIN",
    "listener.name.plaintext.plain.sasl.jaas.config": jaas(
      'username="broker" password="broker-secret" user_broker="broker-secret" ' +
        'user_client="client-secret"',
    ),
    "listener.name.controller.plain.sasl.jaas.config": jaas(
      'username="controller" password="controller-secret" user_controller="controller-secret"',
    ),
    ...replicatedOverTls(certificates),
  });
  const client = [
    "-b",
    bootstrapServers(members),
    "-X",
    "security.protocol=SASL_SSL",
    "-X",
    `ssl.ca.location=${join(certificates, "ca.pem")}`,
    "-X",
    "sasl.mechanisms=PLAIN",
    "-X",
    "sasl.username=client",
    "-X",
    "sasl.password=client-secret",
  ];
  const kcat = async (args: readonly string[], input = "") => {
    const child = run("kcat", [...client, ...args], { timeout: 60_000 });
    child.child.stdin?.end(input);
    return (await child).stdout;
  };
  const records = Array.from({ length: 50 }, (_, index) => `record-${index}`);
  await kcat(["-P", "-t", "secured", "-X", "acks=all"], `${records.join("\n")}\n`);
  // Every replica joined the ISR: followers fetched from the leader over SASL_SSL.
  await pollUntil(
    async () => {
      const listing = await kcat(["-L", "-t", "secured"]);
      return /isrs: (\d,\d,\d)/.test(listing) ? listing : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 200, what: "three replicas in the ISR of secured" },
  );
  const consumed = await kcat(["-C", "-t", "secured", "-o", "beginning", "-e"]);
  assert.deepEqual(consumed.trim().split("\n"), records);
});
