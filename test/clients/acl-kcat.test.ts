/**
 * The authorizer with librdkafka (kcat) logged in as bob over SASL/PLAIN, on a node with the
 * StandardAuthorizer (acl-test-support.ts): kcat's metadata lists no topic bob may not
 * describe, its produce to a topic he may not write fails with Kafka's error, and once ACLs
 * allow him (WRITE on the topic; READ on it and on his group) he produces and consumes in a group.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import kafkajs from "kafkajs";
import { aclNodeOfFile, bobAcl, withAdmin } from "./acl-test-support.js";

const { ports, admin } = aclNodeOfFile();
const { AclOperationTypes, AclResourceTypes } = kafkajs;

/** kcat as bob with `args`; its exit code and output. */
function kcatAsBob(args: readonly string[], input?: string) {
  const login = [
    ...["-X", "security.protocol=SASL_PLAINTEXT", "-X", "sasl.mechanism=PLAIN"],
    ...["-X", "sasl.username=bob", "-X", "sasl.password=bob-secret"],
  ];
  const brokers = ["-b", `127.0.0.1:${ports().saslPlaintext}`];
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      "kcat",
      [...brokers, ...login, ...args],
      { timeout: 60_000, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? "");
  });
}

test("kcat as bob sees, writes and reads only what his ACLs allow", async () => {
  await withAdmin(admin(), (client) =>
    client.createTopics({
      waitForLeaders: true,
      topics: ["kcat-open", "kcat-closed"].map((topic) => ({ topic, numPartitions: 1 })),
    }),
  );
  const before = await kcatAsBob(["-L", "-J"]);
  assert.equal(before.code, 0, before.stderr);
  const topicsOf = (json: string) =>
    (JSON.parse(json) as { topics: { topic: string }[] }).topics.map((t) => t.topic);
  assert.deepEqual(topicsOf(before.stdout), [], "no topic names without DESCRIBE");
  const refused = await kcatAsBob(["-P", "-t", "kcat-closed", "-X", "acks=all"], "no\n");
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /authoriz/i);
  await withAdmin(admin(), (client) =>
    client.createAcls({
      acl: [
        bobAcl("kcat-open", AclOperationTypes.WRITE),
        bobAcl("kcat-open", AclOperationTypes.READ),
        { ...bobAcl("kcat-group", AclOperationTypes.READ), resourceType: AclResourceTypes.GROUP },
      ],
    }),
  );
  const after = await kcatAsBob(["-L", "-J"]);
  assert.deepEqual(topicsOf(after.stdout), ["kcat-open"]);
  const produced = await kcatAsBob(["-P", "-t", "kcat-open", "-X", "acks=all"], "one\ntwo\n");
  assert.equal(produced.code, 0, produced.stderr);
  const consumed = await kcatAsBob([
    ...["-G", "kcat-group", "-X", "auto.offset.reset=earliest", "-c", "2", "-e"],
    "kcat-open",
  ]);
  assert.equal(consumed.code, 0, consumed.stderr);
  assert.deepEqual(
    consumed.stdout.split("\n").filter((line) => line !== ""),
    ["one", "two"],
  );
});
