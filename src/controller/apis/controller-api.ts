/**
 * The shape of the controller's API handlers. Each handler turns one decoded request into one
 * controller operation (a write, or a read of the committed image) and knows Kafka's error
 * response of its API (getErrorResponse), which also answers NOT_CONTROLLER. The table entries
 * are shaped like src/broker's ApiHandler without importing it, since src/controller may not
 * import src/broker: `controllerApiHandlers` binds them to one controller for the router.
 */
import type { MetadataImage } from "../../metadata/index.js";
import type { RequestHeader } from "../../protocol/index.js";
import type { ControllerOperation, QuorumControllerSettings } from "../quorum/index.js";
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

/** How one write API computes and fails; `Request` is the codec's decoded body type. */
export interface WriteApiSpec<Request, Response> {
  readonly apiKey: number;
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  compute(context: WriteContext, request: Request, version: number): WriteResult<Response>;
  errorResponse(
    request: Request,
    version: number,
    errorCode: number,
    errorMessage: string | null,
  ): Response;
}

/** A write API: the request becomes one write operation of the queue. */
export function writeApi<Request, Response extends object>(
  spec: WriteApiSpec<Request, Response>,
): ControllerApi {
  const bodyOf = (request: ControllerApiRequest): Request => request.body as unknown as Request;
  return {
    ...identity(spec),
    handle: (controller, request) => {
      const body = bodyOf(request);
      const version = request.header.apiVersion;
      const answer = controller.submit<Response>({
        kind: "write",
        name: spec.name,
        compute: (context) => spec.compute(context, body, version),
        refuse: (refusal) =>
          spec.errorResponse(body, version, refusal.errorCode, refusal.errorMessage),
      });
      return answer.then((response) => responseForVersion(spec.apiKey, version, response));
    },
    errorResponse: (request, errorCode, errorMessage) => {
      const version = request.header.apiVersion;
      const response = spec.errorResponse(bodyOf(request), version, errorCode, errorMessage);
      return responseForVersion(spec.apiKey, version, response);
    },
  };
}

/** How one read API answers from the committed image and fails. */
export interface ReadApiSpec<Request, Response> {
  readonly apiKey: number;
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  compute(
    context: { readonly image: MetadataImage; readonly settings: QuorumControllerSettings },
    request: Request,
    version: number,
  ): Response;
  errorResponse(
    request: Request,
    version: number,
    errorCode: number,
    errorMessage: string | null,
  ): Response;
}

/** A read API: answered from the committed image once every earlier write has committed. */
export function readApi<Request, Response extends object>(
  spec: ReadApiSpec<Request, Response>,
): ControllerApi {
  const bodyOf = (request: ControllerApiRequest): Request => request.body as unknown as Request;
  return {
    ...identity(spec),
    handle: (controller, request) => {
      const body = bodyOf(request);
      const version = request.header.apiVersion;
      const answer = controller.submit<Response>({
        kind: "read",
        name: spec.name,
        compute: (context) => spec.compute(context, body, version),
        refuse: (refusal) =>
          spec.errorResponse(body, version, refusal.errorCode, refusal.errorMessage),
      });
      return answer.then((response) => responseForVersion(spec.apiKey, version, response));
    },
    errorResponse: (request, errorCode, errorMessage) => {
      const version = request.header.apiVersion;
      const response = spec.errorResponse(bodyOf(request), version, errorCode, errorMessage);
      return responseForVersion(spec.apiKey, version, response);
    },
  };
}

function identity(spec: {
  readonly apiKey: number;
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
}): Pick<ControllerApi, "apiKey" | "name" | "minVersion" | "maxVersion"> {
  const { apiKey, name, minVersion, maxVersion } = spec;
  return { apiKey, name, minVersion, maxVersion };
}
