/**
 * KIP-368 re-authentication in the SASL session state machine, on a manual clock: a PLAIN login
 * on a listener with `connections.max.reauth.ms` gets that session lifetime, the session expires
 * at it, a v1 SaslHandshake on the authenticated connection starts a re-authentication as the
 * same user (which renews the lifetime), and one as another user is refused.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { CryptoRandom, NodeCrypto } from "../../src/adapters/index.js";
import { ErrorCode } from "../../src/common/index.js";
import { SaslSession } from "../../src/broker/security/sasl-session.js";

const encoder = new TextEncoder();
const plainToken = (user: string, password: string) => encoder.encode(`\0${user}\0${password}`);

function session(maxReauthMs: number) {
  let nowMs = 1000;
  const sasl = new SaslSession(
    {
      enabledMechanisms: ["PLAIN"],
      plainUsers: new Map([
        ["alice", "alice-secret"],
        ["bob", "bob-secret"],
      ]),
      maxReauthMs: () => maxReauthMs,
    },
    {
      crypto: new NodeCrypto(),
      random: new CryptoRandom(),
      monotonicMs: () => nowMs,
      scramCredential: () => undefined,
    },
  );
  return { sasl, advance: (ms: number) => (nowMs += ms), now: () => nowMs };
}

test("a session lasts connections.max.reauth.ms and is renewed by re-authenticating", () => {
  const { sasl, advance, now } = session(5000);
  assert.equal(sasl.handshake(1, "PLAIN").errorCode, ErrorCode.NONE);
  const login = sasl.authenticate(plainToken("alice", "alice-secret"));
  assert.equal(login.errorCode, ErrorCode.NONE);
  assert.equal(login.sessionLifetimeMs, 5000);
  advance(4999);
  assert.equal(sasl.hasExpired(now()), false);
  advance(1);
  assert.equal(sasl.hasExpired(now()), true);
  assert.equal(sasl.handshake(1, "PLAIN").errorCode, ErrorCode.NONE);
  assert.equal(sasl.hasExpired(now()), false, "not expired while re-authenticating");
  const renewed = sasl.authenticate(plainToken("alice", "alice-secret"));
  assert.equal(renewed.errorCode, ErrorCode.NONE);
  assert.equal(renewed.sessionLifetimeMs, 5000);
  advance(4999);
  assert.equal(sasl.hasExpired(now()), false, "the lifetime counts from the new login");
  assert.equal(sasl.principal.name, "alice");
});

test("re-authentication may not change the user, and is refused without expiring sessions", () => {
  const expiring = session(5000).sasl;
  expiring.handshake(1, "PLAIN");
  expiring.authenticate(plainToken("alice", "alice-secret"));
  expiring.handshake(1, "PLAIN");
  const other = expiring.authenticate(plainToken("bob", "bob-secret"));
  assert.equal(other.errorCode, ErrorCode.SASL_AUTHENTICATION_FAILED);
  assert.equal(expiring.isFailed, true);

  const lasting = session(0).sasl;
  lasting.handshake(1, "PLAIN");
  assert.equal(lasting.authenticate(plainToken("alice", "alice-secret")).sessionLifetimeMs, 0);
  assert.equal(lasting.hasExpired(Number.MAX_SAFE_INTEGER), false);
  assert.equal(lasting.handshake(1, "PLAIN").errorCode, ErrorCode.ILLEGAL_SASL_STATE);
});
