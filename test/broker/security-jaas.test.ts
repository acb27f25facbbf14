import { test } from "node:test";
import assert from "node:assert/strict";
import { credentialsOf, parseJaasConfig, PLAIN_LOGIN_MODULE } from "../../src/broker/index.js";
import { PlainServerExchange } from "../../src/broker/index.js";
import { NodeCrypto } from "../../src/adapters/index.js";

test("a PlainLoginModule entry gives its users and the node's own login", () => {
  const parsed = parseJaasConfig(
    `${PLAIN_LOGIN_MODULE} required username="admin" password="admin-secret"\n` +
      ` user_admin="admin-secret" user_alice="with \\"quote\\"";`,
  );
  assert.ok(parsed.ok);
  const [module] = parsed.value;
  assert.ok(module !== undefined);
  assert.equal(module.className, PLAIN_LOGIN_MODULE);
  assert.equal(module.flag, "required");
  const credentials = credentialsOf(module);
  assert.equal(credentials.username, "admin");
  assert.equal(credentials.password, "admin-secret");
  assert.deepEqual(
    [...credentials.users],
    [
      ["admin", "admin-secret"],
      ["alice", 'with "quote"'],
    ],
  );
});

test("an entry without flag or semicolon, or with an option not key=value, is refused", () => {
  assert.equal(parseJaasConfig(`${PLAIN_LOGIN_MODULE} user_a="b";`).ok, false);
  assert.equal(parseJaasConfig(`${PLAIN_LOGIN_MODULE} required user_a="b"`).ok, false);
  assert.equal(parseJaasConfig(`${PLAIN_LOGIN_MODULE} required user_a;`).ok, false);
  assert.equal(parseJaasConfig(`${PLAIN_LOGIN_MODULE} required user_a="b;`).ok, false);
  assert.equal(parseJaasConfig("").ok, false);
});

test("PLAIN accepts a listed user's password and refuses others with Kafka's messages", () => {
  const users = new Map([["alice", "secret"]]);
  const token = (text: string) => new TextEncoder().encode(text);
  const exchange = () => new PlainServerExchange(users, new NodeCrypto(), false);
  assert.deepEqual(exchange().evaluate(token("\u0000alice\u0000secret")), {
    kind: "complete",
    token: new Uint8Array(0),
    user: "alice",
  });
  const wrong = { kind: "failed", message: "Authentication failed: Invalid username or password" };
  assert.deepEqual(exchange().evaluate(token("\u0000alice\u0000nope")), wrong);
  assert.deepEqual(exchange().evaluate(token("\u0000bob\u0000secret")), wrong);
  const other = exchange().evaluate(token("bob\u0000alice\u0000secret"));
  assert.equal(other.kind, "failed");
});
