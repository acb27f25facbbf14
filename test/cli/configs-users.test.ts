/**
 * `sluice configs --entity-type users` run as a child process against a real node with SASL
 * listeners (security-node.ts), as kafka-configs.sh manages SCRAM credentials: a user added
 * with `--add-config 'SCRAM-SHA-512=[iterations=8192,password=...]'` logs in with kafkajs,
 * describe shows its mechanisms, `--delete-config` removes it and the login is refused; and
 * the refusals (too few iterations, a config that is not SCRAM, deleting what is not there).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SecurityNode, scramLogin } from "../clients/security-node.js";
import { json, lines, runSluice, type Outcome } from "./run-sluice.js";

let node: SecurityNode;

before(async () => {
  node = await SecurityNode.start();
});

after(async () => {
  await node.destroy();
});

function configs(subcommand: string, ...args: string[]): Promise<Outcome> {
  const bootstrap = `127.0.0.1:${node.ports.plaintext}`;
  return runSluice(["configs", subcommand, "--bootstrap-server", bootstrap, ...args]);
}

const user = (name: string) => ["--entity-type", "users", "--entity-name", name];

const kafkajsLogin = (username: string, password: string) =>
  scramLogin(node.ports.saslPlaintext, username, password);

test("a user added with sluice configs logs in until its credential is deleted", async () => {
  const added = await configs(
    "alter",
    ...user("sam"),
    "--add-config",
    "SCRAM-SHA-256=[password=sam-256],SCRAM-SHA-512=[iterations=8192,password=sam-secret]",
  );
  assert.equal(added.code, 0, added.stderr);
  assert.deepEqual(lines(added.stdout), ["Completed updating config for user sam."]);
  await kafkajsLogin("sam", "sam-secret");
  const described = await configs("describe", ...user("sam"));
  assert.equal(described.code, 0, described.stderr);
  assert.deepEqual(lines(described.stdout), [
    "SCRAM credential configs for user-principal 'sam' are SCRAM-SHA-256=iterations=4096, " +
      "SCRAM-SHA-512=iterations=8192",
  ]);
  const removed = await configs("alter", ...user("sam"), "--delete-config", "SCRAM-SHA-512");
  assert.equal(removed.code, 0, removed.stderr);
  await assert.rejects(kafkajsLogin("sam", "sam-secret"), /invalid credentials/);
  type Credentials = { user: string; credentials: { mechanism: string; iterations: number }[] };
  const everyUser = json<{ credentials: Credentials[] }>(
    await configs("describe", "--entity-type", "users", "--json"),
  );
  const all = everyUser.credentials;
  const sam = all.find((entry) => entry.user === "sam");
  assert.deepEqual(sam?.credentials, [{ mechanism: "SCRAM-SHA-256", iterations: 4096 }]);
  assert.ok(all.some((entry) => entry.user === "alice"));
  const nobody = await configs("describe", ...user("nobody"));
  assert.equal(nobody.code, 0, nobody.stderr);
  assert.deepEqual(lines(nobody.stdout), []);
});

test("sluice configs refuses what kafka-configs.sh refuses for users", async () => {
  const few = await configs(
    "alter",
    ...user("tess"),
    "--add-config",
    "SCRAM-SHA-512=[iterations=100,password=x]",
  );
  assert.notEqual(few.code, 0);
  assert.match(few.stderr, /Iterations 100 is less than the minimum 4096 required/);
  const many = await configs(
    "alter",
    ...user("tess"),
    "--add-config",
    "SCRAM-SHA-512=[iterations=20000,password=x]",
  );
  assert.notEqual(many.code, 0);
  assert.match(many.stderr, /UNACCEPTABLE_CREDENTIAL: Too many iterations/);
  const mixed = ["SCRAM-SHA-512=[iterations=8192,password=x]", "producer_byte_rate=10"].join(",");
  const other = await configs("alter", ...user("tess"), "--add-config", mixed);
  assert.notEqual(other.code, 0);
  assert.match(other.stderr, /SCRAM credentials and quotas cannot be altered in one command/);
  const missing = await configs("alter", ...user("tess"), "--delete-config", "SCRAM-SHA-256");
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /RESOURCE_NOT_FOUND/);
  assert.ok(node.isRunning);
});
