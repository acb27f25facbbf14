import type {
  ApiKey,
  ApiRequest,
  ApiResponse,
  MessageInput,
  RequestHeader,
} from "../../protocol/index.js";
import type { RequestAuthorization } from "../security/request-authorization.js";
import {
  ANONYMOUS_PRINCIPAL,
  type KafkaPrincipal,
  type SaslSession,
  type SecurityProtocol,
} from "../security/index.js";

/**
 * What an API handler sees and returns. A handler is plain code when it can answer at once, and
 * async only when it waits on something (the purgatory, the controller); such handlers live in
 * `*.driver.ts` files.
 */

export { ANONYMOUS_PRINCIPAL, type KafkaPrincipal, type SecurityProtocol };

/** Facts about the connection a request arrived on, as of that request. */
export interface ConnectionInfo {
  /** Unique among the node's open connections; names the connection in logs. */
  readonly connectionId: string;
  readonly listenerName: string;
  readonly securityProtocol: SecurityProtocol;
  /**
   * Who sent the request: the SASL user once the connection authenticated, the mapped
   * certificate subject on SSL, ANONYMOUS otherwise. Authorization reads it here.
   */
  readonly principal: KafkaPrincipal;
  readonly remoteHost: string;
  readonly remotePort: number;
  /** From the connection's last valid ApiVersions request (KIP-511), when it sent one. */
  readonly clientSoftwareName: string | undefined;
  readonly clientSoftwareVersion: string | undefined;
}

/** What a handler sees besides its request: the header and where the request came from. */
export interface HandlerContext {
  readonly header: RequestHeader;
  readonly connection: ConnectionInfo;
  /** Wall-clock time when the request was taken up (record timestamps, log lines). */
  readonly nowMs: number;
  /**
   * Says the request's bytes are no longer needed (a Produce's records are appended), so that
   * `queued.max.request.bytes` counts them no more; they are released with the response anyway.
   */
  readonly requestBytesDone?: () => void;
  /** The connection's SASL state on a SASL listener; SaslHandshake and SaslAuthenticate use it. */
  readonly sasl?: SaslSession | undefined;
  /** Counts what the handler waits for elsewhere (Kafka's RemoteTimeMs), when it is measured. */
  readonly remote?: RemoteWait;
  /**
   * The request's size in bytes, header and body without the size prefix (Kafka's
   * request.sizeInBytes), which the produce byte-rate quota counts.
   */
  readonly requestSizeBytes?: number;
  /**
   * The request's time on this node so far, in ms (Kafka's LocalTimeMs: since it was taken up,
   * without what it waited for elsewhere), which the request-time quota counts.
   */
  readonly localMs?: () => number;
  /** The authorizer's answers for this request's principal and host. */
  readonly authorization: RequestAuthorization;
}

/** Where a handler waits on others: the purgatory, the controller. */
export interface RemoteWait {
  /** Resolves as `promise` does, counting the time as the request's remote time. */
  wait<T>(promise: Promise<T>): Promise<T>;
}

/**
 * One decoded request as the connection hands it to the router. The body is untyped here; the
 * router gives it the request type of its API before any handler sees it.
 */
export interface RequestContext extends Omit<HandlerContext, "authorization"> {
  /** The body as the codec of `header.apiKey` decoded it, in the codec's field names. */
  readonly body: Record<string, unknown>;
}

/**
 * What a handler decided:
 * - `respond`: send `body` as the response (encoded at the request's version);
 * - `noResponse`: send nothing (a Produce with acks=0); later responses are not held back;
 * - either may carry a throttle time (`throttled`), for which the connection is then muted;
 * - `closeConnection`: close the connection once every earlier response is written, as Kafka
 *   does when an acks=0 Produce fails, so that the producer notices.
 */
export type HandlerOutcome<Response extends object> =
  Respond<Response> | NoResponse | CloseConnection;

