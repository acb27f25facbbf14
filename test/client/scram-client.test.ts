/**
 * The client side of SCRAM against the server side (src/broker/security) in one process: a
 * login completes and names the user, a wrong password is refused by the server, and a server
 * that does not prove it knows the credential (a wrong signature, a nonce it did not extend)
 * is refused by the client.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { NodeCrypto } from "../../src/adapters/index.js";
import { ScramServerExchange, scramCredentialOf } from "../../src/broker/index.js";
import { ScramClientExchange } from "../../src/client/scram-client.js";
import type { Random } from "../../src/ports/index.js";

const crypto = new NodeCrypto();
const random = (fill: number): Random => ({
  nextUint32: () => 7,
  nextFloat: () => 0.5,
  nextInt: () => 3,
  fill: (target) => target.fill(fill),
});
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function server() {
  const salt = new Uint8Array(16).fill(5);
  const credential = scramCredentialOf(crypto, "SCRAM-SHA-512", "right", salt, 4096);
  const lookup = (user: string) => (user === "ann" ? credential : undefined);
  return new ScramServerExchange("SCRAM-SHA-512", lookup, { crypto, random: random(9) }, false);
}

function client(password: string) {
  return new ScramClientExchange("sha512", "ann", password, { crypto, random: random(1) });
}

test("a SCRAM-SHA-512 client logs in and checks the server's signature", () => {
  const ann = client("right");
  const exchange = server();
  const first = exchange.evaluate(ann.initialToken);
  assert.equal(first.kind, "challenge");
  const proof = ann.next(first.kind === "challenge" ? first.token : new Uint8Array(0));
  assert.equal(proof.kind, "send");
  const final = exchange.evaluate(proof.kind === "send" ? proof.token : new Uint8Array(0));
  assert.equal(final.kind, "complete");
  assert.equal(final.kind === "complete" ? final.user : "", "ann");
  assert.deepEqual(ann.next(final.kind === "complete" ? final.token : new Uint8Array(0)), {
    kind: "done",
  });
});

test("the server refuses a wrong password", () => {
  const ann = client("wrong");
  const exchange = server();
  const first = exchange.evaluate(ann.initialToken);
  const proof = ann.next(first.kind === "challenge" ? first.token : new Uint8Array(0));
  const final = exchange.evaluate(proof.kind === "send" ? proof.token : new Uint8Array(0));
  assert.equal(final.kind, "failed");
});

test("the client refuses a wrong server signature and a nonce the server did not extend", () => {
  const ann = client("right");
  const exchange = server();
  const first = exchange.evaluate(ann.initialToken);
  const serverFirst = first.kind === "challenge" ? first.token : new Uint8Array(0);
  assert.equal(ann.next(serverFirst).kind, "send");
  const forged = encoder.encode(`v=${Buffer.alloc(64, 3).toString("base64")}`);
  assert.equal(ann.next(forged).kind, "failed");
  const other = client("right");
  const text = decoder.decode(serverFirst).replace(/^r=[^,]*/, "r=someone-else");
  assert.equal(other.next(encoder.encode(text)).kind, "failed");
  const few = client("right");
  const weak = decoder.decode(serverFirst).replace(/i=4096$/, "i=1000");
  const refused = few.next(encoder.encode(weak));
  assert.deepEqual(refused, { kind: "failed", message: "SCRAM iterations 1000 below 4096" });
});
