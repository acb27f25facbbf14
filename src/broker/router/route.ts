/**
 * A registered handler as the router keeps it (its API's types bound inside by `routeOf`), and
 * the bytes a handler's outcome stands for, with the throttle time the connection honours.
 */
import { assertNever } from "../../common/index.js";
import { ApiKey, encodeResponse, type RequestHeader } from "../../protocol/index.js";
import type { RequestAuthorization } from "../security/request-authorization.js";
import { refusalOf } from "./authorization-check.js";
import { errorCountsOf } from "./error-counts.js";
import type { ApiHandler, HandlerContext, HandlerOutcome, RequestContext } from "./handler.js";
import { requestBodyOf } from "./request-body.js";
import type { RoutedResponse } from "./request-router.driver.js";

/** What the router keeps of a handler: its API's types stay inside, bound by `routeOf`. */
export interface Route {
  /** The error code that refuses the request (see HandlerAuthorization), or undefined. */
  authorize(context: RequestContext, authorization: RequestAuthorization): number | undefined;
  handle(
    context: RequestContext,
    authorization: RequestAuthorization,
  ): RoutedOutcome | Promise<RoutedOutcome>;
  /** The handler's error response, or undefined when it leaves that to the router. */
  errorResponse(
    context: RequestContext,
    authorization: RequestAuthorization,
    errorCode: number,
  ): object | undefined;
}

/** A handler's outcome once its response type has done its work (the handler is checked). */
export type RoutedOutcome = HandlerOutcome<object>;

/** The route of `handler`: each request's body is given the type of the handler's API. */
export function routeOf<K extends ApiKey>(handler: ApiHandler<K>): Route {
  const contextOf = (
    context: RequestContext,
    authorization: RequestAuthorization,
  ): HandlerContext => {
    const { header, connection, nowMs, requestBytesDone, sasl, remote, requestSizeBytes } = context;
    const { localMs } = context;
    return {
      ...{ header, connection, nowMs, sasl, authorization },
      ...(localMs === undefined ? {} : { localMs }),
      ...(requestBytesDone === undefined ? {} : { requestBytesDone }),
      ...(remote === undefined ? {} : { remote }),
      ...(requestSizeBytes === undefined ? {} : { requestSizeBytes }),
    };
  };
  const { apiKey } = handler;
  return {
    authorize: (context, authorization) => {
      if (!authorization.isEnabled || authorization.isSuperUser) return undefined;
      const declared = handler.authorization;
      return refusalOf(declared, authorization, () => requestBodyOf(apiKey, context));
    },
    handle: (context, authorization) =>
      handler.handle(requestBodyOf(apiKey, context), contextOf(context, authorization)),
    errorResponse: (context, authorization, errorCode) => {
      const request = requestBodyOf(apiKey, context);
      return handler.errorResponse?.(request, contextOf(context, authorization), errorCode).body;
    },
  };
}

/** The bytes (or the absence of bytes) an outcome stands for. Throws EncodeError. */
export function encodeOutcome(header: RequestHeader, outcome: RoutedOutcome): RoutedResponse {
  switch (outcome.kind) {
    case "respond": {
      const { correlationId, apiKey, apiVersion } = header;
      const chunks = encodeResponse({ correlationId }, apiKey, apiVersion, outcome.body);
      const frame = { kind: "frame", chunks, errorCounts: errorCountsOf(outcome.body) } as const;
      return withThrottle(frame, outcome.throttleTimeMs);
    }
    case "noResponse":
      return withThrottle({ kind: "none" }, outcome.throttleTimeMs);
    case "closeConnection":
      return { kind: "close", reason: outcome.reason };
    default:
      return assertNever(outcome, "handler outcome");
  }
}

/** How long the connection stays muted after `response` (KIP-219); 0 for a close. */
export function throttleTimeOf(response: RoutedResponse): number {
  return response.kind === "close" ? 0 : (response.throttleTimeMs ?? 0);
}

function withThrottle<Response extends RoutedResponse>(
  response: Response,
  throttleTimeMs: number | undefined,
): Response {
  return throttleTimeMs === undefined ? response : { ...response, throttleTimeMs };
}
