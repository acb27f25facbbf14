/**
 * The SASL login that follows ApiVersions on a connection to a SASL listener, as Kafka's own
 * client runs it: a v1 SaslHandshake naming the mechanism, then SaslAuthenticate requests
 * carrying the mechanism's tokens (scram-client.ts) until the exchange is done: one for PLAIN,
 * two for SCRAM, whose last answer the client checks as the server's proof.
 */
import type { Crypto, Random } from "../ports/index.js";
import { ApiKey, decodeResponse, encodeRequest } from "../protocol/index.js";
import {
  PlainClientExchange,
  ScramClientExchange,
  type ClientSaslExchange,
} from "./scram-client.js";
import type { ServedVersions } from "./version-negotiation.js";

/** The credentials a connection logs in with. */
export interface SaslCredentials {
  readonly mechanism: "PLAIN" | "SCRAM-SHA-256" | "SCRAM-SHA-512";
  readonly username: string;
  readonly password: string;
}

export type SaslLoginStep =
  | { readonly kind: "send" }
  | { readonly kind: "done" }
  | { readonly kind: "failed"; readonly message: string };

/** What a SCRAM login computes with: hashes and the client nonce's randomness. */
export interface SaslLoginPorts {
  readonly crypto: Crypto | undefined;
  readonly random: Random;
}

/** One connection's login; `request` frames the next request, `receive` reads its answer. */
export class SaslLogin {
  correlationId = -1;
  private phase: "handshake" | "authenticate" = "handshake";
  private readonly authenticateVersion: number;
  private readonly exchange: ClientSaslExchange | string;
  private token: Uint8Array | undefined;

  constructor(
    private readonly credentials: SaslCredentials,
    served: ServedVersions,
    ports: SaslLoginPorts,
  ) {
    this.authenticateVersion = Math.min(served.get(ApiKey.SaslAuthenticate)?.maxVersion ?? 0, 2);
    this.exchange = exchangeOf(credentials, ports);
  }

  /** True when the peer serves what the login needs (SaslHandshake v1, SaslAuthenticate). */
  static isServedBy(served: ServedVersions): boolean {
    const handshake = served.get(ApiKey.SaslHandshake);
    return (
      handshake !== undefined && handshake.maxVersion >= 1 && served.has(ApiKey.SaslAuthenticate)
    );
  }

  request(correlationId: number, clientId: string): Uint8Array[] {
    this.correlationId = correlationId;
    if (this.phase === "handshake") {
      const header = { apiKey: ApiKey.SaslHandshake, apiVersion: 1, correlationId, clientId };
      return encodeRequest(header, { mechanism: this.credentials.mechanism });
    }
    const authBytes = this.token ?? new Uint8Array(0);
    const apiVersion = this.authenticateVersion;
    const header = { apiKey: ApiKey.SaslAuthenticate, apiVersion, correlationId, clientId };
    return encodeRequest(header, { authBytes });
  }

  /** The answer to the last request; a login that cannot run (SCRAM without hashes) fails. */
  receive(frame: Uint8Array): SaslLoginStep {
    const exchange = this.exchange;
    if (typeof exchange === "string") return { kind: "failed", message: exchange };
    if (this.phase === "handshake") {
      const decoded = decodeResponse(frame, ApiKey.SaslHandshake, 1);
      if (decoded.kind !== "response")
        return { kind: "failed", message: "bad SaslHandshake response" };
      const body = decoded.body as { errorCode: number; mechanisms: string[] };
      if (body.errorCode !== 0) {
        const offered = body.mechanisms.join(", ");
        return {
          kind: "failed",
          message: `SaslHandshake error ${body.errorCode} (offers ${offered})`,
        };
      }
      this.phase = "authenticate";
      this.token = exchange.initialToken;
      return { kind: "send" };
    }
    const decoded = decodeResponse(frame, ApiKey.SaslAuthenticate, this.authenticateVersion);
    if (decoded.kind !== "response")
      return { kind: "failed", message: "bad SaslAuthenticate response" };
    const body = decoded.body as {
      errorCode: number;
      errorMessage: string | null;
      authBytes: Uint8Array;
    };
    if (body.errorCode !== 0) {
      return {
        kind: "failed",
        message: `SASL authentication failed: ${body.errorMessage ?? body.errorCode}`,
      };
    }
    const step = exchange.next(body.authBytes);
    if (step.kind !== "send") return step;
    this.token = step.token;
    return { kind: "send" };
  }
}

function exchangeOf(credentials: SaslCredentials, ports: SaslLoginPorts) {
  const { mechanism, username, password } = credentials;
  if (mechanism === "PLAIN") return new PlainClientExchange(username, password);
  if (ports.crypto === undefined) return `${mechanism} needs the Crypto port`;
  const hash = mechanism === "SCRAM-SHA-256" ? "sha256" : "sha512";
  return new ScramClientExchange(hash, username, password, {
    crypto: ports.crypto,
    random: ports.random,
  });
}
