/**
 * The SASL/PLAIN login that follows ApiVersions on a connection to a SASL listener: a v1
 * SaslHandshake naming the mechanism, then one SaslAuthenticate carrying
 * `NUL username NUL password` (RFC 4616), as Kafka's own client sends them.
 */
import { ApiKey, decodeResponse, encodeRequest } from "../protocol/index.js";
import type { ServedVersions } from "./version-negotiation.js";

/** The credentials a connection logs in with. */
export interface SaslCredentials {
  readonly mechanism: "PLAIN";
  readonly username: string;
  readonly password: string;
}

export type SaslLoginStep =
  | { readonly kind: "send" }
  | { readonly kind: "done" }
  | { readonly kind: "failed"; readonly message: string };

const encoder = new TextEncoder();

/** One connection's login; `request` frames the next request, `receive` reads its answer. */
export class SaslLogin {
  correlationId = -1;
  private phase: "handshake" | "authenticate" = "handshake";
  private readonly authenticateVersion: number;

  constructor(
    private readonly credentials: SaslCredentials,
    served: ServedVersions,
  ) {
    this.authenticateVersion = Math.min(served.get(ApiKey.SaslAuthenticate)?.maxVersion ?? 0, 2);
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
    const { username, password } = this.credentials;
    const authBytes = encoder.encode(`\u0000${username}\u0000${password}`);
    const apiVersion = this.authenticateVersion;
    const header = { apiKey: ApiKey.SaslAuthenticate, apiVersion, correlationId, clientId };
    return encodeRequest(header, { authBytes });
  }

  receive(frame: Uint8Array): SaslLoginStep {
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
      return { kind: "send" };
    }
    const decoded = decodeResponse(frame, ApiKey.SaslAuthenticate, this.authenticateVersion);
    if (decoded.kind !== "response")
      return { kind: "failed", message: "bad SaslAuthenticate response" };
    const body = decoded.body as { errorCode: number; errorMessage: string | null };
    if (body.errorCode !== 0) {
      return {
        kind: "failed",
        message: `SASL authentication failed: ${body.errorMessage ?? body.errorCode}`,
      };
    }
    return { kind: "done" };
  }
}
