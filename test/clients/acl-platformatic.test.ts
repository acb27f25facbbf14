/**
 * The authorizer with @platformatic/kafka (under Node 22, test/node22/platformatic-acl.mjs)
 * logged in as bob over SASL/PLAIN, on a node with the StandardAuthorizer (acl-test-support.ts):
 * without ACLs it lists no topics and its produce is refused; with WRITE on one topic it lists
 * that one only and produces to it, and is still refused on the other.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import kafkajs from "kafkajs";
import { aclNodeOfFile, bobAcl, withAdmin } from "./acl-test-support.js";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SCRIPT = join(ROOT, "test", "node22", "platformatic-acl.mjs");
/** The first run downloads Node 22 from the npm registry. */
const DEADLINE_MS = 300_000;

const { ports, admin } = aclNodeOfFile();

async function asBob(topics: readonly string[]) {
  const bootstrap = `127.0.0.1:${ports().saslPlaintext}`;
  const { stdout } = await run("npx", ["-y", "node@22", SCRIPT, bootstrap, ...topics], {
    cwd: ROOT,
    timeout: DEADLINE_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  const lines = stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1] ?? "{}") as {
    listed: string[];
    produced: Record<string, string>;
  };
}

test("@platformatic/kafka as bob sees and writes only what his ACLs allow", async () => {
  await withAdmin(admin(), (client) =>
    client.createTopics({
      waitForLeaders: true,
      topics: ["plt-open", "plt-closed"].map((topic) => ({ topic, numPartitions: 1 })),
    }),
  );
  const before = await asBob(["plt-open"]);
  assert.deepEqual(before.listed, [], "no topic names without DESCRIBE");
  assert.match(before.produced["plt-open"] ?? "", /TOPIC_AUTHORIZATION_FAILED|authoriz/i);
  await withAdmin(admin(), (client) =>
    client.createAcls({ acl: [bobAcl("plt-open", kafkajs.AclOperationTypes.WRITE)] }),
  );
  const after = await asBob(["plt-open", "plt-closed"]);
  assert.deepEqual(after.listed, ["plt-open"]);
  assert.equal(after.produced["plt-open"], "NONE");
  assert.match(after.produced["plt-closed"] ?? "", /TOPIC_AUTHORIZATION_FAILED|authoriz/i);
});
