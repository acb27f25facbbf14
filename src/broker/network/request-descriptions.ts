import { requestBodyOf } from "../router/request-body.js";
import {
  ApiKey,
  apiDefinition,
  type ApiVersionsRequest,
  type FrameError,
  type RequestHeader,
} from "../../protocol/index.js";

/** Descriptions of requests and their failures for log lines, and KIP-511 client software. */

/** The client software a connection announced in ApiVersions v3+ (KIP-511). */
export interface ClientSoftware {
  readonly name: string;
  readonly version: string;
}

// Kafka's rule for KIP-511 client software names and versions (ApiVersionsRequest.isValid).
const CLIENT_SOFTWARE_PATTERN = /^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$/;

/**
 * The client software of an ApiVersions request, or undefined when absent (before v3 the fields
 * hold their default, "") or invalid.
 */
export function clientSoftwareOf(request: ApiVersionsRequest): ClientSoftware | undefined {
  const { clientSoftwareName: name, clientSoftwareVersion: version } = request;
  if (!CLIENT_SOFTWARE_PATTERN.test(name) || !CLIENT_SOFTWARE_PATTERN.test(version)) {
    return undefined;
  }
  return { name, version };
}

export function apiName(apiKey: number): string {
  return apiDefinition(apiKey)?.name ?? `API ${apiKey}`;
}

/** Why a frame stream failed, for the close log line. */
export function describeFrameError(error: FrameError): string {
  if (error.kind === "negativeSize") return `frame size ${error.size} is negative`;
  return `frame of ${error.size} bytes exceeds socket.request.max.bytes ${error.frameBytesMax}`;
}

/** Why a request did not decode, for the close log line. */
export function describeMalformed(header: RequestHeader | undefined, error: Error): string {
  const where =
    header === undefined ? "request header" : `${apiName(header.apiKey)} v${header.apiVersion}`;
  return `undecodable ${where}: ${error.message}`;
}

/**
 * Kafka's name of a request in its RequestMetrics: the API's name, but a Fetch is FetchFollower
 * when a replica sent it and FetchConsumer otherwise (RequestChannel's metric names).
 */
export function requestNameOf(
  header: RequestHeader,
  body: Record<string, unknown> | undefined,
): string {
  const name = apiDefinition(header.apiKey)?.name ?? String(header.apiKey);
  if (header.apiKey !== ApiKey.Fetch) return name;
  if (body === undefined) return "FetchConsumer";
  const request = requestBodyOf(ApiKey.Fetch, { header, body });
  const replicaId = header.apiVersion >= 15 ? request.replicaState.replicaId : request.replicaId;
  return replicaId >= 0 ? "FetchFollower" : "FetchConsumer";
}
