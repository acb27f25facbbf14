/**
 * A connection from the project's client to one node; this file owns one state machine, the
 * connection's. States:
 *   idle → connecting → negotiating → [authenticating →] ready → idle (the connection ended)
 *   idle → backingOff → connecting (a reconnect after a failure waits its backoff)
 *   any → closed (the owner closed the client; terminal)
 * It connects on demand (with TLS when the options say), negotiates versions with ApiVersions,
 * logs in with SASL when the options say, frames requests, matches
 * responses by correlation id, times requests out, and bounds the requests in flight (the rest
 * queue). When a connection ends, every request waiting on it fails with `disconnected`.
 */
import { assert } from "../common/index.js";
import type { Address, Clock, Connection, Network, Random, Timers } from "../ports/index.js";
import {
  FrameDecoder,
  decodeResponse,
  responseCorrelationId,
  type ApiCodec,
} from "../protocol/index.js";
import type { ClientOptions } from "./client-options.js";
import type { ClientFailure, ClientResult, DisconnectReason } from "./client-result.js";
import { Negotiation, type NegotiationStep } from "./negotiation.js";
import { PendingRequest, type RequestBody, type RequestOptions } from "./pending-request.js";
import { reconnectBackoffMs } from "./reconnect-backoff.js";
import { SaslLogin } from "./sasl-login.js";
import { chooseVersion, type ServedVersions } from "./version-negotiation.js";

export interface ClientPorts {
  readonly network: Network;
  readonly timers: Timers;
  readonly clock: Clock;
  readonly random: Random;
}

/** A live socket and its frame decoder; replaced on every reconnect. */
interface Link {
  readonly connection: Connection;
  readonly decoder: FrameDecoder;
}

type State =
  | { readonly kind: "idle" }
  | { readonly kind: "backingOff" }
  | { readonly kind: "connecting" }
  | { readonly kind: "negotiating"; readonly link: Link; readonly negotiation: Negotiation }
  | {
      readonly kind: "authenticating";
      readonly link: Link;
      readonly served: ServedVersions;
      readonly login: SaslLogin;
    }
  | { readonly kind: "ready"; readonly link: Link; readonly served: ServedVersions }
  | { readonly kind: "closed" };

const CORRELATION_ID_MAX = 0x7fffffff;

/** A client connection to one address; see the file comment for its states. */
export class ClientConnection {
  private state: State = { kind: "idle" };
  private readonly queue: PendingRequest[] = [];
  private readonly inFlight = new Map<number, PendingRequest>();
  private nextCorrelationId = 0;
  private consecutiveFailures = 0;
  private reconnectAtMs = 0;

  constructor(
    readonly address: Address,
    private readonly ports: ClientPorts,
    private readonly options: ClientOptions,
  ) {}

  /** The current state's name, for tests and metrics. */
  get stateName(): State["kind"] {
    return this.state.kind;
  }

  /** Requests waiting for a slot plus requests waiting for a response. */
  get pendingCount(): number {
    return this.queue.length + this.inFlight.size;
  }

  /** Sends a request and resolves to its response or failure; never rejects. */
  send<Request extends object, Response extends object>(
    api: ApiCodec<Request, Response>,
    body: RequestBody<Request>,
    options: RequestOptions = {},
  ): Promise<ClientResult<Response>> {
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs;
    return new Promise((resolve) => {
      const deliver = (result: ClientResult<object>): void =>
        resolve(result as ClientResult<Response>);
      this.enqueue(new PendingRequest(api.apiKey, body, options, timeoutMs, deliver));
    });
  }

  /** Ends the connection for good; every waiting request fails with `clientClosed`. */
  close(): void {
    if (this.state.kind === "closed") return;
    this.endLink("clientClosed", "the client was closed");
    this.state = { kind: "closed" };
  }

  private enqueue(request: PendingRequest): void {
    if (this.state.kind === "closed") {
      request.fail(this.disconnected("clientClosed", "the client was closed"));
      return;
    }
    if (this.queue.length >= this.options.queuedRequestsMax) {
      request.fail({ kind: "queueFull", queuedRequestsMax: this.options.queuedRequestsMax });
      return;
    }
    request.timer = this.ports.timers.schedule(request.timeoutMs, () => this.expire(request));
    this.queue.push(request);
    this.pump();
  }

