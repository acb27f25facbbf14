/**
 * One client connection; this file owns one state machine, the connection's: frames in,
 * requests to the router, responses out in request order. States: open → closed (by the
 * broker for a protocol violation, idleness or shutdown, or by the peer). Limits: a frame is at
 * most `socketRequestMaxBytes`; at most `queuedMaxRequestsPerConnection` requests are in
 * flight, of which one Fetch and one of the group coordinator (`serialLaneOf`), and at most
 * `queued.max.requests` over every connection of the server (`QueuedRequests`); frames past
 * either limit wait in a queue holding at most what one read delivered, since reading pauses
 * whenever the queue is not empty. A frame's bytes count against `queued.max.request.bytes`
 * (`RequestMemoryPool`) from its size prefix until it is taken up, or for a Produce until its
 * records are appended; with no memory left, reading pauses before the frame's body. A write
 * refused for back-pressure (responses the peer does not read) mutes the connection: it takes up
 * and reads nothing more until `drain`; so does a response throttled for a quota (KIP-219), for
 * its throttle time.
 */
import { assertNever } from "../../common/index.js";
import type { Clock, Connection, Logger, Timers } from "../../ports/index.js";
import { ApiKey, FrameDecoder, decodeRequest, type RequestHeader } from "../../protocol/index.js";
import type { RequestRouter, RoutedResponse } from "../router/request-router.driver.js";
import type { ConnectionInfo } from "../router/handler.js";
import type { KafkaPrincipal, SaslSession, SecurityProtocol } from "../security/index.js";
import { requestBodyOf } from "../router/request-body.js";
import { ConnectionThrottle } from "./connection-throttle.driver.js";
import type { CloseReason, NetworkMetrics } from "./network-metrics.js";
import type { QueuedRequests, RequestTaker } from "./queued-requests.js";
import type { MemoryWaiter, RequestMemoryPool } from "./request-memory-pool.js";
import {
  apiName,
  clientSoftwareOf,
  describeFrameError,
  describeMalformed,
  type ClientSoftware,
} from "./request-descriptions.js";
import { FrameQueue, apiKeyOf, onceReleasing, serialLaneOf } from "./frame-helpers.js";
import { requestNameOf } from "./request-descriptions.js";
import { RequestTiming } from "./request-timing.js";
import { ResponseSequence } from "./response-sequence.js";
import type { SocketServerConfig } from "./socket-server-config.js";

/** What a connection needs from the server that accepted it. */
export interface ConnectionHost {
  readonly router: RequestRouter;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
  readonly metrics: NetworkMetrics;
  readonly config: SocketServerConfig;
  readonly queuedRequests: QueuedRequests;
  readonly memoryPool: RequestMemoryPool;
  /** Bytes moved on `connection`: it is not idle. */
  touched(connection: BrokerConnection): void;
  /** `connection` closed, by either side; the server forgets it. */
  closed(connection: BrokerConnection): void;
  /** A handler broke an invariant (an AssertionError): the process must end. */
  fatal(error: unknown): void;
}

/**
 * How a connection authenticates: its listener's protocol, the principal it has before any SASL
 * exchange (the certificate's on SSL), and its SASL session on a SASL listener.
 */
export interface ConnectionAuthentication {
  readonly securityProtocol: SecurityProtocol;
  readonly principal: KafkaPrincipal;
  readonly session: SaslSession | undefined;
}

/** A request's answer waiting for its turn. */
interface FinishedRequest {
  readonly apiKey: number;
  readonly startedMs: number;
  readonly timing: RequestTiming;
  readonly response: RoutedResponse;
}

export class BrokerConnection implements RequestTaker, MemoryWaiter {
  readonly connectionId: string;
  private readonly decoder: FrameDecoder;
  private readonly responses = new ResponseSequence<FinishedRequest>();
  private readonly frames = new FrameQueue();
  /** Responses written while the socket's buffer was full: sent once it drains. */
  private sending: { readonly timing: RequestTiming; readonly writtenMs: number }[] = [];
  private state: "open" | "closed" = "open";
  private isPumping = false;
  private isWriteBlocked = false;
  private isReadingPaused = false;
  /** The pool's grant for the frame being received, once its size is known. */
  private partialFrameGrant: number | undefined;
  private isWaitingForMemory = false;
  /** The lanes (`serialLaneOf`) whose one request is taken up and not yet handled. */
  private readonly busyLanes = new Set<string>();
  private clientSoftware: ClientSoftware | undefined;
  private readonly logger: Logger;
  private readonly throttle: ConnectionThrottle;

