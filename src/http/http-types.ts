/**
 * The contract between Sluice's HTTP routes and the server adapter that runs them: a request is
 * a method and a path, a response is a status, a content type and a body. The adapter in
 * src/adapters declares the same shapes; TypeScript matches them by structure, so neither folder
 * imports the other.
 */

/** The request as a route sees it; the adapter has already bounded and read it. */
export interface HttpRequest {
  /** Upper-case method, e.g. "GET". The adapter answers HEAD with the GET route, bodiless. */
  readonly method: string;
  /** The path without the query string, e.g. "/v1/cluster". */
  readonly path: string;
  /** Header names in lower case; repeated headers are joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
}

export interface HttpResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** Extra response headers, names in lower case. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One entry of the route table: the exact method and path it serves. */
export interface HttpRoute {
  readonly method: "GET";
  readonly path: string;
  handle(request: HttpRequest): HttpResponse;
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A JSON response with `status`; the body is `value` as JSON text with a final line feed. */
export function jsonResponse(status: number, value: unknown): HttpResponse {
  return { status, contentType: JSON_CONTENT_TYPE, body: `${JSON.stringify(value)}\n` };
}
