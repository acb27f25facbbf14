import { AssertionError, assert, ErrorCode, errorName } from "../../common/index.js";
import type { Logger } from "../../ports/index.js";
import {
  API_VERSIONS_KEY,
  ApiKey,
  ApiVersionsTable,
  answerApiVersions,
  apiDefinition,
  encodeResponse,
  errorResponseFor,
  isEncodeError,
  isVersionInCodec,
  type RequestHeader,
  type SupportedFeature,
} from "../../protocol/index.js";
import { hasTopLevelErrorCode, topLevelErrorResponse } from "./error-response.js";
import {
  ALLOW_EVERYTHING,
  AuthorizerNotReadyError,
  DENY_EVERYTHING,
  type NodeAuthorizer,
  type RequestAuthorization,
} from "../security/request-authorization.js";
import type { ApiHandler, HandlerContext, RequestContext } from "./handler.js";
import { requestBodyOf } from "./request-body.js";
import { encodeOutcome, routeOf, type Route, type RoutedOutcome } from "./route.js";

/**
 * The request-time quota (`request_percentage`): records a request's local time and answers
 * its throttle time, 0 within the quota.
 */
export interface RequestQuota {
  recordRequest(request: Pick<HandlerContext, "header" | "connection">, localMs: number): number;
}

export interface RequestRouterOptions {
  readonly logger: Logger;
  /**
   * Throttles every answered request but Produce and Fetch (whose handlers apply it with their
   * byte rates, as Kafka's do) and WriteTxnMarkers (a broker's own request).
   */
  readonly requestQuota?: RequestQuota;
  /** The features this broker can run (KIP-584), advertised by ApiVersions v3+. */
  readonly supportedFeatures?: readonly SupportedFeature[];
  /** The ACL authorizer (`authorizer.class.name`); without it every request is allowed. */
  readonly authorizer?: NodeAuthorizer | undefined;
}

/** What the connection does for one request, in its turn. */
export type RoutedResponse =
  | {
      readonly kind: "frame";
      readonly chunks: Uint8Array[];
      /** Each error code in the response and how often (Kafka's errorCounts), for metrics. */
      readonly errorCounts?: ReadonlyMap<number, number>;
      /** How long the connection stays muted once this response is on its way (KIP-219). */
      readonly throttleTimeMs?: number;
    }
  | { readonly kind: "none"; readonly throttleTimeMs?: number }
  | { readonly kind: "close"; readonly reason: string };

/**
 * Sends each decoded request to the handler of its API and turns the outcome into response
 * bytes. Registering a handler advertises its version range in the ApiVersions table, so the
 * broker advertises exactly what it serves. A handler that throws (anything but an
 * AssertionError, which ends the process by design) gets UNKNOWN_SERVER_ERROR in a response
 * built like Kafka's getErrorResponse, and the failure is logged; it never stops the node.
 */
export class RequestRouter {
  /** The served versions; the connection layer decodes with its `isSupported`. */
  readonly apiVersions: ApiVersionsTable;
  private readonly routes = new Map<number, Route>();
  private readonly logger: Logger;
  private readonly requestQuota: RequestQuota | undefined;
  private readonly authorizer: NodeAuthorizer | undefined;

  constructor(options: RequestRouterOptions) {
    this.logger = options.logger;
    this.requestQuota = options.requestQuota;
    this.authorizer = options.authorizer;
    this.apiVersions = new ApiVersionsTable(options.supportedFeatures ?? []);
  }

  /** True when a handler serves `apiVersion` of `apiKey`. */
  readonly isSupported = (apiKey: number, apiVersion: number): boolean =>
    this.apiVersions.isSupported(apiKey, apiVersion);

  /**
   * Which request bodies the connection decodes (decodeRequest's `isSupported`): every version
   * the codec defines, served or not, so that a version not advertised can be answered with
   * UNSUPPORTED_VERSION in its API's own response. ApiVersions is the exception: KIP-511
   * answers it at any version not served without reading the body.
   */
  readonly isBodyRead = (apiKey: number, apiVersion: number): boolean =>
    isVersionInCodec(apiKey, apiVersion) &&
    (apiKey !== API_VERSIONS_KEY || this.isSupported(apiKey, apiVersion));

