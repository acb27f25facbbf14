/**
 * The SASL state of one connection on a SASL_PLAINTEXT or SASL_SSL listener, as Kafka's
 * SaslServerAuthenticator keeps it. States and transitions:
 *   awaitingHandshake --SaslHandshake v1--> awaitingAuthenticate --exchange done--> authenticated
 *   awaitingHandshake --SaslHandshake v0--> awaitingRawToken --exchange done--> authenticated
 *   authenticated --SaslHandshake (KIP-368, when connections.max.reauth.ms > 0)-->
 *     awaitingAuthenticate (re-authentication: the principal must stay the same)
 *   any --refusal--> failed (the connection closes once the answer is written)
 * Before authentication only ApiVersions and SaslHandshake are taken, then only SaslAuthenticate
 * (or raw tokens after a v0 handshake); anything else closes the connection, as Kafka does.
 */
import type { Crypto, Random } from "../../ports/index.js";
import { ErrorCode } from "../../common/index.js";
import { ApiKey } from "../../protocol/index.js";
import { ANONYMOUS_PRINCIPAL, userPrincipal, type KafkaPrincipal } from "./kafka-principal.js";
import { PlainServerExchange } from "./plain-server.js";
import { invalidCredentialsMessage, type SaslServerExchange } from "./sasl-mechanism.js";
import { SCRAM_MECHANISMS, type ScramCredential, type ScramMechanism } from "./scram.js";
import { ScramServerExchange } from "./scram-server.js";

/** How a SASL listener authenticates. */
export interface SaslListenerSettings {
  /** `sasl.enabled.mechanisms` of the listener, in the order it lists them. */
  readonly enabledMechanisms: readonly string[];
  /** The users of the listener's PlainLoginModule (`user_<name>="<password>"`). */
  readonly plainUsers: ReadonlyMap<string, string>;
  /** `connections.max.reauth.ms` of the listener (per mechanism); 0 turns KIP-368 off. */
  readonly maxReauthMs: (mechanism: string) => number;
}

export interface SaslSessionPorts {
  readonly crypto: Crypto;
  readonly random: Random;
  /** Monotonic time in ms, which session expiry (KIP-368) counts in. */
  readonly monotonicMs: () => number;
  /** The SCRAM credential of a user in the current metadata image. */
  readonly scramCredential: (
    mechanism: ScramMechanism,
    user: string,
  ) => ScramCredential | undefined;
}

type State =
  | { readonly kind: "awaitingHandshake" }
  | {
      readonly kind: "awaitingAuthenticate";
      readonly mechanism: string;
      readonly exchange: SaslServerExchange;
    }
  | {
      readonly kind: "awaitingRawToken";
      readonly mechanism: string;
      readonly exchange: SaslServerExchange;
    }
  | { readonly kind: "authenticated"; readonly mechanism: string }
  | { readonly kind: "failed" };

export interface HandshakeAnswer {
  readonly errorCode: number;
  readonly mechanisms: readonly string[];
}

export interface AuthenticateAnswer {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly authBytes: Uint8Array;
  /** KIP-368: how long the session lasts from now; 0 when it does not expire. */
  readonly sessionLifetimeMs: number;
}

const EMPTY = new Uint8Array(0);

export class SaslSession {
  private state: State = { kind: "awaitingHandshake" };
  private authenticatedPrincipal: KafkaPrincipal | undefined;
  /** Monotonic time at which the session expires; undefined while it does not. */
  private expiresAtMs: number | undefined;
  private isReauthenticating = false;

  constructor(
    private readonly settings: SaslListenerSettings,
    private readonly ports: SaslSessionPorts,
  ) {}

  /** ANONYMOUS until the first authentication completes. */
  get principal(): KafkaPrincipal {
    return this.authenticatedPrincipal ?? ANONYMOUS_PRINCIPAL;
  }

  get isFailed(): boolean {
    return this.state.kind === "failed";
  }

  /** True when the next frame is a raw SASL token (after a v0 handshake), not a request. */
  get expectsRawToken(): boolean {
    return this.state.kind === "awaitingRawToken";
  }

  /** When the authenticated session ends (monotonic ms), or undefined for never. */
  get sessionExpiresAtMs(): number | undefined {
    return this.expiresAtMs;
  }

  /** Whether a request of `apiKey` may be taken up in the current state. */
  accepts(apiKey: number): boolean {
    switch (this.state.kind) {
      case "awaitingHandshake":
        return apiKey === ApiKey.ApiVersions || apiKey === ApiKey.SaslHandshake;
      case "awaitingAuthenticate":
        return apiKey === ApiKey.SaslAuthenticate;
      case "authenticated":
        return true;
      case "awaitingRawToken":
      case "failed":
        return false;
    }
  }

