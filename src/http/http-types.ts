/**
 * The contract between Sluice's HTTP routes and the server adapter that runs them. A response
 * route answers a request with a status, a content type and a body, at once or as a promise; a
 * stream route opens a long-lived `text/event-stream` response (Server-Sent Events) that the
 * adapter writes as the stream sends, ticks at its own interval and closes when the client goes
 * or the server closes. The adapter in src/adapters declares the same shapes; TypeScript matches
 * them by structure, so neither folder imports the other.
 */

/** The request as a route sees it; the adapter has already bounded and read it. */
export interface HttpRequest {
  /** Upper-case method, e.g. "GET". The adapter answers HEAD with the GET route, bodiless. */
  readonly method: string;
  /** The path without the query string, e.g. "/v1/cluster". */
  readonly path: string;
  /** Header names in lower case; repeated headers are joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The query string's parameters, decoded; of a repeated name the first value. */
  readonly query: Readonly<Record<string, string>>;
}

export interface HttpResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** Extra response headers, names in lower case. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A route that answers with one response; the adapter bounds the time `handle` may take. */
export interface HttpResponseRoute {
  readonly kind?: "response";
  readonly method: "GET";
  readonly path: string;
  handle(request: HttpRequest): HttpResponse | Promise<HttpResponse>;
}

/** A response route whose handler answers at once (no I/O: it reads state already in memory). */
export interface HttpImmediateRoute extends HttpResponseRoute {
  handle(request: HttpRequest): HttpResponse;
}

/** Where a stream writes: text already framed as Server-Sent Events (see sse.ts). */
export interface HttpEventSink {
  /** Queues `text` for the client; the adapter ends a client that does not keep up. */
  send(text: string): void;
  /** Ends the response; the adapter then calls the stream's `close`. */
  end(): void;
}

/** One open stream, for as long as its client listens. */
export interface HttpEventStream {
  /** Called by the adapter at its tick interval: the stream may send what changed. */
  tick(): void;
  /** The client went, the sink was ended or the server closes: release what the stream holds. */
  close(): void;
}

/** What opening a stream gives: the stream, or a plain response that refuses it. */
export type HttpStreamOpening =
  | { readonly kind: "open"; readonly stream: HttpEventStream }
  | { readonly kind: "refused"; readonly response: HttpResponse };

/** A route that answers with a `text/event-stream` response, written as `open`'s stream sends. */
export interface HttpStreamRoute {
  readonly kind: "stream";
  readonly method: "GET";
  readonly path: string;
  open(request: HttpRequest, sink: HttpEventSink): HttpStreamOpening;
}

/** One entry of the route table: the exact method and path it serves. */
export type HttpRoute = HttpResponseRoute | HttpStreamRoute;

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A JSON response with `status`; the body is `value` as JSON text with a final line feed. */
export function jsonResponse(status: number, value: unknown): HttpResponse {
  return { status, contentType: JSON_CONTENT_TYPE, body: `${JSON.stringify(value)}\n` };
}
