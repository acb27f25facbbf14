/**
 * The shape of the controller's API handlers. Each handler turns one decoded request into one
 * controller operation (a write, or a read of the committed image) and knows Kafka's error
 * response of its API (getErrorResponse), which also answers NOT_CONTROLLER. The table entries
 * are shaped like src/broker's ApiHandler without importing it, since src/controller may not
 * import src/broker: `controllerApiHandlers` binds them to one controller for the router.
 */
import { ErrorCode } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { Crypto } from "../../ports/index.js";
import {
  typedApiCodec,
  type ApiKey,
  type ApiRequest,
  type ApiResponse,
  type MessageInput,
  type RequestHeader,
} from "../../protocol/index.js";
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
  /** Hashes for the APIs that need them; those are not served without. */
  readonly crypto?: Crypto | undefined;
  submit<Response>(operation: ControllerOperation<Response>): Promise<Response>;
}

/** One request as a handler sees it: the body is the request type of API `K`. */
export interface ControllerApiRequest<K extends ApiKey> {
  readonly header: RequestHeader;
  readonly body: ApiRequest<K>;
  /** The listener the request arrived on (DescribeCluster answers with its endpoints). */
  readonly listenerName: string;
}

/** A response of API `K` as the handlers build it: any field left out takes its default. */
export type ControllerApiResponse<K extends ApiKey> = MessageInput<ApiResponse<K>>;

/**
 * The handler of controller API `K` over an inclusive range of versions; `ControllerApi` with
 * no argument is the handler of any one API, as the table lists them.
 */
export interface ControllerApi<K extends ApiKey = ApiKey> {
  readonly apiKey: K;
  /** Kafka's name of the API, also the operation's name in metrics. */
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  /** True when the API is served only by a controller with the Crypto port. */
  readonly needsCrypto?: boolean;
  /** Answers a request through the controller's queue. */
  handle(
    controller: ControllerApiHost,
    request: ControllerApiRequest<K>,
  ): Promise<ControllerApiResponse<K>>;
  /** Kafka's error response of this API: `errorCode` wherever the request asked for something. */
  errorResponse(
    request: ControllerApiRequest<K>,
    errorCode: number,
    errorMessage: string | null,
  ): ControllerApiResponse<K>;
}

/** What every queued API spec states: its versions and Kafka's error response. */
export interface QueuedApiSpec<K extends ApiKey> {
  readonly minVersion: number;
  readonly maxVersion: number;
  /** The API computes with `context.crypto`: it is not served without it. */
  readonly needsCrypto?: boolean;
  errorResponse(
    request: ApiRequest<K>,
    version: number,
    errorCode: number,
    errorMessage: string | null,
  ): ApiResponse<K>;
}

/** How one write API computes and fails. */
export interface WriteApiSpec<K extends ApiKey> extends QueuedApiSpec<K> {
  compute(
    context: WriteContext,
    request: ApiRequest<K>,
    version: number,
  ): WriteResult<ApiResponse<K>>;
  /**
   * True for an operator's or a client's operation (CreateTopics, AlterConfigs, ...), whose
   * records are bounded by MAX_RECORDS_PER_USER_OPERATION; a broker's own requests are not.
   */
  readonly isUserOperation?: boolean;
}

/**
 * The most records one user operation may write, as Kafka's controller bounds them
 * (MAX_RECORDS_PER_USER_OP): more would make one batch too large for the metadata log.
 */
export const MAX_RECORDS_PER_USER_OPERATION = 10_000;

/** Kafka's refusal of an operation over MAX_RECORDS_PER_USER_OPERATION. */
const EXCESSIVE_BATCH_MESSAGE = "Unable to perform excessively large batch operation.";

/** A write API: the request becomes one write operation of the queue. */
export function writeApi<K extends ApiKey>(apiKey: K, spec: WriteApiSpec<K>): ControllerApi<K> {
  return queuedApi(apiKey, spec, (name, body, version, refuse) => ({
    kind: "write",
    name,
    compute: (context) => {
      const result = spec.compute(context, body, version);
      const isTooLarge =
        spec.isUserOperation === true && result.records.length > MAX_RECORDS_PER_USER_OPERATION;
      if (!isTooLarge) return result;
      const errorCode = ErrorCode.POLICY_VIOLATION;
      return {
        records: [],
        response: spec.errorResponse(body, version, errorCode, EXCESSIVE_BATCH_MESSAGE),
      };
    },
    refuse,
  }));
}

/** How one read API answers from the committed image and fails. */
export interface ReadApiSpec<K extends ApiKey> extends QueuedApiSpec<K> {
  compute(
    context: { readonly image: MetadataImage; readonly settings: QuorumControllerSettings },
    request: ApiRequest<K>,
    version: number,
  ): ApiResponse<K>;
}

/** A read API: answered from the committed image once every earlier write has committed. */
export function readApi<K extends ApiKey>(apiKey: K, spec: ReadApiSpec<K>): ControllerApi<K> {
  return queuedApi(apiKey, spec, (name, body, version, refuse) => ({
    kind: "read",
    name,
    compute: (context) => spec.compute(context, body, version),
    refuse,
  }));
}

/**
 * The handler that submits the operation `operationOf` makes of each request to the queue and
 * fits the response, or Kafka's error response, to the request's version.
 */
function queuedApi<K extends ApiKey>(
  apiKey: K,
  spec: QueuedApiSpec<K>,
  operationOf: (
    name: string,
    body: ApiRequest<K>,
    version: number,
    refuse: (refusal: ControllerRefusal) => ApiResponse<K>,
  ) => ControllerOperation<ApiResponse<K>>,
): ControllerApi<K> {
  const { minVersion, maxVersion } = spec;
  const name = typedApiCodec(apiKey).name;
  return {
    apiKey,
    name,
    minVersion,
    maxVersion,
    needsCrypto: spec.needsCrypto === true,
    handle: (controller, request) => {
      const { body } = request;
      const version = request.header.apiVersion;
      const operation = operationOf(name, body, version, (refusal) =>
        spec.errorResponse(body, version, refusal.errorCode, refusal.errorMessage),
      );
      const answer = controller.submit(operation);
      return answer.then((response) => responseForVersion(apiKey, version, response));
    },
    errorResponse: (request, errorCode, errorMessage) => {
      const version = request.header.apiVersion;
      const response = spec.errorResponse(request.body, version, errorCode, errorMessage);
      return responseForVersion(apiKey, version, response);
    },
  };
}
