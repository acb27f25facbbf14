/**
 * Three nodes whose controller and inter-broker listeners are SASL_SSL with SCRAM-SHA-512, the
 * nodes' own credentials from each listener's ScramLoginModule entry and bootstrapped by
 * `sluice format --add-scram`: node 1 is the quorum's one controller (and a broker), nodes 2
 * and 3 are brokers, so their registrations and heartbeats log in to node 1's controller
 * listener, checked against the controller's own image, before they have replayed anything;
 * replica fetches log in to the other brokers. A produce with acks=all to three replicas is
 * answered once all three hold it; a user created through one broker logs in on every broker
 * once each has replayed it, and after its deletion on none.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { NodeCrypto } from "../../src/adapters/index.js";
import { withConnection } from "../../src/client/index.js";
import {
  alterUserScramCredentials,
  type AlterUserScramCredentialsRequest,
} from "../../src/protocol/index.js";
import { makeCertificates, replicatedOverTls } from "../clients/security-node.js";
import { clientPorts } from "../clients/sluice-process.js";
import { killAll, pollUntil, temporaryDir } from "./cluster-process.js";
import { bootstrapServers, startThreeNodes, type Member } from "./three-nodes.js";

const run = promisify(execFile);

after(killAll);

const scram = (username: string, password: string) =>
  "org.apache.kafka.common.security.scram.ScramLoginModule required " +
  `username="${username}" password="${password}";`;

const users = ["broker", "controller", "client"].flatMap((name) => [
  "--add-scram",
  `SCRAM-SHA-512=[name=${name},password=${name}-secret]`,
]);

/** The settings every node gets: both listeners SASL_SSL, SCRAM-SHA-512 only. */
function securedSettings(certificates: string): Record<string, string> {
  return {
    // The harness's listener names, both secured: PLAINTEXT is the inter-broker (and client)
    // listener's name here, not its protocol.
    "listener.security.protocol.map": "PLAINTEXT:SASL_SSL,CONTROLLER:SASL_SSL",
    "sasl.enabled.mechanisms": "SCRAM-SHA-512",
    "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-512",
    "sasl.mechanism.controller.protocol": "SCRAM-SHA-512",
    "listener.name.plaintext.scram-sha-512.sasl.jaas.config": scram("broker", "broker-secret"),
    "listener.name.controller.scram-sha-512.sasl.jaas.config": scram(
      "controller",
      "controller-secret",
    ),
    ...replicatedOverTls(certificates),
  };
}

/** kcat at `bootstrap` over SASL_SSL as `user`; `input` on its standard input. */
async function kcat(
  certificates: string,
  login: { readonly bootstrap: string; readonly user: string; readonly password: string },
  args: readonly string[],
  input = "",
): Promise<string> {
  const child = run(
    "kcat",
    [
      ...["-b", login.bootstrap, "-X", "security.protocol=SASL_SSL"],
      ...["-X", "sasl.mechanisms=SCRAM-SHA-512"],
      ...["-X", `ssl.ca.location=${join(certificates, "ca.pem")}`],
      ...["-X", `sasl.username=${login.user}`, "-X", `sasl.password=${login.password}`],
      ...args,
    ],
    { timeout: 60_000 },
  );
  child.child.stdin?.end(input);
  return (await child).stdout;
}

test("SCRAM-SHA-512 between the nodes replicates acks=all and serves new users", async () => {
  const certificates = temporaryDir("scram-certificates");
  await makeCertificates(certificates);
  const members = await startThreeNodes(
    "scram",
    securedSettings(certificates),
    (nodeId, _node, all) => oneController(nodeId, all),
    users,
  );
  const client = {
    bootstrap: bootstrapServers(members),
    user: "client",
    password: "client-secret",
  };
  const records = Array.from({ length: 50 }, (_, index) => `record-${index}`);
  await kcat(
    certificates,
    client,
    ["-P", "-t", "scram", "-X", "acks=all"],
    `${records.join("\n")}\n`,
  );
  // Every replica joined the ISR: the followers fetched from the leader with SCRAM logins.
  await pollUntil(
    async () => {
      const listing = await kcat(certificates, client, ["-L", "-t", "scram"]);
      return /isrs: (\d,\d,\d)/.test(listing) ? listing : undefined;
    },
    { deadlineMs: 30_000, intervalMs: 200, what: "three replicas in the ISR of scram" },
  );
  const consumed = await kcat(certificates, client, ["-C", "-t", "scram", "-o", "beginning", "-e"]);
  assert.deepEqual(consumed.trim().split("\n"), records);
  await newUserOnEveryBroker(members, certificates);
});

/**
 * A user altered through broker 2 (forwarded to the controller) logs in on every broker once
 * each has replayed it; deleted through broker 3, it logs in on none.
 */
async function newUserOnEveryBroker(members: readonly Member[], certificates: string) {
  const caPem = readFileSync(join(certificates, "ca.pem"), "utf8");
  const alter = (target: Member, body: Partial<AlterUserScramCredentialsRequest>) =>
    alterAsClient(target, caPem, { deletions: [], upsertions: [], ...body });
  const salt = randomBytes(16);
  const saltedPassword = pbkdf2Sync("vera-secret", salt, 4096, 64, "sha512");
  const upsertion = { name: "vera", mechanism: 2, iterations: 4096, salt, saltedPassword };
  assert.deepEqual(await alter(members[1] as Member, { upsertions: [upsertion] }), [0]);
  const loginAt = (member: Member) => {
    const bootstrap = `${member.client.host}:${member.client.port}`;
    const vera = { bootstrap, user: "vera", password: "vera-secret" };
    return kcat(certificates, vera, ["-L", "-m", "10"]).then(
      () => true,
      () => false,
    );
  };
  const expectLogins = async (isAccepted: boolean) => {
    for (const member of members) {
      await pollUntil(async () => ((await loginAt(member)) === isAccepted ? true : undefined), {
        deadlineMs: 30_000,
        intervalMs: 200,
        what: `vera ${isAccepted ? "logs in" : "is refused"} on node ${member.nodeId}`,
      });
    }
  };
  await expectLogins(true);
  const deletion = { name: "vera", mechanism: 2 };
  assert.deepEqual(await alter(members[2] as Member, { deletions: [deletion] }), [0]);
  await expectLogins(false);
}

/** Node 1 the quorum's only voter (and a broker); nodes 2 and 3 brokers only. */
function oneController(nodeId: number, members: readonly Member[]): Record<string, string> {
  const controller = members[0] as Member;
  const voters = `1@127.0.0.1:${controller.controller.port}`;
  if (nodeId === 1) return { "controller.quorum.voters": voters };
  const member = members[nodeId - 1] as Member;
  return {
    "process.roles": "broker",
    listeners: `PLAINTEXT://127.0.0.1:${member.client.port}`,
    "controller.quorum.voters": voters,
  };
}

/** AlterUserScramCredentials sent by the project's client, logged in with SCRAM as client. */
async function alterAsClient(
  target: Member,
  caPem: string,
  body: AlterUserScramCredentialsRequest,
): Promise<number[]> {
  const result = await withConnection(
    target.client,
    clientPorts(),
    (connection) => connection.send(alterUserScramCredentials, body),
    {
      requestTimeoutMs: 15_000,
      security: {
        tls: { trustedCertificates: caPem, verifyHostname: true },
        sasl: { mechanism: "SCRAM-SHA-512", username: "client", password: "client-secret" },
        crypto: new NodeCrypto(),
      },
    },
  );
  assert.ok(result.kind === "response", JSON.stringify(result));
  return result.body.results.map((one) => one.errorCode);
}