  /** Moves work forward: starts a connection when needed, writes queued requests when ready. */
  private pump(): void {
    const state = this.state;
    if (state.kind === "idle" && this.queue.length > 0) this.connectAfterBackoff();
    if (state.kind !== "ready") return;
    while (this.inFlight.size < this.options.inFlightRequestsMax && this.queue.length > 0) {
      this.write(state.link, state.served, this.queue.shift() as PendingRequest);
    }
  }

  private connectAfterBackoff(): void {
    const waitMs = this.reconnectAtMs - this.ports.clock.monotonicMs();
    if (waitMs <= 0) {
      this.connect();
      return;
    }
    this.state = { kind: "backingOff" };
    this.ports.timers.schedule(waitMs, () => {
      if (this.state.kind !== "backingOff") return;
      this.state = { kind: "idle" };
      this.pump();
    });
  }

  private connect(): void {
    const attempt: State = { kind: "connecting" };
    this.state = attempt;
    const tls = this.options.security?.tls;
    this.ports.network.connect(this.address, tls === undefined ? undefined : { tls }).then(
      (connection) => this.onConnected(attempt, connection),
      (error: unknown) => this.onConnectFailed(attempt, error),
    );
  }

  private onConnected(attempt: State, connection: Connection): void {
    if (this.state !== attempt) {
      // The client was closed while the connect was under way.
      connection.destroy();
      return;
    }
    const decoder = new FrameDecoder({ frameBytesMax: this.options.responseBytesMax });
    const link: Link = { connection, decoder };
    const negotiation = new Negotiation(this.options);
    this.state = { kind: "negotiating", link, negotiation };
    connection.attach({
      data: (chunk) => this.onData(link, chunk),
      close: (error) => this.onLinkClosed(link, error),
    });
    this.sendNegotiation(link, negotiation);
  }

  private onConnectFailed(attempt: State, error: unknown): void {
    if (this.state !== attempt) return;
    const message = error instanceof Error ? error.message : String(error);
    this.state = { kind: "idle" };
    this.failAll("connectFailed", `connect failed: ${message}`);
    this.noteFailure();
  }

  private sendNegotiation(link: Link, negotiation: Negotiation): void {
    const correlationId = this.takeCorrelationId();
    const { request, timeoutMs } = negotiation.request(correlationId, this.options.clientId);
    const timer = this.ports.timers.schedule(timeoutMs, () => {
      if (this.linkOf(this.state) !== link || this.state.kind !== "negotiating") return;
      this.endLink("negotiationFailed", "no ApiVersions response in time");
    });
    negotiation.timer = timer;
    link.connection.write(request);
  }

  private onData(link: Link, chunk: Uint8Array): void {
    if (this.linkOf(this.state) !== link) return;
    const pushed = link.decoder.push(chunk);
    for (const frame of pushed.frames) {
      if (this.linkOf(this.state) !== link) return;
      this.onFrame(link, frame);
    }
    if (pushed.kind === "failed" && this.linkOf(this.state) === link) {
      this.endLink("badFrame", `unusable response frame: ${pushed.error.kind}`);
    }
  }

  private onFrame(link: Link, frame: Uint8Array): void {
    const correlationId = responseCorrelationId(frame);
    const state = this.state;
    if (state.kind === "negotiating" && correlationId === state.negotiation.correlationId) {
      this.onNegotiationStep(link, state.negotiation.receive(frame));
      return;
    }
    if (state.kind === "authenticating" && correlationId === state.login.correlationId) {
      this.onLoginStep(link, state.served, state.login, frame);
      return;
    }
    const request = correlationId === undefined ? undefined : this.inFlight.get(correlationId);
    if (state.kind !== "ready" || request === undefined || correlationId === undefined) {
      // Kafka's client does the same: a response nobody asked for means the stream is not
      // what we think it is, so nothing more read from it can be trusted.
      this.endLink("unknownCorrelationId", `response with unknown correlation id ${correlationId}`);
      return;
    }
    this.inFlight.delete(correlationId);
    const decoded = decodeResponse(frame, request.apiKey, request.apiVersion);
    if (decoded.kind === "response") {
      request.settle({ kind: "response", apiVersion: request.apiVersion, body: decoded.body });
    } else {
      request.fail({ kind: "decodeError", error: decoded.error });
    }
    this.pump();
  }

  private onNegotiationStep(link: Link, step: NegotiationStep): void {
    const state = this.state;
    assert(state.kind === "negotiating", "a negotiation step needs a negotiating connection");
    state.negotiation.timer?.cancel();
    switch (step.kind) {
      case "retry":
        this.sendNegotiation(link, state.negotiation);
        return;
      case "failed":
        this.endLink("negotiationFailed", step.message);
        return;
      case "ready":
        this.afterNegotiation(link, step.served);
        return;
    }
  }

