import { test } from "node:test";
import assert from "node:assert/strict";
import { NodeCrypto } from "../../src/adapters/index.js";
import type { Random } from "../../src/ports/index.js";
import { ScramServerExchange } from "../../src/broker/index.js";
import {
  fromBase64,
  hashOf,
  scramAttributes,
  scramCredentialOf,
  toBase64,
  xor,
  type ScramMechanism,
} from "../../src/broker/index.js";

const crypto = new NodeCrypto();
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const random: Random = {
  nextUint32: () => 7,
  nextFloat: () => 0.5,
  nextInt: () => 3,
  fill: (target) => target.fill(42),
};

/** The client's side of RFC 5802, written from the RFC's formulas. */
function clientFinal(
  mechanism: ScramMechanism,
  password: string,
  clientFirstBare: string,
  serverFirst: string,
) {
  const attributes = scramAttributes(serverFirst);
  assert.ok(attributes !== undefined);
  const salt = fromBase64(attributes.get("s") ?? "");
  assert.ok(salt !== undefined);
  const hash = hashOf(mechanism);
  const iterations = Number(attributes.get("i"));
  const salted = crypto.pbkdf2(hash, encoder.encode(password), salt, iterations);
  const clientKey = crypto.hmac(hash, salted, encoder.encode("Client Key"));
  const storedKey = crypto.hash(hash, clientKey);
  const withoutProof = `c=biws,r=${attributes.get("r")}`;
  const authMessage = encoder.encode(`${clientFirstBare},${serverFirst},${withoutProof}`);
  const proof = xor(clientKey, crypto.hmac(hash, storedKey, authMessage));
  const serverKey = crypto.hmac(hash, salted, encoder.encode("Server Key"));
  const serverSignature = toBase64(crypto.hmac(hash, serverKey, authMessage));
  return { message: `${withoutProof},p=${toBase64(proof)}`, serverSignature };
}

function exchangeFor(mechanism: ScramMechanism, password: string) {
  const credential = scramCredentialOf(
    crypto,
    mechanism,
    password,
    new Uint8Array(16).fill(1),
    4096,
  );
  const lookup = (user: string) => (user === "alice" ? credential : undefined);
  return new ScramServerExchange(mechanism, lookup, { crypto, random }, false);
}

for (const mechanism of ["SCRAM-SHA-256", "SCRAM-SHA-512"] as const) {
  test(`${mechanism} authenticates the right password and signs the server's final message`, () => {
    const server = exchangeFor(mechanism, "alice-secret");
    const clientFirstBare = "n=alice,r=fyko+d2lbbFgONRv9qkxdawL";
    const first = server.evaluate(encoder.encode(`n,,${clientFirstBare}`));
    assert.equal(first.kind, "challenge");
    const serverFirst = decoder.decode(first.kind === "challenge" ? first.token : undefined);
    assert.match(serverFirst, /^r=fyko\+d2lbbFgONRv9qkxdawL.+,s=AQEBAQEBAQEBAQEBAQEBAQ==,i=4096$/);
    const final = clientFinal(mechanism, "alice-secret", clientFirstBare, serverFirst);
    const done = server.evaluate(encoder.encode(final.message));
    assert.equal(done.kind, "complete");
    if (done.kind !== "complete") return;
    assert.equal(done.user, "alice");
    assert.equal(decoder.decode(done.token), `v=${final.serverSignature}`);
  });

  test(`${mechanism} refuses a wrong password with Kafka's message`, () => {
    const server = exchangeFor(mechanism, "alice-secret");
    const clientFirstBare = "n=alice,r=abcdef";
    const first = server.evaluate(encoder.encode(`n,,${clientFirstBare}`));
    assert.equal(first.kind, "challenge");
    const serverFirst = decoder.decode(first.kind === "challenge" ? first.token : undefined);
    const final = clientFinal(mechanism, "wrong", clientFirstBare, serverFirst);
    assert.deepEqual(server.evaluate(encoder.encode(final.message)), {
      kind: "failed",
      message:
        "Authentication failed during authentication due to invalid credentials with SASL " +
        `mechanism ${mechanism}`,
    });
  });
}

test("SCRAM refuses an unknown user at once, and a nonce the server did not extend", () => {
  const unknown = exchangeFor("SCRAM-SHA-256", "x").evaluate(encoder.encode("n,,n=bob,r=abc"));
  assert.equal(unknown.kind, "failed");
  const server = exchangeFor("SCRAM-SHA-256", "x");
  server.evaluate(encoder.encode("n,,n=alice,r=abc"));
  const replayed = server.evaluate(encoder.encode("c=biws,r=abc,p=AAAA"));
  assert.equal(replayed.kind, "failed");
});

test("RFC 7677's SCRAM-SHA-256 test vector derives the same salted credential", () => {
  // RFC 7677 section 3: user "user", password "pencil", salt W22ZaJ0SNY7soEsUEjb6gQ==, 4096.
  const salt = fromBase64("W22ZaJ0SNY7soEsUEjb6gQ==");
  assert.ok(salt !== undefined);
  const credential = scramCredentialOf(crypto, "SCRAM-SHA-256", "pencil", salt, 4096);
  const server = new ScramServerExchange(
    "SCRAM-SHA-256",
    () => credential,
    { crypto, random: { ...random, fill: (target) => target } },
    false,
  );
  const clientFirstBare = "n=user,r=rOprNGfwEbeRWgbNEkqO";
  const first = server.evaluate(encoder.encode(`n,,${clientFirstBare}`));
  assert.equal(first.kind, "challenge");
  // The RFC's exchange, with the server nonce it chose.
  const serverFirst =
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
  const withoutProof = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  const hash = hashOf("SCRAM-SHA-256");
  const authMessage = encoder.encode(`${clientFirstBare},${serverFirst},${withoutProof}`);
  const signature = crypto.hmac(hash, credential.serverKey, authMessage);
  assert.equal(toBase64(signature), "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
});
