/**
 * SCRAM users managed over the wire on a real node (security-node.ts), as KIP-554 admin clients
 * manage them: AlterUserScramCredentials sent to the client listener and forwarded to the
 * controller, DescribeUserScramCredentials answered from the broker's image. A user created by
 * @platformatic/kafka's raw API logs in with kafkajs over SCRAM-SHA-512; once deleted, the login
 * is refused. The refusals carry Kafka's per-user error codes.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { ErrorCode } from "../../src/common/index.js";
import { withConnection } from "../../src/client/index.js";
import {
  alterUserScramCredentials,
  describeUserScramCredentials,
  type AlterUserScramCredentialsRequest,
} from "../../src/protocol/index.js";
import { SecurityNode, scramLogin } from "./security-node.js";
import { clientPorts } from "./sluice-process.js";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SCRIPT = join(ROOT, "test", "node22", "platformatic-scram-users.mjs");
/** The first run downloads Node 22 from the npm registry. */
const DEADLINE_MS = 300_000;
const SHA_256 = 1;
const SHA_512 = 2;

let node: SecurityNode;

before(async () => {
  node = await SecurityNode.start();
});

after(async () => {
  // A failed start leaves no node to destroy.
  if (node !== undefined) await node.destroy();
});

/** A connection to the SASL_PLAINTEXT listener, logged in as bob with PLAIN. */
function asBob<T>(action: Parameters<typeof withConnection<T>>[2]): Promise<T> {
  return withConnection(
    { host: "127.0.0.1", port: node.ports.saslPlaintext },
    clientPorts(),
    action,
    {
      requestTimeoutMs: 15_000,
      security: { sasl: { mechanism: "PLAIN", username: "bob", password: "bob-secret" } },
    },
  );
}

async function alter(request: Partial<AlterUserScramCredentialsRequest>) {
  const body = { deletions: [], upsertions: [], ...request };
  const result = await asBob((connection) => connection.send(alterUserScramCredentials, body));
  assert.ok(result.kind === "response", JSON.stringify(result));
  return Object.fromEntries(result.body.results.map((one) => [one.user, one.errorCode]));
}

async function describe(users: string[] | null) {
  const body = { users: users === null ? null : users.map((name) => ({ name })) };
  const result = await asBob((connection) => connection.send(describeUserScramCredentials, body));
  assert.ok(result.kind === "response", JSON.stringify(result));
  return result.body;
}

function upsertion(name: string, password: string, mechanism = SHA_512, iterations = 4096) {
  const salt = randomBytes(16);
  const hash = mechanism === SHA_256 ? "sha256" : "sha512";
  const length = mechanism === SHA_256 ? 32 : 64;
  const saltedPassword = pbkdf2Sync(password, salt, iterations, length, hash);
  return { name, mechanism, iterations, salt, saltedPassword };
}

const kafkajsLogin = (username: string, password: string) =>
  scramLogin(node.ports.saslPlaintext, username, password);

test("a user created by @platformatic/kafka logs in with kafkajs until it is deleted", async () => {
  const { stdout } = await run(
    "npx",
    [
      "-y",
      "node@22",
      SCRIPT,
      "127.0.0.1",
      String(node.ports.saslPlaintext),
      "bob",
      "bob-secret",
      "paula",
      "paula-secret",
    ],
    { cwd: ROOT, timeout: DEADLINE_MS, maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = stdout.trim().split("\n");
  const outcome = JSON.parse(lines[lines.length - 1] ?? "{}") as {
    altered: { results: { user: string; errorCode: number }[] };
    described: { results: { user: string; errorCode: number; credentialInfos: unknown[] }[] };
  };
  assert.deepEqual(outcome.altered.results, [{ user: "paula", errorCode: 0, errorMessage: null }]);
  assert.deepEqual(
    outcome.described.results.map(({ user, errorCode, credentialInfos }) => ({
      user,
      errorCode,
      credentialInfos,
    })),
    [
      { user: "paula", errorCode: 0, credentialInfos: [{ mechanism: SHA_512, iterations: 8192 }] },
      { user: "nobody", errorCode: ErrorCode.RESOURCE_NOT_FOUND, credentialInfos: [] },
    ],
  );
  await kafkajsLogin("paula", "paula-secret");
  await assert.rejects(kafkajsLogin("paula", "wrong"), /invalid credentials/);
  assert.deepEqual(await alter({ deletions: [{ name: "paula", mechanism: SHA_512 }] }), {
    paula: 0,
  });
  await assert.rejects(
    kafkajsLogin("paula", "paula-secret"),
    /invalid credentials with SASL mechanism SCRAM-SHA-512/,
  );
  assert.ok(node.isRunning);
});

test("a changed password replaces the old one for the next login", async () => {
  assert.deepEqual(await alter({ upsertions: [upsertion("quinn", "first")] }), { quinn: 0 });
  await kafkajsLogin("quinn", "first");
  assert.deepEqual(await alter({ upsertions: [upsertion("quinn", "second", SHA_512, 16384)] }), {
    quinn: 0,
  });
  await kafkajsLogin("quinn", "second");
  await assert.rejects(kafkajsLogin("quinn", "first"), /invalid credentials/);
});

test("each refused change gets Kafka's error code, and the others are made", async () => {
  const codes = await alter({
    deletions: [{ name: "ghost", mechanism: SHA_256 }],
    upsertions: [
      upsertion("", "x"),
      upsertion("few", "x", SHA_256, 4095),
      upsertion("many", "x", SHA_512, 16385),
      { ...upsertion("odd", "x"), mechanism: 7 },
      upsertion("twice", "x"),
      upsertion("twice", "x", SHA_256),
      upsertion("rita", "rita-secret", SHA_256),
    ],
  });
  assert.deepEqual(codes, {
    ghost: ErrorCode.RESOURCE_NOT_FOUND,
    twice: ErrorCode.DUPLICATE_RESOURCE,
    "": ErrorCode.UNACCEPTABLE_CREDENTIAL,
    few: ErrorCode.UNACCEPTABLE_CREDENTIAL,
    many: ErrorCode.UNACCEPTABLE_CREDENTIAL,
    odd: ErrorCode.UNSUPPORTED_SASL_MECHANISM,
    rita: 0,
  });
  const described = await describe(["rita", "few", "rita"]);
  assert.equal(described.errorCode, 0);
  assert.deepEqual(
    described.results.map(({ user, errorCode }) => [user, errorCode]),
    [
      ["rita", ErrorCode.DUPLICATE_RESOURCE],
      ["few", ErrorCode.RESOURCE_NOT_FOUND],
    ],
  );
});

test("describing without names lists the bootstrapped users with their mechanisms", async () => {
  const all = await describe(null);
  const byUser = new Map(all.results.map((result) => [result.user, result.credentialInfos]));
  assert.deepEqual(byUser.get("alice"), [{ mechanism: SHA_512, iterations: 4096 }]);
  assert.deepEqual(byUser.get("carol"), [{ mechanism: SHA_256, iterations: 4096 }]);
  assert.ok(all.results.every((result) => result.errorCode === 0));
});
