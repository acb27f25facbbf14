/**
 * `--command-config`: the `sluice` commands read Kafka's client properties to reach secured
 * listeners of a real node (test/clients/security-node.ts): `sluice topic` over SASL_SSL with
 * PLAIN, `sluice produce` and `sluice consume` over mutual TLS, `sluice groups` over
 * SASL_PLAINTEXT with SCRAM-SHA-512; a wrong password, a missing file and an unknown protocol
 * each end the command with exit code 1 and a message, and without the file a command does not
 * get through a SASL listener.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SecurityNode } from "../clients/security-node.js";
import { lines, runSluice } from "./run-sluice.js";

let node: SecurityNode;

before(async () => {
  node = await SecurityNode.start();
  const read = (name: string) => readFileSync(join(node.dir, name), "utf8");
  writeFileSync(join(node.dir, "alice-keystore.pem"), read("client.key") + read("client.pem"));
});

after(async () => {
  if (node !== undefined) await node.destroy();
});

/** Writes `name` in the node's folder with `lines`; returns its path. */
function clientProperties(name: string, properties: readonly string[]): string {
  const path = join(node.dir, name);
  writeFileSync(path, properties.join("\n") + "\n");
  return path;
}

const plain = (username: string, password: string) =>
  "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required " +
  `username="${username}" password="${password}";`;

test("sluice topic creates and lists topics over SASL_SSL with PLAIN", async () => {
  const config = clientProperties("bob-sasl-ssl.properties", [
    "security.protocol=SASL_SSL",
    "sasl.mechanism=PLAIN",
    plain("bob", "bob-secret"),
    "ssl.truststore.type=PEM",
    `ssl.truststore.location=${join(node.dir, "ca.pem")}`,
  ]);
  const bootstrap = ["--bootstrap-server", `127.0.0.1:${node.ports.saslSsl}`];
  const options = [...bootstrap, "--command-config", config];
  const created = await runSluice(["topic", "create", "--topic", "secured", ...options]);
  assert.equal(created.code, 0, created.stderr);
  const listed = await runSluice(["topic", "list", ...options]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.ok(lines(listed.stdout).includes("secured"), listed.stdout);
  const refused = await runSluice(["topic", "list", ...bootstrap, "--command-timeout-ms", "3000"]);
  assert.equal(refused.code, 1, "without the file the SASL listener is not passed");
});

test("sluice produce and consume over mutual TLS", async () => {
  const config = clientProperties("alice-ssl.properties", [
    "security.protocol=SSL",
    "ssl.keystore.type=PEM",
    `ssl.keystore.location=${join(node.dir, "alice-keystore.pem")}`,
    `ssl.truststore.location=${join(node.dir, "ca.pem")}`,
  ]);
  const options = ["--bootstrap-server", `127.0.0.1:${node.ports.ssl}`, "--command-config", config];
  const created = await runSluice(["topic", "create", "--topic", "over-tls", ...options]);
  assert.equal(created.code, 0, created.stderr);
  const produced = await runSluice(["produce", "over-tls", ...options], "first\nsecond\n");
  assert.equal(produced.code, 0, produced.stderr);
  const consumed = await runSluice([
    ...["consume", "over-tls", "--from-beginning", "--max-messages", "2"],
    ...options,
  ]);
  assert.equal(consumed.code, 0, consumed.stderr);
  assert.deepEqual(lines(consumed.stdout), ["first", "second"]);
});

test("sluice groups logs in with SCRAM-SHA-512", async () => {
  const config = clientProperties("alice-scram.properties", [
    "security.protocol=SASL_PLAINTEXT",
    "sasl.mechanism=SCRAM-SHA-512",
    "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\",
    '  username="alice" password="alice-secret";',
  ]);
  const options = [
    ...["--bootstrap-server", `127.0.0.1:${node.ports.saslPlaintext}`],
    ...["--command-config", config],
  ];
  const listed = await runSluice(["groups", "list", ...options]);
  assert.equal(listed.code, 0, listed.stderr);
});

test("a wrong password, a missing file or an unknown protocol ends the command", async () => {
  const bootstrap = ["--bootstrap-server", `127.0.0.1:${node.ports.saslPlaintext}`];
  const wrong = clientProperties("wrong.properties", [
    "security.protocol=SASL_PLAINTEXT",
    "sasl.mechanism=PLAIN",
    plain("bob", "not-the-password"),
  ]);
  const refused = await runSluice(["topic", "list", ...bootstrap, "--command-config", wrong]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /SASL_AUTHENTICATION_FAILED|authentication/i);
  const missing = join(node.dir, "no-such.properties");
  const absent = await runSluice(["topic", "list", ...bootstrap, "--command-config", missing]);
  assert.equal(absent.code, 1);
  assert.match(absent.stderr, /--command-config: .*no-such\.properties does not exist/);
  const bogus = clientProperties("bogus.properties", ["security.protocol=KERBEROS"]);
  const unknown = await runSluice(["topic", "list", ...bootstrap, "--command-config", bogus]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /security\.protocol is KERBEROS/);
});
