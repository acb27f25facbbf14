/**
 * The client side of a SASL mechanism's exchange, token by token: PLAIN sends
 * `NUL username NUL password` once (RFC 4616); SCRAM-SHA-256/512 (RFC 5802, RFC 7677) sends the
 * client-first message, answers the server-first message with the client proof, and checks the
 * server's signature in the server-final message, as Kafka's ScramSaslClient does (no channel
 * binding, a nonce the server must extend, at least 4096 iterations). SCRAM states:
 * awaitingServerFirst → awaitingServerFinal → done; a failure ends the exchange.
 */
import type { Crypto, HashAlgorithm, Random } from "../ports/index.js";
import { encodeSaslName, fromBase64, scramAttributes, toBase64, xor } from "../protocol/index.js";

export type ClientSaslStep =
  | { readonly kind: "send"; readonly token: Uint8Array }
  | { readonly kind: "done" }
  | { readonly kind: "failed"; readonly message: string };

/** One mechanism's exchange: the first token, then an answer to each server token. */
export interface ClientSaslExchange {
  readonly initialToken: Uint8Array;
  next(serverToken: Uint8Array): ClientSaslStep;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class PlainClientExchange implements ClientSaslExchange {
  readonly initialToken: Uint8Array;

  constructor(username: string, password: string) {
    this.initialToken = encoder.encode(`\u0000${username}\u0000${password}`);
  }

  next(): ClientSaslStep {
    return { kind: "done" };
  }
}

/** Kafka's lowest iteration count a SCRAM client accepts (ScramMechanism.minIterations). */
const ITERATIONS_MIN = 4096;
const NONCE_BYTES = 24;
/** The gs2 header without channel binding or authorization id, base64 ("n,,"). */
const GS2_HEADER = "n,,";

export class ScramClientExchange implements ClientSaslExchange {
  readonly initialToken: Uint8Array;
  private readonly clientFirstBare: string;
  private readonly nonce: string;
  private state:
    | { kind: "awaitingServerFirst" }
    | { kind: "awaitingServerFinal"; serverSignature: Uint8Array }
    | { kind: "done" } = { kind: "awaitingServerFirst" };

  constructor(
    private readonly hash: HashAlgorithm,
    username: string,
    private readonly password: string,
    private readonly ports: { readonly crypto: Crypto; readonly random: Random },
  ) {
    this.nonce = toBase64(ports.random.fill(new Uint8Array(NONCE_BYTES)));
    this.clientFirstBare = `n=${encodeSaslName(username)},r=${this.nonce}`;
    this.initialToken = encoder.encode(GS2_HEADER + this.clientFirstBare);
  }

  next(serverToken: Uint8Array): ClientSaslStep {
    const state = this.state;
    this.state = { kind: "done" };
    const message = decoder.decode(serverToken);
    if (state.kind === "awaitingServerFirst") return this.serverFirst(message);
    if (state.kind === "awaitingServerFinal") return serverFinal(message, state.serverSignature);
    return { kind: "failed", message: "SCRAM exchange already ended" };
  }

  private serverFirst(serverFirst: string): ClientSaslStep {
    const attributes = scramAttributes(serverFirst);
    const nonce = attributes?.get("r");
    const salt = fromBase64(attributes?.get("s") ?? "");
    const iterations = Number(attributes?.get("i"));
    if (nonce === undefined || salt === undefined || !Number.isSafeInteger(iterations)) {
      return { kind: "failed", message: "invalid SCRAM server-first message" };
    }
    if (!nonce.startsWith(this.nonce) || nonce.length === this.nonce.length) {
      return { kind: "failed", message: "the SCRAM server nonce does not extend the client's" };
    }
    if (iterations < ITERATIONS_MIN) {
      return { kind: "failed", message: `SCRAM iterations ${iterations} below ${ITERATIONS_MIN}` };
    }
    const { crypto } = this.ports;
    const hash = this.hash;
    const salted = crypto.pbkdf2(hash, encoder.encode(this.password), salt, iterations);
    const clientKey = crypto.hmac(hash, salted, encoder.encode("Client Key"));
    const storedKey = crypto.hash(hash, clientKey);
    const withoutProof = `c=${toBase64(encoder.encode(GS2_HEADER))},r=${nonce}`;
    const authMessage = encoder.encode(`${this.clientFirstBare},${serverFirst},${withoutProof}`);
    const proof = xor(clientKey, crypto.hmac(hash, storedKey, authMessage));
    const serverKey = crypto.hmac(hash, salted, encoder.encode("Server Key"));
    const serverSignature = crypto.hmac(hash, serverKey, authMessage);
    this.state = { kind: "awaitingServerFinal", serverSignature };
    return { kind: "send", token: encoder.encode(`${withoutProof},p=${toBase64(proof)}`) };
  }
}

function serverFinal(message: string, expected: Uint8Array): ClientSaslStep {
  const attributes = scramAttributes(message);
  const error = attributes?.get("e");
  if (error !== undefined) return { kind: "failed", message: `SCRAM server error: ${error}` };
  const signature = fromBase64(attributes?.get("v") ?? "");
  const isValid =
    signature !== undefined &&
    signature.length === expected.length &&
    signature.every((byte, index) => byte === expected[index]);
  return isValid ? { kind: "done" } : { kind: "failed", message: "invalid SCRAM server signature" };
}