  /** A SaslHandshake request at `version` asking for `mechanism`. */
  handshake(version: number, mechanism: string): HandshakeAnswer {
    const mechanisms = this.settings.enabledMechanisms;
    const state = this.state;
    if (state.kind === "authenticated") {
      // KIP-368: a v1 handshake on an authenticated connection starts a re-authentication, with
      // the same mechanism, when the listener lets sessions expire.
      if (version < 1 || this.settings.maxReauthMs(state.mechanism) <= 0) {
        return { errorCode: ErrorCode.ILLEGAL_SASL_STATE, mechanisms };
      }
      if (mechanism !== state.mechanism) {
        this.state = { kind: "failed" };
        return { errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms };
      }
      this.isReauthenticating = true;
    } else if (state.kind !== "awaitingHandshake") {
      this.state = { kind: "failed" };
      return { errorCode: ErrorCode.ILLEGAL_SASL_STATE, mechanisms };
    }
    const exchange = mechanisms.includes(mechanism) ? this.exchangeFor(mechanism) : undefined;
    if (exchange === undefined) {
      this.state = { kind: "failed" };
      return { errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms };
    }
    this.state =
      version === 0
        ? { kind: "awaitingRawToken", mechanism, exchange }
        : { kind: "awaitingAuthenticate", mechanism, exchange };
    return { errorCode: ErrorCode.NONE, mechanisms };
  }

  /** A SaslAuthenticate request's token (or a raw token after a v0 handshake). */
  authenticate(token: Uint8Array): AuthenticateAnswer {
    const state = this.state;
    if (state.kind === "authenticated") {
      return failure(
        ErrorCode.ILLEGAL_SASL_STATE,
        "SaslAuthenticate request received after successful authentication",
      );
    }
    if (state.kind !== "awaitingAuthenticate" && state.kind !== "awaitingRawToken") {
      this.state = { kind: "failed" };
      return failure(ErrorCode.ILLEGAL_SASL_STATE, "Unexpected SaslAuthenticate request");
    }
    const step = state.exchange.evaluate(token);
    if (step.kind === "challenge") {
      return {
        errorCode: ErrorCode.NONE,
        errorMessage: null,
        authBytes: step.token,
        sessionLifetimeMs: 0,
      };
    }
    if (step.kind === "failed") {
      this.state = { kind: "failed" };
      return failure(ErrorCode.SASL_AUTHENTICATION_FAILED, step.message);
    }
    const principal = userPrincipal(step.user);
    if (this.isReauthenticating && principal.name !== this.principal.name) {
      // KIP-368: re-authentication may not change who the connection is.
      this.state = { kind: "failed" };
      const message = invalidCredentialsMessage(state.mechanism, true);
      return failure(ErrorCode.SASL_AUTHENTICATION_FAILED, message);
    }
    this.authenticatedPrincipal = principal;
    this.isReauthenticating = false;
    this.state = { kind: "authenticated", mechanism: state.mechanism };
    const lifetimeMs = this.settings.maxReauthMs(state.mechanism);
    this.expiresAtMs = lifetimeMs > 0 ? this.ports.monotonicMs() + lifetimeMs : undefined;
    return {
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      authBytes: step.token,
      sessionLifetimeMs: Math.max(0, lifetimeMs),
    };
  }

  /** True when the authenticated session has expired at `nowMs` (monotonic). */
  hasExpired(nowMs: number): boolean {
    return this.expiresAtMs !== undefined && nowMs >= this.expiresAtMs && !this.isReauthenticating;
  }

  private exchangeFor(mechanism: string): SaslServerExchange | undefined {
    const reauthenticating = this.isReauthenticating;
    if (mechanism === "PLAIN") {
      return new PlainServerExchange(this.settings.plainUsers, this.ports.crypto, reauthenticating);
    }
    const scram = SCRAM_MECHANISMS.find((candidate) => candidate === mechanism);
    if (scram === undefined) return undefined;
    const lookup = (user: string): ScramCredential | undefined =>
      this.ports.scramCredential(scram, user);
    return new ScramServerExchange(scram, lookup, this.ports, reauthenticating);
  }
}

function failure(errorCode: number, errorMessage: string): AuthenticateAnswer {
  return { errorCode, errorMessage, authBytes: EMPTY, sessionLifetimeMs: 0 };
}
