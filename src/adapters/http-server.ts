/**
 * Sluice's HTTP endpoint on node:http: a fixed table of routes, each an exact method and path
 * with a handler that returns status, content type and body. Request bodies are read up to a
 * bound and dropped (the routes are GETs), every phase has a time limit, and `close` ends idle
 * keep-alive connections at once and busy ones after their response.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { AssertionError } from "../common/index.js";
import type { Address, Logger } from "../ports/index.js";

/** A request as a route handler sees it (the shape src/http's HttpRequest has). */
export interface HttpServerRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** What a handler answers (the shape src/http's HttpResponse has). */
export interface HttpServerResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One route: an exact method and path (no patterns) and its handler. */
export interface HttpServerRoute {
  readonly method: string;
  readonly path: string;
  handle(request: HttpServerRequest): HttpServerResponse | Promise<HttpServerResponse>;
}

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
}

const defaults = {
  requestBodyBytesMax: 16 * 1024,
  requestTimeoutMs: 10_000,
  handlerTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  connectionsMax: 64,
  closeGraceMs: 5_000,
} as const;

type Limits = Required<Omit<HttpServerOptions, "host" | "port" | "routes" | "logger">>;

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

  private constructor(
    private readonly server: Server,
    private routes: readonly HttpServerRoute[] | undefined,
    private readonly logger: Logger,
    private readonly limits: Limits,
    /** The address listened on, with the real port when 0 was asked for. */
    readonly address: Address,
  ) {}

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
      const answer = await this.runHandler(route, { method, path, headers: headersOf(request) });
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

  private async runHandler(
    route: HttpServerRoute,
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