  /**
   * Registers the handler of its API. Each API is registered once; the range must lie within
   * the codec's, and a handler without `errorResponse` must cover only versions whose response
   * has a top-level error code, so that every served request can be answered with an error.
   */
  register<K extends ApiKey>(handler: ApiHandler<K>): void {
    const { apiKey, minVersion, maxVersion } = handler;
    for (let version = minVersion; version <= maxVersion; version++) {
      assert(
        handler.errorResponse !== undefined || hasTopLevelErrorCode(apiKey, version),
        `API ${apiKey} v${version} has no top-level error code: its handler needs errorResponse`,
      );
    }
    this.apiVersions.register({ apiKey, minVersion, maxVersion });
    this.routes.set(apiKey, routeOf(handler));
  }

  /** Runs the handler of a served request and encodes its outcome. */
  async route(context: RequestContext): Promise<RoutedResponse> {
    const { apiKey, apiVersion } = context.header;
    const route = this.routes.get(apiKey);
    assert(route !== undefined, `no handler for API ${apiKey}`);
    assert(this.isSupported(apiKey, apiVersion), "only served versions are routed");
    const { principal, remoteHost } = context.connection;
    const authorization = this.authorizer?.forRequest(principal, remoteHost) ?? ALLOW_EVERYTHING;
    let refusal: number | undefined;
    try {
      refusal = route.authorize(context, authorization);
    } catch (error) {
      if (!(error instanceof AuthorizerNotReadyError)) throw error;
      return this.answerNotReady(route, context);
    }
    if (refusal !== undefined) return this.encodeError(route, context, authorization, refusal);
    let outcome: RoutedOutcome;
    try {
      outcome = await route.handle(context, authorization);
    } catch (error) {
      if (error instanceof AssertionError) throw error;
      if (error instanceof AuthorizerNotReadyError) return this.answerNotReady(route, context);
      this.logFailure("request handler failed", context, error);
      return this.encodeError(route, context, authorization, ErrorCode.UNKNOWN_SERVER_ERROR);
    }
    try {
      return encodeOutcome(context.header, this.withRequestQuota(context, outcome));
    } catch (error) {
      if (!isEncodeError(error)) throw error;
      this.logFailure("a handler's response does not encode", context, error);
      return this.encodeError(route, context, authorization, ErrorCode.UNKNOWN_SERVER_ERROR);
    }
  }

  /**
   * The KIP-511 answer to an ApiVersions request at a version this broker does not serve: a v0
   * body with UNSUPPORTED_VERSION and the served ranges. Without an ApiVersions handler there is
   * nothing to answer with, and the connection is closed.
   */
  answerUnsupportedApiVersions(header: RequestHeader): RoutedResponse {
    assert(header.apiKey === API_VERSIONS_KEY, "not an ApiVersions request");
    if (this.apiVersions.range(API_VERSIONS_KEY) === undefined) {
      return { kind: "close", reason: "ApiVersions is not served" };
    }
    const answer = answerApiVersions({ header, body: undefined }, this.apiVersions);
    const chunks = encodeResponse(answer.header, API_VERSIONS_KEY, answer.apiVersion, answer.body);
    return { kind: "frame", chunks };
  }

