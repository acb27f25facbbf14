/**
 * The server side of a SCRAM exchange (RFC 5802 section 5), as Kafka's ScramSaslServer runs
 * it: client-first (gs2 header, user, nonce) → server-first (nonce, salt, iterations) →
 * client-final (channel binding, nonce, proof) → server-final (the server signature). States:
 * awaitingClientFirst → awaitingClientFinal → done; any failure ends in done.
 */
import type { Crypto, Random } from "../../ports/index.js";
import {
  decodeSaslName,
  fromBase64,
  hashOf,
  isValidNonce,
  scramAttributes,
  toBase64,
  xor,
  type ScramCredential,
  type ScramMechanism,
} from "./scram.js";
import {
  DIFFERENT_AUTHORIZATION_ID,
  invalidCredentialsMessage,
  type SaslServerExchange,
  type SaslStep,
} from "./sasl-mechanism.js";

/** The credential of `user` for a mechanism, or undefined for a user without one. */
export type ScramCredentialLookup = (user: string) => ScramCredential | undefined;

interface FirstExchange {
  readonly user: string;
  readonly gs2Header: string;
  readonly nonce: string;
  readonly clientFirstBare: string;
  readonly serverFirst: string;
  readonly credential: ScramCredential;
}

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();
const SERVER_NONCE_BYTES = 24;

export class ScramServerExchange implements SaslServerExchange {
  private state:
    | { kind: "awaitingClientFirst" }
    | { kind: "awaitingClientFinal"; first: FirstExchange }
    | { kind: "done" } = {
    kind: "awaitingClientFirst",
  };

  constructor(
    private readonly mechanism: ScramMechanism,
    private readonly lookup: ScramCredentialLookup,
    private readonly ports: { readonly crypto: Crypto; readonly random: Random },
    private readonly isReauthentication: boolean,
  ) {}

  evaluate(token: Uint8Array): SaslStep {
    const state = this.state;
    this.state = { kind: "done" };
    let message: string;
    try {
      message = decoder.decode(token);
    } catch {
      return this.invalid();
    }
    if (state.kind === "awaitingClientFirst") return this.clientFirst(message);
    if (state.kind === "awaitingClientFinal") return this.clientFinal(state.first, message);
    return this.invalid();
  }

  private clientFirst(message: string): SaslStep {
    // gs2-header = gs2-cbind-flag "," [authzid] ","; Kafka refuses channel binding ("p=").
    const match = /^([ny]),(a=[^,]*)?,(.*)$/.exec(message);
    if (match === null) return this.invalid();
    const clientFirstBare = match[3] as string;
    const attributes = scramAttributes(clientFirstBare);
    const encodedUser = attributes?.get("n");
    const nonce = attributes?.get("r");
    if (attributes === undefined || encodedUser === undefined || nonce === undefined) {
      return this.invalid();
    }
    if (!isValidNonce(nonce) || clientFirstBare.startsWith("m=")) return this.invalid();
    const user = decodeSaslName(encodedUser);
    if (user === undefined) return this.invalid();
    // Delegation tokens (extension tokenauth=true) are not served: no credential matches.
    if (attributes.get("tokenauth") === "true") return this.invalid();
    const authorizationId = match[2]?.slice(2);
    if (authorizationId !== undefined && authorizationId !== "") {
      const decoded = decodeSaslName(authorizationId);
      if (decoded !== user) return { kind: "failed", message: DIFFERENT_AUTHORIZATION_ID };
    }
    const credential = this.lookup(user);
    if (credential === undefined) return this.invalid();
    const serverNonce = toBase64(this.ports.random.fill(new Uint8Array(SERVER_NONCE_BYTES)));
    const combinedNonce = nonce + serverNonce;
    const salt = toBase64(credential.salt);
    const serverFirst = `r=${combinedNonce},s=${salt},i=${credential.iterations}`;
    const gs2Header = message.slice(0, message.length - clientFirstBare.length);
    const first = {
      user,
      gs2Header,
      nonce: combinedNonce,
      clientFirstBare,
      serverFirst,
      credential,
    };
    this.state = { kind: "awaitingClientFinal", first };
    return { kind: "challenge", token: encoder.encode(serverFirst) };
  }

  private clientFinal(first: FirstExchange, message: string): SaslStep {
    const proofAt = message.lastIndexOf(",p=");
    if (proofAt < 0) return this.invalid();
    const withoutProof = message.slice(0, proofAt);
    const attributes = scramAttributes(withoutProof);
    const proof = fromBase64(message.slice(proofAt + 3));
    if (attributes === undefined || proof === undefined) return this.invalid();
    if (attributes.get("c") !== toBase64(encoder.encode(first.gs2Header))) return this.invalid();
    // Kafka checks that the nonce ends with the one it sent, not that it equals it: librdkafka
    // up to 2.x repeats its own nonce in front (ScramSaslServer's endsWith check).
    if (!(attributes.get("r") ?? "").endsWith(first.nonce)) return this.invalid();
    const hash = hashOf(this.mechanism);
    const { crypto } = this.ports;
    const authMessage = encoder.encode(
      `${first.clientFirstBare},${first.serverFirst},${withoutProof}`,
    );
    const { storedKey, serverKey } = first.credential;
    if (proof.length !== storedKey.length) return this.invalid();
    const clientSignature = crypto.hmac(hash, storedKey, authMessage);
    const clientKey = xor(proof, clientSignature);
    if (!crypto.equalInConstantTime(crypto.hash(hash, clientKey), storedKey)) {
      return this.invalid();
    }
    const serverSignature = crypto.hmac(hash, serverKey, authMessage);
    const token = encoder.encode(`v=${toBase64(serverSignature)}`);
    return { kind: "complete", token, user: first.user };
  }

  private invalid(): SaslStep {
    return {
      kind: "failed",
      message: invalidCredentialsMessage(this.mechanism, this.isReauthentication),
    };
  }
}
