/**
 * Sluice's HTTP endpoint on node:http: a fixed table of routes (http-server-types.ts), each an
 * exact method and path with a handler that returns status, content type and body, or a stream
 * route whose Server-Sent Events are written as they come (http-event-streams.ts). Request
 * bodies are read up to a bound and dropped (the routes are GETs), every phase has a time
 * limit, and `close` ends event streams and idle keep-alive connections at once and busy ones
 * after their response.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { AssertionError } from "../common/index.js";
import type { Address, Logger } from "../ports/index.js";
import { EventStreams } from "./http-event-streams.js";
import {
  defaults,
  type HttpServerOptions,
  type HttpServerRequest,
  type HttpServerResponse,
  type HttpServerResponseRoute,
  type HttpServerRoute,
  type HttpServerStreamRoute,
  type Limits,
} from "./http-server-types.js";

export type {
  HttpServerOptions,
  HttpServerRequest,
  HttpServerResponse,
  HttpServerResponseRoute,
  HttpServerRoute,
  HttpServerStreamRoute,
} from "./http-server-types.js";

/** A request that could not be served, answered with a plain-text status. */
class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

export class HttpServer {
  private isClosing = false;
  private closed: Promise<void> | undefined;
  private readonly streams: EventStreams;

  private constructor(
    private readonly server: Server,
    private routes: readonly HttpServerRoute[] | undefined,
    private readonly logger: Logger,
    private readonly limits: Limits,
    /** The address listened on, with the real port when 0 was asked for. */
    readonly address: Address,
  ) {
    this.streams = new EventStreams(limits, logger);
  }