  /** Logs in when the options ask for SASL, else the connection is ready. */
  private afterNegotiation(link: Link, served: ServedVersions): void {
    const { sasl: credentials, crypto } = this.options.security ?? {};
    if (credentials === undefined) {
      this.becomeReady(link, served);
      return;
    }
    if (!SaslLogin.isServedBy(served)) {
      this.endLink("negotiationFailed", "the peer serves no SaslHandshake v1 and SaslAuthenticate");
      return;
    }
    const login = new SaslLogin(credentials, served, { crypto, random: this.ports.random });
    const state: State = { kind: "authenticating", link, served, login };
    this.state = state;
    this.ports.timers.schedule(this.options.requestTimeoutMs, () => {
      if (this.state === state) this.endLink("authenticationFailed", "no SASL answer in time");
    });
    this.sendLogin(link, login);
  }

  private sendLogin(link: Link, login: SaslLogin): void {
    const request = login.request(this.takeCorrelationId(), this.options.clientId);
    link.connection.write(request);
  }

  private onLoginStep(link: Link, served: ServedVersions, login: SaslLogin, frame: Uint8Array) {
    const step = login.receive(frame);
    if (step.kind === "send") this.sendLogin(link, login);
    else if (step.kind === "failed") this.endLink("authenticationFailed", step.message);
    else this.becomeReady(link, served);
  }

  private becomeReady(link: Link, served: ServedVersions): void {
    this.state = { kind: "ready", link, served };
    this.consecutiveFailures = 0;
    this.pump();
  }

  private write(link: Link, served: ServedVersions, request: PendingRequest): void {
    const choice = chooseVersion(request.apiKey, served, request.options);
    if (choice.kind === "unsupported") {
      const { allowed, served: range } = choice;
      request.fail({ kind: "unsupportedVersion", apiKey: request.apiKey, allowed, served: range });
      return;
    }
    const correlationId = this.takeCorrelationId();
    const header = { correlationId, clientId: this.options.clientId };
    const chunks = request.encode(choice.apiVersion, header);
    if (chunks === undefined) return;
    this.inFlight.set(correlationId, request);
    link.connection.write(chunks);
  }

  private expire(request: PendingRequest): void {
    const wasInFlight = request.state === "inFlight";
    if (!request.fail({ kind: "timeout", timeoutMs: request.timeoutMs })) return;
    const index = this.queue.indexOf(request);
    if (index >= 0) this.queue.splice(index, 1);
    // As Kafka's NetworkClient does, a node that let a written request time out is treated as
    // gone: its late answer would carry a correlation id nobody waits for.
    if (wasInFlight) this.endLink("requestTimedOut", "a request timed out on this connection");
  }

  private onLinkClosed(link: Link, error: Error | undefined): void {
    if (this.linkOf(this.state) !== link) return;
    const detail = error === undefined ? "closed by the peer" : error.message;
    this.endLink("connectionLost", `connection lost: ${detail}`);
  }

  /** Drops the current socket, fails everything waiting, and starts the backoff. */
  private endLink(reason: DisconnectReason, message: string): void {
    const link = this.linkOf(this.state);
    if (this.state.kind !== "closed") this.state = { kind: "idle" };
    link?.connection.destroy();
    this.failAll(reason, message);
    if (reason !== "clientClosed") this.noteFailure();
  }

  private failAll(reason: DisconnectReason, message: string): void {
    const waiting = [...this.inFlight.values(), ...this.queue];
    this.inFlight.clear();
    this.queue.length = 0;
    for (const request of waiting) request.fail(this.disconnected(reason, message));
  }

  private noteFailure(): void {
    this.consecutiveFailures += 1;
    const backoffMs = reconnectBackoffMs(this.options, this.consecutiveFailures, this.ports.random);
    this.reconnectAtMs = this.ports.clock.monotonicMs() + backoffMs;
  }

  private disconnected(reason: DisconnectReason, message: string): ClientFailure {
    return { kind: "disconnected", reason, address: this.address, message };
  }

  private linkOf(state: State): Link | undefined {
    const hasLink =
      state.kind === "negotiating" || state.kind === "authenticating" || state.kind === "ready";
    return hasLink ? state.link : undefined;
  }

  private takeCorrelationId(): number {
    const id = this.nextCorrelationId;
    this.nextCorrelationId = id === CORRELATION_ID_MAX ? 0 : id + 1;
    return id;
  }
}