  constructor(
    private readonly connection: Connection,
    readonly listenerName: string,
    private readonly host: ConnectionHost,
    private readonly authentication: ConnectionAuthentication,
  ) {
    this.connectionId = connection.id;
    this.decoder = new FrameDecoder({ frameBytesMax: host.config.socketRequestMaxBytes });
    this.logger = host.logger.child({ connectionId: connection.id, listener: listenerName });
    this.throttle = new ConnectionThrottle(host, () => this.resumeTakingUp());
  }

  /** True until either side closed the connection. */
  get isOpen(): boolean {
    return this.state === "open";
  }

  /** Requests taken up whose responses are not written yet. */
  get inFlightCount(): number {
    return this.responses.inFlightCount;
  }

  /** Frames received but not yet taken up. */
  get queuedFrameCount(): number {
    return this.frames.size;
  }

  /** The host the peer connected from, as `max.connections.per.ip` counts it. */
  get remoteHost(): string {
    return this.connection.remoteAddress.host;
  }

  resumeTakingUp(): void {
    if (this.state === "open") this.pump();
  }

  memoryAvailable(): void {
    if (this.state !== "open" || !this.isWaitingForMemory) return;
    this.isWaitingForMemory = false;
    this.askForPartialFrame();
    this.updateReading();
  }

  /** Starts receiving. */
  start(): void {
    this.connection.attach({
      data: (chunk) => this.onData(chunk),
      drain: () => this.onDrain(),
      close: (error) => this.onPeerClosed(error),
    });
  }

