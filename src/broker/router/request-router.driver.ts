import { AssertionError, assert, assertNever, ErrorCode, errorName } from "../../common/index.js";
import type { Logger } from "../../ports/index.js";
import {
  API_VERSIONS_KEY,
  ApiVersionsTable,
  answerApiVersions,
  apiDefinition,
  encodeResponse,
  isEncodeError,
  type RequestHeader,
  type SupportedFeature,
} from "../../protocol/index.js";
import { hasTopLevelErrorCode, topLevelErrorResponse } from "./error-response.js";
import type { ApiHandler, HandlerOutcome, RequestContext } from "./handler.js";

/** Options of a RequestRouter. */
export interface RequestRouterOptions {
  readonly logger: Logger;
  /** The features this broker can run (KIP-584), advertised by ApiVersions v3+. */
  readonly supportedFeatures?: readonly SupportedFeature[];
}

/** What the connection does for one request, in its turn. */
export type RoutedResponse =
  | { readonly kind: "frame"; readonly chunks: Uint8Array[] }
  | { readonly kind: "none" }
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
  private readonly handlers = new Map<number, ApiHandler>();
  private readonly logger: Logger;

  constructor(options: RequestRouterOptions) {
    this.logger = options.logger;
    this.apiVersions = new ApiVersionsTable(options.supportedFeatures ?? []);
  }

  /** True when a handler serves `apiVersion` of `apiKey`. */
  readonly isSupported = (apiKey: number, apiVersion: number): boolean =>
    this.apiVersions.isSupported(apiKey, apiVersion);

  /**
   * Registers the handler of `apiKey`. Each API is registered once; the range must lie within
   * the codec's, and a handler without `errorResponse` must cover only versions whose response
   * has a top-level error code, so that every served request can be answered with an error.
   */
  register(apiKey: number, handler: ApiHandler): void {
    for (let version = handler.minVersion; version <= handler.maxVersion; version++) {
      assert(
        handler.errorResponse !== undefined || hasTopLevelErrorCode(apiKey, version),
        `API ${apiKey} v${version} has no top-level error code: its handler needs errorResponse`,
      );
    }
    const { minVersion, maxVersion } = handler;
    this.apiVersions.register({ apiKey, minVersion, maxVersion });
    this.handlers.set(apiKey, handler);
  }

  /** Runs the handler of a served request and encodes its outcome. */
  async route(context: RequestContext): Promise<RoutedResponse> {
    const { apiKey, apiVersion } = context.header;
    const handler = this.handlers.get(apiKey);
    assert(handler !== undefined, `no handler for API ${apiKey}`);
    assert(this.isSupported(apiKey, apiVersion), "only served versions are routed");
    let outcome: HandlerOutcome;
    try {
      outcome = await handler.handle(context);
    } catch (error) {
      if (error instanceof AssertionError) throw error;
      this.logFailure("request handler failed", context, error);
      return this.encodeError(handler, context, ErrorCode.UNKNOWN_SERVER_ERROR);
    }
    try {
      return encodeOutcome(context.header, outcome);
    } catch (error) {
      if (!isEncodeError(error)) throw error;
      this.logFailure("a handler's response does not encode", context, error);
      return this.encodeError(handler, context, ErrorCode.UNKNOWN_SERVER_ERROR);
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

  /** The error response of `errorCode`; the connection is closed when even that fails. */
  private encodeError(
    handler: ApiHandler,
    context: RequestContext,
    errorCode: number,
  ): RoutedResponse {
    const { apiKey, apiVersion } = context.header;
    try {
      const outcome =
        handler.errorResponse?.(context, errorCode) ??
        topLevelErrorResponse(apiKey, apiVersion, errorCode);
      assert(outcome !== undefined, "register checked that an error response exists");
      return encodeOutcome(context.header, outcome);
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

/** The bytes (or the absence of bytes) an outcome stands for. Throws EncodeError. */
function encodeOutcome(header: RequestHeader, outcome: HandlerOutcome): RoutedResponse {
  switch (outcome.kind) {
    case "respond": {
      const { correlationId, apiKey, apiVersion } = header;
      const chunks = encodeResponse({ correlationId }, apiKey, apiVersion, outcome.body);
      return { kind: "frame", chunks };
    }
    case "noResponse":
      return { kind: "none" };
    case "closeConnection":
      return { kind: "close", reason: outcome.reason };
    default:
      return assertNever(outcome, "handler outcome");
  }
}