  static start(options: HttpServerOptions): Promise<HttpServer> {
    const limits: Limits = { ...defaults, ...definedLimits(options) };
    const server = createServer({
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: 16 * 1024,
    });
    server.maxConnections = limits.connectionsMax;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host: options.host, port: options.port }, () => {
        server.off("error", reject);
        server.on("error", (error) => options.logger.error("http server failed", { error }));
        const bound = server.address();
        const port = typeof bound === "object" && bound !== null ? bound.port : options.port;
        const address = { host: options.host, port };
        const http = new HttpServer(server, options.routes, options.logger, limits, address);
        server.on("request", (request: IncomingMessage, response: ServerResponse) =>
          http.serve(request, response).catch(rethrowOutsidePromise),
        );
        resolve(http);
      });
    });
  }

  /** Starts answering with `routes`, on a server started without any. */
  serveRoutes(routes: readonly HttpServerRoute[]): void {
    if (this.routes !== undefined) throw new Error("the http server already has its routes");
    this.routes = routes;
  }

  /**
   * Stops accepting, closes idle keep-alive connections now and busy ones once their response
   * is written (or after `closeGraceMs`), and resolves when every connection has ended.
   */
  close(): Promise<void> {
    if (this.closed !== undefined) return this.closed;
    this.isClosing = true;
    this.streams.closeAll();
    this.closed = new Promise<void>((resolve) => {
      const cut = setTimeout(() => this.server.closeAllConnections(), this.limits.closeGraceMs);
      this.server.close(() => {
        clearTimeout(cut);
        resolve();
      });
      this.server.closeIdleConnections();
    });
    return this.closed;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? "GET";
    const path = pathOf(request.url);
    try {
      await this.readBody(request);
      const route = this.route(method, path);
      const asked = { method, path, headers: headersOf(request), query: queryOf(request.url) };
      if (route.kind === "stream") {
        const refusal = this.openStream(route, asked, { request, response });
        if (refusal !== undefined) this.write(response, method, refusal);
        return;
      }
      const answer = await this.runHandler(route, asked);
      this.write(response, method, answer);
    } catch (cause) {
      if (cause instanceof Refusal) {
        this.write(response, method, plain(cause.status, cause.message, cause.headers));
        return;
      }
      this.logger.error("http handler failed", { method, path, error: cause });
      this.write(response, method, plain(500, "internal server error"));
      // A broken invariant ends the process (STYLE 3), after the client has its answer.
      if (cause instanceof AssertionError) throw cause;
    }
  }

  /**
   * Reads and drops the body, refusing one larger than the limit. Past the limit the rest is
   * let through unread rather than the request destroyed, which would reset the socket before
   * the 413 is written; the 413 carries `connection: close`, so node closes after it.
   */
  private readBody(request: IncomingMessage): Promise<void> {
    const max = this.limits.requestBodyBytesMax;
    const tooLarge = new Refusal(413, `request body larger than ${max} bytes`, {
      connection: "close",
    });
    return new Promise((resolve, reject) => {
      let received = 0;
      const onData = (chunk: Buffer): void => {
        received += chunk.length;
        if (received <= max) return;
        request.off("data", onData);
        request.resume();
        reject(tooLarge);
      };
      request.once("error", () => reject(new Refusal(400, "request body could not be read")));
      if (Number(request.headers["content-length"] ?? 0) > max) {
        request.resume();
        reject(tooLarge);
        return;
      }
      request.on("data", onData);
      request.once("end", () => resolve());
    });
  }

  private route(method: string, path: string): HttpServerRoute {
    if (this.routes === undefined) {
      throw new Refusal(503, "starting: no routes are served yet", { "retry-after": "1" });
    }
    const onPath = this.routes.filter((route) => route.path === path);
    if (onPath.length === 0) throw new Refusal(404, "not found");
    // HEAD is GET without the body (RFC 9110 9.3.2); node drops the body of a HEAD response.
    const wanted = method === "HEAD" ? "GET" : method;
    const route = onPath.find((candidate) => candidate.method === wanted);
    if (route !== undefined) return route;
    const methods = onPath.flatMap((each) =>
      each.method === "GET" ? ["GET", "HEAD"] : [each.method],
    );
    throw new Refusal(405, "method not allowed", { allow: [...new Set(methods)].join(", ") });
  }

  /** Opens an event stream, or gives the response that refuses it. */
  private openStream(
    route: HttpServerStreamRoute,
    asked: HttpServerRequest,
    exchange: { readonly request: IncomingMessage; readonly response: ServerResponse },
  ): HttpServerResponse | undefined {
    if (asked.method === "HEAD") return plain(200, "an event stream; GET it");
    if (this.isClosing) return plain(503, "closing", { connection: "close" });
    if (this.streams.isFull) {
      return plain(503, "too many event streams open", { "retry-after": "5" });
    }
    const { request, response } = exchange;
    return this.streams.start(request, response, (sink) => route.open(asked, sink));
  }

  private async runHandler(
    route: HttpServerResponseRoute,
    request: HttpServerRequest,
  ): Promise<HttpServerResponse> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeoutMs = this.limits.handlerTimeoutMs;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Refusal(503, "handler timed out")), timeoutMs);
    });
    try {
      return await Promise.race([Promise.resolve().then(() => route.handle(request)), timedOut]);
    } catch (cause) {
      if (cause instanceof Refusal) {
        this.logger.warn("http handler timed out", { path: request.path, timeoutMs });
      }
      throw cause;
    } finally {
      clearTimeout(timer);
    }
  }

  private write(response: ServerResponse, method: string, answer: HttpServerResponse): void {
    if (response.headersSent) return;
    const body = Buffer.from(answer.body, "utf8");
    response.statusCode = answer.status;
    response.setHeader("content-type", answer.contentType);
    response.setHeader("content-length", body.length);
    response.setHeader("cache-control", "no-store");
    response.setHeader("x-content-type-options", "nosniff");
    for (const [name, value] of Object.entries(answer.headers ?? {})) {
      response.setHeader(name, value);
    }
    // Once closing, every response ends its connection so that close() can finish.
    if (this.isClosing) response.setHeader("connection", "close");
    response.end(method === "HEAD" ? undefined : body);
  }
}

function definedLimits(options: HttpServerOptions): Partial<Limits> {
  const entries = Object.entries(options).filter(
    ([key, value]) => key in defaults && value !== undefined,
  );
  return Object.fromEntries(entries) as Partial<Limits>;
}

function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const queryStart = raw.indexOf("?");
  return queryStart === -1 ? raw : raw.slice(0, queryStart);
}

/** The query's parameters, of a repeated name the first. */
function queryOf(url: string | undefined): Record<string, string> {
  const raw = url ?? "/";
  const queryStart = raw.indexOf("?");
  if (queryStart === -1) return {};
  const query = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(raw.slice(queryStart + 1))) {
    if (!query.has(name)) query.set(name, value);
  }
  // fromEntries defines own properties, so a name like __proto__ is only a name.
  return Object.fromEntries(query);
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function plain(
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): HttpServerResponse {
  return { status, contentType: "text/plain; charset=utf-8", body: `${message}\n`, headers };
}

/** What escapes serving (a failed assertion) is thrown outside the promise: the process ends. */
function rethrowOutsidePromise(cause: unknown): void {
  process.nextTick(() => {
    throw cause;
  });
}
