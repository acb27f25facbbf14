/**
 * The ApiVersions exchange that opens every client connection: ask at the newest version the
 * codec speaks, step down as KIP-511 says when the peer is older, and end with the table of
 * versions the peer serves.
 */
import type { Timer } from "../ports/index.js";
import { API_VERSIONS_KEY, encodeRequest } from "../protocol/index.js";
import type { ClientOptions } from "./client-options.js";
import {
  apiVersionsMaxVersion,
  decodeApiVersionsResponse,
  interpretApiVersionsResponse,
  type ApiVersionsOutcome,
} from "./version-negotiation.js";

/** What the connection does after an ApiVersions response. */
export type NegotiationStep = ApiVersionsOutcome;

/** One connection's ApiVersions exchange, possibly over several requests. */
export class Negotiation {
  /** The version of the request in flight (or of the next one, after a retry). */
  apiVersion = apiVersionsMaxVersion();
  correlationId = -1;
  /** The timer of the request in flight; the connection cancels it when the answer comes. */
  timer: Timer | undefined;

  constructor(private readonly options: ClientOptions) {}

  /** The next ApiVersions request, framed, and how long to wait for its answer. */
  request(correlationId: number, clientId: string): { request: Uint8Array[]; timeoutMs: number } {
    this.correlationId = correlationId;
    const body =
      this.apiVersion >= 3
        ? {
            clientSoftwareName: this.options.softwareName,
            clientSoftwareVersion: this.options.softwareVersion,
          }
        : {};
    const header = {
      apiKey: API_VERSIONS_KEY,
      apiVersion: this.apiVersion,
      correlationId,
      clientId,
    };
    return { request: encodeRequest(header, body), timeoutMs: this.options.requestTimeoutMs };
  }

  /** Reads the answer to the request in flight and says what comes next. */
  receive(frame: Uint8Array): NegotiationStep {
    const decoded = decodeApiVersionsResponse(frame, this.apiVersion);
    if (decoded.kind === "malformed") {
      return { kind: "failed", message: `ApiVersions response: ${decoded.error.message}` };
    }
    const outcome = interpretApiVersionsResponse(this.apiVersion, decoded.body);
    if (outcome.kind === "retry") this.apiVersion = outcome.apiVersion;
    return outcome;
  }
}
