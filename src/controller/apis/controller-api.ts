/**
 * The shape of the controller's API handlers. Each handler turns one decoded request into one
 * controller operation (a write, or a read of the committed image) and knows Kafka's error
 * response of its API (getErrorResponse), which also answers NOT_CONTROLLER. The table entries
 * are shaped like src/broker's ApiHandler without importing it, since src/controller may not
 * import src/broker: `controllerApiHandlers` binds them to one controller for the router.
 */
import type { MetadataImage } from "../../metadata/index.js";
import type { RequestHeader } from "../../protocol/index.js";
import type {
  ControllerOperation,
  ControllerRefusal,
  QuorumControllerSettings,
} from "../quorum/index.js";
import type { WriteContext, WriteResult } from "../quorum/index.js";
import { responseForVersion } from "./version-fit.js";

/** The part of the quorum controller the handlers use. */
export interface ControllerApiHost {
  readonly nodeId: number;
  readonly settings: QuorumControllerSettings;
  readonly committedImage: MetadataImage;
  readonly activeControllerId: number | null;
  submit<Response>(operation: ControllerOperation<Response>): Promise<Response>;
}

/** One request as a handler sees it. */
export interface ControllerApiRequest {
  readonly header: RequestHeader;
  /** The decoded body, in the codec's field names. */
  readonly body: Record<string, unknown>;
  /** The listener the request arrived on (DescribeCluster answers with its endpoints). */
  readonly listenerName: string;
}

/** The handler of one controller API over an inclusive range of versions. */
export interface ControllerApi {
  readonly apiKey: number;
  /** Kafka's name of the API, also the operation's name in metrics. */
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  /** Answers a request through the controller's queue. */
  handle(controller: ControllerApiHost, request: ControllerApiRequest): Promise<object>;
  /** Kafka's error response of this API: `errorCode` wherever the request asked for something. */
  errorResponse(
    request: ControllerApiRequest,
    errorCode: number,
    errorMessage: string | null,
  ): object;
}

/** What every queued API spec states: which API it is and Kafka's error response of it. */
export interface QueuedApiSpec<Request, Response> {
  readonly apiKey: number;
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  errorResponse(
    request: Request,
    version: number,
    errorCode: number,
    errorMessage: string | null,
  ): Response;
}

/** How one write API computes and fails; `Request` is the codec's decoded body type. */
export interface WriteApiSpec<Request, Response> extends QueuedApiSpec<Request, Response> {
  compute(context: WriteContext, request: Request, version: number): WriteResult<Response>;
}

/** A write API: the request becomes one write operation of the queue. */
export function writeApi<Request, Response extends object>(
  spec: WriteApiSpec<Request, Response>,
): ControllerApi {
  return queuedApi(spec, (body, version, refuse) => ({
    kind: "write",
    name: spec.name,
    compute: (context) => spec.compute(context, body, version),
    refuse,
  }));
}

/** How one read API answers from the committed image and fails. */
export interface ReadApiSpec<Request, Response> extends QueuedApiSpec<Request, Response> {
  compute(
    context: { readonly image: MetadataImage; readonly settings: QuorumControllerSettings },
    request: Request,
    version: number,
  ): Response;
}

/** A read API: answered from the committed image once every earlier write has committed. */
export function readApi<Request, Response extends object>(
  spec: ReadApiSpec<Request, Response>,
): ControllerApi {
  return queuedApi(spec, (body, version, refuse) => ({
    kind: "read",
    name: spec.name,
    compute: (context) => spec.compute(context, body, version),
    refuse,
  }));
}

/**
 * The handler that submits the operation `operationOf` makes of each request to the queue and
 * fits the response, or Kafka's error response, to the request's version.
 */
function queuedApi<Request, Response extends object>(
  spec: QueuedApiSpec<Request, Response>,
  operationOf: (
    body: Request,
    version: number,
    refuse: (refusal: ControllerRefusal) => Response,
  ) => ControllerOperation<Response>,
): ControllerApi {
  const { apiKey, name, minVersion, maxVersion } = spec;
  const bodyOf = (request: ControllerApiRequest): Request => request.body as unknown as Request;
  return {
    apiKey,
    name,
    minVersion,
    maxVersion,
    handle: (controller, request) => {
      const body = bodyOf(request);
      const version = request.header.apiVersion;
      const operation = operationOf(body, version, (refusal) =>
        spec.errorResponse(body, version, refusal.errorCode, refusal.errorMessage),
      );
      const answer = controller.submit<Response>(operation);
      return answer.then((response) => responseForVersion(apiKey, version, response));
    },
    errorResponse: (request, errorCode, errorMessage) => {
      const version = request.header.apiVersion;
      const response = spec.errorResponse(bodyOf(request), version, errorCode, errorMessage);
      return responseForVersion(apiKey, version, response);
    },
  };
}