  /**
   * The answer to a request at a version this broker does not advertise, whether or not a
   * handler serves other versions of the API. ApiVersions gets the KIP-511 answer. Another API
   * at a version the codec reads (its `body` decoded) gets its error response at the requested
   * version with UNSUPPORTED_VERSION in every error slot (top level, or per topic, partition,
   * resource, as Kafka's getErrorResponse fills it). The connection is closed instead beyond the
   * codec (`body` undefined: its layout is unknown), when the response has no place for an
   * error, and for a Produce with acks=0, whose client reads no response (Kafka closes the
   * connection so that such a producer notices).
   */
  answerUnsupportedVersion(
    header: RequestHeader,
    body: Record<string, unknown> | undefined,
  ): RoutedResponse {
    const { apiKey, apiVersion } = header;
    assert(!this.isSupported(apiKey, apiVersion), "the version is served");
    if (apiKey === API_VERSIONS_KEY) return this.answerUnsupportedApiVersions(header);
    const request = `${apiDefinition(apiKey)?.name ?? apiKey} v${apiVersion}`;
    if (body === undefined) return { kind: "close", reason: `${request} is beyond the codec` };
    if (apiKey === ApiKey.Produce && requestBodyOf(apiKey, { header, body }).acks === 0) {
      return { kind: "close", reason: `${request} with acks=0 is not served` };
    }
    const errorCode = ErrorCode.UNSUPPORTED_VERSION;
    const errorBody = errorResponseFor({ apiKey, apiVersion, body }, errorCode);
    if (errorBody === undefined) {
      return { kind: "close", reason: `${request} is not served and has no error response` };
    }
    try {
      return encodeOutcome(header, { kind: "respond", body: errorBody });
    } catch (error) {
      if (!isEncodeError(error)) throw error;
      return { kind: "close", reason: `${request} is not served: ${error.message}` };
    }
  }

  /**
   * `outcome` throttled by the request-time quota: the larger of its own throttle time and the
   * quota's, in the response's `throttleTimeMs` and for the connection's mute (KIP-219).
   */
  private withRequestQuota(context: RequestContext, outcome: RoutedOutcome): RoutedOutcome {
    const { apiKey } = context.header;
    if (this.requestQuota === undefined || outcome.kind !== "respond") return outcome;
    if (SELF_THROTTLED_API_KEYS.has(apiKey)) return outcome;
    const quotaMs = this.requestQuota.recordRequest(context, context.localMs?.() ?? 0);
    if (quotaMs === 0) return outcome;
    const throttleTimeMs = Math.max(quotaMs, outcome.throttleTimeMs ?? 0);
    const body: object = { ...outcome.body, throttleTimeMs };
    return { ...outcome, body, throttleTimeMs };
  }

  /**
   * A request that needed a decision before the ACLs were loaded: UNKNOWN_SERVER_ERROR, as
   * Kafka answers its AuthorizerNotReadyException, built without allowing anything.
   */
  private answerNotReady(route: Route, context: RequestContext): RoutedResponse {
    const { header, connection } = context;
    this.logger.info("a request came before the authorizer loaded the ACLs", {
      api: apiDefinition(header.apiKey)?.name ?? String(header.apiKey),
      principal: `${connection.principal.principalType}:${connection.principal.name}`,
    });
    return this.encodeError(route, context, DENY_EVERYTHING, ErrorCode.UNKNOWN_SERVER_ERROR);
  }

  /** The error response of `errorCode`; the connection is closed when even that fails. */
  private encodeError(
    route: Route,
    context: RequestContext,
    authorization: RequestAuthorization,
    errorCode: number,
  ): RoutedResponse {
    const { apiKey, apiVersion } = context.header;
    try {
      const body =
        route.errorResponse(context, authorization, errorCode) ??
        topLevelErrorResponse(apiKey, apiVersion, errorCode);
      assert(body !== undefined, "register checked that an error response exists");
      return encodeOutcome(context.header, { kind: "respond", body });
    } catch (error) {
      if (error instanceof AssertionError) throw error;
      this.logFailure("the error response failed too", context, error);
      return { kind: "close", reason: `no ${errorName(errorCode)} response could be built` };
    }
  }

  private logFailure(message: string, context: RequestContext, error: unknown): void {
    const { header, connection } = context;
    this.logger.error(message, {
      connectionId: connection.connectionId,
      api: apiDefinition(header.apiKey)?.name ?? String(header.apiKey),
      apiVersion: header.apiVersion,
      correlationId: header.correlationId,
      clientId: header.clientId,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
}

/**
 * The APIs the router does not throttle for request time: Produce and Fetch apply the quota
 * themselves, and WriteTxnMarkers comes from brokers, which Kafka exempts.
 */
const SELF_THROTTLED_API_KEYS: ReadonlySet<number> = new Set([
  ApiKey.Produce,
  ApiKey.Fetch,
  ApiKey.WriteTxnMarkers,
]);

export { throttleTimeOf } from "./route.js";
