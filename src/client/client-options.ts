/**
 * Settings of the project's client, named after the Kafka client configs they mirror. Every
 * limit has a default; callers pass what their config says (the Raft driver its
 * `controller.quorum.request.timeout.ms`, the command line its own).
 */
import type { Crypto, TlsClientSettings } from "../ports/index.js";
import type { SaslCredentials } from "./sasl-login.js";

/** How the client secures its connections: TLS, and a SASL login after ApiVersions. */
export interface ClientSecurity {
  readonly tls?: TlsClientSettings | undefined;
  readonly sasl?: SaslCredentials | undefined;
  /** Hashes for a SCRAM login; a SCRAM login without them fails. */
  readonly crypto?: Crypto | undefined;
}

export interface ClientOptions {
  /** `request.timeout.ms`: how long a request may wait for its response, queueing included. */
  readonly requestTimeoutMs: number;
  /** `reconnect.backoff.ms`: the wait before the first reconnect after a failure. */
  readonly reconnectBackoffMs: number;
  /** `reconnect.backoff.max.ms`: the longest wait between reconnects, before jitter. */
  readonly reconnectBackoffMaxMs: number;
  /** `max.in.flight.requests.per.connection`: requests written and not yet answered. */
  readonly inFlightRequestsMax: number;
  /** Requests waiting for a connection slot; one more fails with `queueFull`. */
  readonly queuedRequestsMax: number;
  /** The largest response frame accepted, without its size prefix. */
  readonly responseBytesMax: number;
  /** `client.id`: sent in every request header. */
  readonly clientId: string;
  /** Sent in ApiVersions v3+ (KIP-511) so brokers can tell clients apart. */
  readonly softwareName: string;
  readonly softwareVersion: string;
  /** `security.protocol` and its settings; plain TCP without login when unset. */
  readonly security?: ClientSecurity | undefined;
}

/** Kafka's client defaults, with Sluice's name and version as the client software. */
export const DEFAULT_CLIENT_OPTIONS: ClientOptions = {
  requestTimeoutMs: 30_000,
  reconnectBackoffMs: 50,
  reconnectBackoffMaxMs: 1000,
  inFlightRequestsMax: 5,
  queuedRequestsMax: 1000,
  responseBytesMax: 104_857_600,
  clientId: "sluice",
  softwareName: "sluice",
  softwareVersion: "0.1.0",
};

/** `overrides` laid over the defaults. */
export function clientOptions(overrides: Partial<ClientOptions> = {}): ClientOptions {
  return { ...DEFAULT_CLIENT_OPTIONS, ...overrides };
}
