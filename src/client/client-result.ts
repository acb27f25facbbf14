/**
 * The outcome of one request sent by the project's client. Every way a request can end is a
 * value of this union; the client never rejects a promise it hands out.
 */
import type { Address } from "../ports/index.js";
import type { DecodeError, EncodeError } from "../protocol/index.js";

/** Why a connection ended while requests depended on it. */
export type DisconnectReason =
  /** The TCP connect failed (refused, unreachable, timed out). */
  | "connectFailed"
  /** The peer closed the connection or it broke. */
  | "connectionLost"
  /** A response carried a correlation id no request is waiting for. */
  | "unknownCorrelationId"
  /** The response stream did not frame (negative or oversized size prefix). */
  | "badFrame"
  /** The ApiVersions exchange after connecting did not give a usable answer. */
  | "negotiationFailed"
  /** The SASL login after ApiVersions was refused or did not complete. */
  | "authenticationFailed"
  /** Another request on the same connection timed out, and the connection was dropped. */
  | "requestTimedOut"
  /** The owner closed the client. */
  | "clientClosed";

/** A failed request: the caller can retry, give up, or report it. */
export type ClientFailure =
  | { readonly kind: "timeout"; readonly timeoutMs: number }
  | {
      readonly kind: "disconnected";
      readonly reason: DisconnectReason;
      readonly address: Address;
      readonly message: string;
    }
  | {
      readonly kind: "unsupportedVersion";
      readonly apiKey: number;
      /** The versions the caller allowed, intersected with the codec's. */
      readonly allowed: VersionBounds;
      /** What the peer advertised for this API, or undefined when it does not serve it. */
      readonly served: VersionBounds | undefined;
    }
  | { readonly kind: "decodeError"; readonly error: DecodeError }
  /** The body does not fit the version chosen: a bug of the sender, to be logged as one. */
  | {
      readonly kind: "encodeError";
      readonly error: EncodeError;
      readonly apiKey: number;
      readonly apiVersion: number;
    }
  | { readonly kind: "queueFull"; readonly queuedRequestsMax: number }
  | { readonly kind: "unknownNode"; readonly nodeId: number };

/** An inclusive range of API versions. */
export interface VersionBounds {
  readonly minVersion: number;
  readonly maxVersion: number;
}

/** A response that arrived and decoded, with the version it was exchanged at. */
export interface ClientResponse<Body> {
  readonly kind: "response";
  readonly apiVersion: number;
  readonly body: Body;
}

export type ClientResult<Body> = ClientResponse<Body> | ClientFailure;

/** True when `result` is a response (whatever error code its body carries). */
export function isResponse<Body>(result: ClientResult<Body>): result is ClientResponse<Body> {
  return result.kind === "response";
}

/** A one-line account of a failure, for logs and the command line. */
export function describeFailure(failure: ClientFailure): string {
  switch (failure.kind) {
    case "timeout":
      return `no response within ${failure.timeoutMs} ms`;
    case "disconnected":
      return `${failure.address.host}:${failure.address.port}: ${failure.message}`;
    case "unsupportedVersion":
      return describeUnsupported(failure.apiKey, failure.allowed, failure.served);
    case "decodeError":
      return `the response did not decode: ${failure.error.message}`;
    case "encodeError":
      return (
        `the request (API ${failure.apiKey} v${failure.apiVersion}) did not encode: ` +
        failure.error.message
      );
    case "queueFull":
      return `more than ${failure.queuedRequestsMax} requests are waiting for the connection`;
    case "unknownNode":
      return `no address is known for node ${failure.nodeId}`;
  }
}

function describeUnsupported(
  apiKey: number,
  allowed: VersionBounds,
  served: VersionBounds | undefined,
): string {
  const wanted = `versions ${allowed.minVersion}-${allowed.maxVersion} of API ${apiKey}`;
  if (served === undefined) return `the peer does not serve API ${apiKey} (wanted ${wanted})`;
  return `the peer serves ${served.minVersion}-${served.maxVersion}, the client wants ${wanted}`;
}