  /**
   * Closes the connection: `graceful` sends what is queued first, `abort` drops it (a protocol
   * violation, as Kafka's selector closes the channel at once). Requests still in flight are
   * finished by their handlers but their responses are dropped.
   */
  close(reason: CloseReason, detail: string, mode: "graceful" | "abort"): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.dropReceived();
    this.throttle.cancel();
    const fields = { reason, detail, remote: this.remote() };
    if (mode === "abort") this.logger.warn("closing connection", fields);
    else this.logger.info("closing connection", fields);
    this.host.metrics.connectionClosed(reason);
    if (mode === "abort") this.connection.destroy();
    else this.connection.close();
    this.host.closed(this);
  }

  private onData(chunk: Uint8Array): void {
    if (this.state === "closed") return;
    this.host.metrics.bytesIn.inc(chunk.length);
    this.host.touched(this);
    const result = this.decoder.push(chunk);
    // A frame stream that failed cannot be resynchronised; Kafka drops the connection at once.
    if (result.kind === "failed") {
      this.close("badFrame", describeFrameError(result.error), "abort");
      return;
    }
    this.admit(result.frames);
    this.pump();
  }

  /**
   * Queues the frames one read completed and asks the pool for the next frame's size. The first
   * may be the frame the pool granted earlier; the others came whole within this read.
   */
  private admit(frames: readonly Uint8Array[]): void {
    const pool = this.host.memoryPool;
    const arrivedMs = this.host.clock.monotonicMs();
    for (const [index, frame] of frames.entries()) {
      if (index === 0 && this.partialFrameGrant !== undefined) this.partialFrameGrant = undefined;
      else pool.allocateReceived(frame.length);
      this.frames.push(frame, arrivedMs);
    }
    if (frames.length > 0 && this.isWaitingForMemory) {
      this.isWaitingForMemory = false;
      pool.forget(this);
    }
    if (this.partialFrameGrant === undefined && !this.isWaitingForMemory) {
      this.askForPartialFrame();
    }
  }

  /**
   * Asks the pool for the frame whose size prefix is in, or, before the next prefix, whether any
   * memory is left; without, reading waits until the pool calls `memoryAvailable`.
   */
  private askForPartialFrame(): void {
    const pool = this.host.memoryPool;
    const size = this.decoder.partialFrameSize;
    if (size === undefined) this.isWaitingForMemory = !pool.hasMemoryFor(this);
    else if (pool.tryAllocate(size, this)) {
      this.partialFrameGrant = size;
      // Counted bytes are then the bytes held: the frame's buffer, not its chunks and a copy.
      if (pool.isBounded) this.decoder.allocatePartialFrame();
    } else this.isWaitingForMemory = true;
  }

  /** Lets go of every frame received and not taken up, and of the memory they hold. */
  private dropReceived(): void {
    const pool = this.host.memoryPool;
    for (const length of this.frames.drop()) pool.release(length);
    if (this.partialFrameGrant !== undefined) pool.release(this.partialFrameGrant);
    this.partialFrameGrant = undefined;
    this.isWaitingForMemory = false;
    pool.forget(this);
  }

  private onDrain(): void {
    if (this.state === "closed") return;
    this.isWriteBlocked = false;
    const sentMs = this.host.clock.monotonicMs();
    for (const { timing, writtenMs } of this.sending.splice(0)) {
      this.host.metrics.kafka.responseSent(timing, { writtenMs, sentMs });
    }
    this.pump();
  }

  private onPeerClosed(error: Error | undefined): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.dropReceived();
    this.throttle.cancel();
    this.logger.debug("connection closed by peer", { error: error?.message });
    this.host.closed(this);
  }

  /** Takes up queued frames while the limits allow, then pauses or resumes reading. */
  private pump(): void {
    if (this.isPumping) return;
    this.isPumping = true;
    const limit = this.host.config.queuedMaxRequestsPerConnection;
    while (this.isTakingUp() && this.queuedFrameCount > 0) {
      if (this.responses.inFlightCount >= limit) break;
      const frame = this.frames.peek();
      const lane = serialLaneOf(apiKeyOf(frame));
      if (lane !== undefined && this.busyLanes.has(lane)) break;
      const isOnlyRequest = this.responses.inFlightCount === 0;
      if (!this.host.queuedRequests.tryTake(this, isOnlyRequest)) break;
      // Let go of the frame (a view that keeps its chunk alive) as soon as it is taken.
      const { arrivedMs } = this.frames.take();
      const releaseFrame = onceReleasing(this.host.memoryPool, frame.length);
      if (!this.takeUp(frame, releaseFrame, arrivedMs)) {
        this.host.queuedRequests.release();
        releaseFrame();
      }
    }
    this.frames.compact();
    this.isPumping = false;
    this.updateReading();
  }

  private isTakingUp(): boolean {
    return this.state === "open" && !this.isWriteBlocked && !this.throttle.isThrottled;
  }

  private updateReading(): void {
    if (this.state === "closed") return;
    const limit = this.host.config.queuedMaxRequestsPerConnection;
    const shouldPause =
      this.queuedFrameCount > 0 ||
      this.isWriteBlocked ||
      this.throttle.isThrottled ||
      this.isWaitingForMemory ||
      this.responses.inFlightCount >= limit;
    if (shouldPause && !this.isReadingPaused) this.connection.pauseReading();
    if (!shouldPause && this.isReadingPaused) this.connection.resumeReading();
    this.isReadingPaused = shouldPause;
  }

  /**
   * Decodes one frame and starts its request, or closes the connection when it cannot. True
   * when a handler took the request, which then holds its place in the server's queue and
   * calls `releaseFrame` once the frame's bytes are no longer needed.
   */
  private takeUp(frame: Uint8Array, releaseFrame: () => void, arrivedMs: number): boolean {
    const session = this.authentication.session;
    if (session?.expectsRawToken === true) {
      this.answerRawToken(session, frame, arrivedMs);
      return false;
    }
    const decoded = decodeRequest(frame, this.host.router.isBodyRead);
    if (
      decoded.kind !== "malformed" &&
      session !== undefined &&
      !this.isAccepted(session, decoded)
    ) {
      return false;
    }
    switch (decoded.kind) {
      case "request":
        if (decoded.trailingBytes > 0)
          this.noteTrailingBytes(decoded.header, decoded.trailingBytes);
        if (this.host.router.isSupported(decoded.header.apiKey, decoded.header.apiVersion)) {
          this.dispatch(decoded, releaseFrame, { arrivedMs, frameBytes: frame.length });
          return true;
        }
        this.answerUnsupported(decoded.header, decoded.body, arrivedMs);
        return false;
      case "unsupportedVersion":
        this.answerUnsupported(decoded.header, undefined, arrivedMs);
        return false;
      case "unknownApi":
        this.close("unknownApi", `API key ${decoded.apiKey} v${decoded.apiVersion}`, "abort");
        return false;
      case "malformed":
        this.close("malformedRequest", describeMalformed(decoded.header, decoded.error), "abort");
        return false;
      default:
        return assertNever(decoded, "decoded request");
    }
  }

  /**
   * Whether the SASL state lets the request in. Kafka closes a connection that sends anything
   * but ApiVersions and SaslHandshake before authenticating (then only SaslAuthenticate), and one
   * whose session expired (KIP-368) at its next request other than a re-authentication.
   */
  private isAccepted(
    session: SaslSession,
    decoded: { readonly kind: string; readonly apiKey?: number; readonly header?: RequestHeader },
  ): boolean {
    const apiKey = decoded.header?.apiKey ?? decoded.apiKey ?? -1;
    if (!session.accepts(apiKey)) {
      const detail = `${apiName(apiKey)} before SASL authentication completed`;
      this.close("authentication", detail, "abort");
      return false;
    }
    if (apiKey !== ApiKey.SaslHandshake && session.hasExpired(this.host.clock.monotonicMs())) {
      this.close("sessionExpired", "the SASL session expired (connections.max.reauth.ms)", "abort");
      return false;
    }
    return true;
  }

  /**
   * A raw SASL token after a v0 SaslHandshake: the exchange answers with a raw token, size
   * prefixed like a frame, in the connection's response order; a failure closes the
   * connection without an answer, as Kafka does on that path.
   */
  private answerRawToken(session: SaslSession, token: Uint8Array, arrivedMs: number): void {
    const answer = session.authenticate(token.slice());
    if (answer.errorCode !== 0) {
      this.close("authentication", answer.errorMessage ?? "SASL authentication failed", "abort");
      return;
    }
    const size = new Uint8Array(4);
    new DataView(size.buffer).setInt32(0, answer.authBytes.length);
    // A raw token has no header: it is counted as the SaslAuthenticate it stands for.
    const header = {
      apiKey: ApiKey.SaslAuthenticate,
      apiVersion: 0,
      correlationId: -1,
      clientId: null,
      taggedFields: [],
    };
    const opened = this.openSlot(header, undefined, arrivedMs);
    this.finish(opened, { kind: "frame", chunks: [size, answer.authBytes] });
  }

  /** Kafka ignores bytes after a request's body; they are counted and logged at debug. */
  private noteTrailingBytes(header: RequestHeader, trailingBytes: number): void {
    this.host.metrics.trailingBytes(header.apiKey);
    const request = `${apiName(header.apiKey)} v${header.apiVersion}`;
    this.logger.debug("request with bytes after its body", {
      request,
      trailingBytes,
      remote: this.remote(),
    });
  }

  /** A version not served: its UNSUPPORTED_VERSION answer, in its turn, or a close. */
  private answerUnsupported(
    header: RequestHeader,
    body: Record<string, unknown> | undefined,
    arrivedMs: number,
  ) {
    const response = this.host.router.answerUnsupportedVersion(header, body);
    if (response.kind === "close") {
      this.close("unsupportedVersion", response.reason, "abort");
      return;
    }
    const request = `${apiName(header.apiKey)} v${header.apiVersion}`;
    this.logger.info("answered UNSUPPORTED_VERSION", { request, remote: this.remote() });
    this.finish(this.openSlot(header, body, arrivedMs), response);
  }

  private dispatch(
    { header, body }: { readonly header: RequestHeader; readonly body: Record<string, unknown> },
    releaseFrame: () => void,
    { arrivedMs, frameBytes }: { readonly arrivedMs: number; readonly frameBytes: number },
  ): void {
    if (header.apiKey === ApiKey.ApiVersions) {
      const request = requestBodyOf(ApiKey.ApiVersions, { header, body });
      this.clientSoftware = clientSoftwareOf(request) ?? this.clientSoftware;
    }
    const slot = this.openSlot(header, body, arrivedMs);
    this.host.metrics.requestRouted(header.apiKey, header.apiVersion, this.clientSoftware?.name);
    const remote = slot.timing;
    const context = {
      header,
      body,
      connection: this.info(),
      nowMs: this.host.clock.nowMs(),
      sasl: this.authentication.session,
      remote,
      requestSizeBytes: frameBytes,
      localMs: () => remote.localMsSoFar(),
    };
    // Kafka frees a request's buffer once it is parsed, but a Produce's only once handled: its
    // records are views of the frame until they are appended.
    const isHeldUntilAppended = header.apiKey === ApiKey.Produce;
    if (!isHeldUntilAppended) releaseFrame();
    const routed = isHeldUntilAppended ? { ...context, requestBytesDone: releaseFrame } : context;
    const lane = serialLaneOf(header.apiKey);
    if (lane !== undefined) this.busyLanes.add(lane);
    this.host.router.route(routed).then(
      (response) => {
        releaseFrame();
        this.host.queuedRequests.release();
        if (lane !== undefined) this.busyLanes.delete(lane);
        this.finish(slot, response);
        // A request of its lane waiting for this one may go now, before this response is sent.
        if (this.state === "open") this.pump();
      },
      (error: unknown) => this.host.fatal(error),
    );
  }

  private openSlot(
    header: RequestHeader,
    body: Record<string, unknown> | undefined,
    arrivedMs: number,
  ) {
    const { apiKey } = header;
    this.host.metrics.requestStarted(apiKey);
    const startedMs = this.host.clock.monotonicMs();
    const request = requestNameOf(header, body);
    this.host.metrics.kafka.requestTakenUp(request, header.apiVersion);
    const times = { arrivedMs, takenUpMs: startedMs };
    const timing = new RequestTiming(this.host.clock, request, times);
    return { slot: this.responses.open(), apiKey, startedMs, timing };
  }

  private finish(opened: ReturnType<BrokerConnection["openSlot"]>, response: RoutedResponse) {
    if (this.state === "closed") return;
    const { apiKey, startedMs, timing } = opened;
    timing.handled(this.throttle.startAfter(response));
    this.responses.fill(opened.slot, { apiKey, startedMs, timing, response });
    this.flush();
  }

  /** Writes every response whose turn has come. */
  private flush(): void {
    const ready = this.responses.takeReady();
    if (ready.length === 0) return;
    const nowMs = this.host.clock.monotonicMs();
    for (const finished of ready) {
      this.host.metrics.requestFinished(finished.apiKey, nowMs - finished.startedMs);
      const { response, timing } = finished;
      if (response.kind === "close") {
        this.close("handler", response.reason, "graceful");
        return;
      }
      if (response.kind === "frame") {
        this.host.metrics.kafka.responseErrors(timing.request, response.errorCounts ?? new Map());
        this.write(response.chunks);
      }
      // Sent when the socket's buffer took the bytes; if it is full, when it drains.
      if (this.isWriteBlocked) this.sending.push({ timing, writtenMs: nowMs });
      else this.host.metrics.kafka.responseSent(timing, { writtenMs: nowMs, sentMs: nowMs });
      // A refused SASL exchange closes once its answer is written, as Kafka's authenticator does.
      if (this.authentication.session?.isFailed === true) {
        this.close("authentication", "SASL authentication failed", "graceful");
        return;
      }
    }
    this.host.touched(this);
    this.pump();
  }

  private write(chunks: Uint8Array[]): void {
    let bytes = 0;
    for (const chunk of chunks) bytes += chunk.length;
    this.host.metrics.bytesOut.inc(bytes);
    // The bytes are queued either way; false only says to stop producing more until drain.
    if (!this.connection.write(chunks)) this.isWriteBlocked = true;
  }

  private info(): ConnectionInfo {
    return {
      connectionId: this.connectionId,
      listenerName: this.listenerName,
      securityProtocol: this.authentication.securityProtocol,
      principal: this.authentication.session?.principal ?? this.authentication.principal,
      remoteHost: this.connection.remoteAddress.host,
      remotePort: this.connection.remoteAddress.port,
      clientSoftwareName: this.clientSoftware?.name,
      clientSoftwareVersion: this.clientSoftware?.version,
    };
  }

  private remote(): string {
    const { host, port } = this.connection.remoteAddress;
    return `${host}:${port}`;
  }
}
