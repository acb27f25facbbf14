/**
 * The shapes the HTTP server runs (src/http's route contract, declared again here so that
 * neither folder imports the other; TypeScript matches them by structure) and its limits.
 */
import type { Logger } from "../ports/index.js";
import type { EventStreamOpening, HttpServerEventSink } from "./http-event-streams.js";

/** A request as a route handler sees it (the shape src/http's HttpRequest has). */
export interface HttpServerRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
}

/** What a handler answers (the shape src/http's HttpResponse has). */
export interface HttpServerResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One route: an exact method and path (no patterns) and its handler. */
export interface HttpServerResponseRoute {
  readonly kind?: "response";
  readonly method: string;
  readonly path: string;
  handle(request: HttpServerRequest): HttpServerResponse | Promise<HttpServerResponse>;
}

/** A route answered with a `text/event-stream` response (src/http's HttpStreamRoute). */
export interface HttpServerStreamRoute {
  readonly kind: "stream";
  readonly method: string;
  readonly path: string;
  open(
    request: HttpServerRequest,
    sink: HttpServerEventSink,
  ): EventStreamOpening<HttpServerResponse>;
}

export type HttpServerRoute = HttpServerResponseRoute | HttpServerStreamRoute;

export interface HttpServerOptions {
  readonly host: string;
  /** 0 picks a free port; `address` tells which. */
  readonly port: number;
  /**
   * The route table; without it the server binds its port but answers 503 to every request
   * until `serveRoutes` gives it one (a node holds its port while it starts).
   */
  readonly routes?: readonly HttpServerRoute[];
  /** Where handler failures, timeouts and server errors are reported. */
  readonly logger: Logger;
  /** Largest request body read; a larger one gets 413 and the connection closes. 16 KiB. */
  readonly requestBodyBytesMax?: number;
  /** Time to receive a whole request, headers and body. 10 s. */
  readonly requestTimeoutMs?: number;
  /** Time a handler may take before the client gets 503. 10 s. */
  readonly handlerTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. 5 s. */
  readonly keepAliveTimeoutMs?: number;
  /** Connections open at once; node closes any further one as it arrives. 64. */
  readonly connectionsMax?: number;
  /** After `close`, how long busy connections may take to finish before being cut. 5 s. */
  readonly closeGraceMs?: number;
  /** Event streams open at once; one more is answered 503. 16. */
  readonly streamsMax?: number;
  /** How often open event streams are ticked (and sent a comment when idle). 2 s. */
  readonly streamTickMs?: number;
  /** Unsent text an event stream's client may hold before it is ended. 1 MiB. */
  readonly streamBufferBytesMax?: number;
}

export const defaults = {
  requestBodyBytesMax: 16 * 1024,
  requestTimeoutMs: 10_000,
  handlerTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  connectionsMax: 64,
  closeGraceMs: 5_000,
  streamsMax: 16,
  streamTickMs: 2_000,
  streamBufferBytesMax: 1024 * 1024,
} as const;

export type Limits = Required<Omit<HttpServerOptions, "host" | "port" | "routes" | "logger">>;