type Respond<Response extends object> = {
  readonly kind: "respond";
  readonly body: MessageInput<Response>;
  readonly throttleTimeMs?: number;
};
type NoResponse = { readonly kind: "noResponse"; readonly throttleTimeMs?: number };
type CloseConnection = { readonly kind: "closeConnection"; readonly reason: string };

/**
 * The outcome that sends `body`. Its type is the response type of the place the outcome goes
 * to (a handler's return type); elsewhere name it, as in `respond<ProduceResponse>(body)`.
 */
export function respond<Response extends object = never>(
  body: MessageInput<NoInfer<Response>>,
): Respond<Response> {
  return { kind: "respond", body };
}

export const NO_RESPONSE: NoResponse = Object.freeze({ kind: "noResponse" });

/**
 * `outcome`, after which the connection takes up no request for `throttleTimeMs` (KIP-219):
 * the response goes out at once, carrying the throttle time, and the connection is muted for
 * that long, as Kafka mutes a throttled client's channel. 0 leaves the outcome as it is.
 */
export function throttled<Outcome extends Respond<object> | NoResponse>(
  outcome: Outcome,
  throttleTimeMs: number,
): Outcome {
  return throttleTimeMs > 0 ? { ...outcome, throttleTimeMs } : outcome;
}

/** The outcome that closes the connection, logging `reason`. */
export function closeConnection(reason: string): CloseConnection {
  return { kind: "closeConnection", reason };
}

/**
 * What the router checks before a handler runs, when an authorizer is configured:
 * - `none`: nothing (ApiVersions and the SASL exchange, which come before a principal exists);
 * - `cluster`: the principal may do `operation` on the cluster, else the API's error response
 *   with CLUSTER_AUTHORIZATION_FAILED (Kafka's authorizeClusterOperation);
 * - `resource`: the principal may do `operation` on the one resource the request names (a
 *   JoinGroup's group), else the API's error response with `errorCode`;
 * - `handler`: the handler checks each resource itself, as Kafka's KafkaApis does.
 * A handler that declares nothing is served to super users only: an API whose checks are not
 * written refuses everyone else rather than allowing them.
 */
export type HandlerAuthorization<K extends ApiKey = ApiKey> =
  | { readonly kind: "none" }
  | { readonly kind: "cluster"; readonly operation: number }
  | {
      readonly kind: "resource";
      readonly operation: number;
      readonly resourceType: number;
      resourceName(request: ApiRequest<K>): string;
      readonly errorCode: number;
    }
  | { readonly kind: "handler" };

/**
 * How one API is served over an inclusive range of versions; registering it advertises exactly
 * that range in ApiVersions.
 */
export interface HandlerSpec<K extends ApiKey> {
  readonly minVersion: number;
  readonly maxVersion: number;
  /** What the router checks before `handle`; undeclared: super users only. */
  readonly authorization?: HandlerAuthorization<K>;
  /**
   * Answers a request. The router calls handlers in request order, each as soon as its request
   * is taken up; the part before a handler's first `await` runs before the next request of the
   * connection is dispatched, so order-sensitive work (appends) belongs there.
   */
  handle(
    request: ApiRequest<K>,
    context: HandlerContext,
  ): HandlerOutcome<ApiResponse<K>> | Promise<HandlerOutcome<ApiResponse<K>>>;
  /**
   * Kafka's `AbstractRequest.getErrorResponse`: the response carrying `errorCode` everywhere
   * the request asked for something (top level, or per topic and partition). Optional only when
   * every version in the range has a top-level `errorCode` in its response, in which case the
   * router fills that field.
   */
  errorResponse?(
    request: ApiRequest<K>,
    context: HandlerContext,
    errorCode: number,
  ): Respond<ApiResponse<K>>;
}

/** The handler of API `K`: it takes that API's request type and answers its response type. */
export interface ApiHandler<K extends ApiKey> extends HandlerSpec<K> {
  readonly apiKey: K;
}

/** Declares the handler of `apiKey`; `spec` is typed by that API's request and response. */
export function defineHandler<K extends ApiKey>(apiKey: K, spec: HandlerSpec<K>): ApiHandler<K> {
  return { ...spec, apiKey };
}
