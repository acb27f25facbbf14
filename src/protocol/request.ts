import { assert } from "../common/index.js";
import { ByteReader } from "./codec/reader.js";
import { ByteWriter } from "./codec/writer.js";
import { DecodeError, isDecodeError } from "./codec/decode-error.js";
import { encodeFrame } from "./framing.js";
import {
  decodeRequestHeader,
  decodeResponseHeader,
  encodeRequestHeader,
  encodeResponseHeader,
  requestHeaderVersion,
  responseHeaderVersion,
} from "./headers.js";
import type {
  RawTaggedField,
  RequestHeader,
  RequestHeaderVersion,
  ResponseHeader,
} from "./headers.js";
import {
  apiDefinition,
  decodeRequestBodyPrefix,
  decodeResponseBody,
  encodeRequestBody,
  encodeResponseBody,
} from "./messages/index.js";

/**
 * Whole request and response frames (the bytes after the size prefix): header plus body. Decoding
 * a request never throws for any input; every outcome is a value the connection handler acts on.
 */

const API_VERSIONS_KEY = 18;
/** apiKey, apiVersion and correlationId: the part every request header version shares. */
const HEADER_PREFIX_BYTES = 8;

/**
 * What a request frame turned out to be.
 * - `request`: a header and a body, ready for the handler.
 * - `unsupportedVersion`: a known API at a version not served; the broker answers
 *   UNSUPPORTED_VERSION (for ApiVersions, the KIP-511 v0 answer). The body is not read.
 * - `unknownApi`: an API key the codec has no schema for; the broker closes the connection.
 * - `malformed`: bytes that do not decode; the broker closes the connection.
 */
export type DecodedRequest =
  | {
      readonly kind: "request";
      readonly headerVersion: RequestHeaderVersion;
      readonly header: RequestHeader;
      readonly body: Record<string, unknown>;
      /**
       * Bytes after the body, which Kafka ignores as it parses a request and this decoder
       * ignores too: librdkafka 2.x sends an all-topics Metadata v12 with 3 such bytes.
       */
      readonly trailingBytes: number;
    }
  | {
      readonly kind: "unsupportedVersion";
      readonly headerVersion: RequestHeaderVersion;
      readonly header: RequestHeader;
    }
  | {
      readonly kind: "unknownApi";
      readonly apiKey: number;
      readonly apiVersion: number;
      readonly correlationId: number;
    }
  | {
      readonly kind: "malformed";
      readonly error: DecodeError;
      /** The header, when it decoded and only the body did not. */
      readonly header: RequestHeader | undefined;
    };

/** Decides which (apiKey, apiVersion) pairs are served; the default is the codec's range. */
export type VersionSupport = (apiKey: number, apiVersion: number) => boolean;

export function isVersionInCodec(apiKey: number, apiVersion: number): boolean {
  const definition = apiDefinition(apiKey);
  if (definition === undefined) return false;
  return apiVersion >= definition.minVersion && apiVersion <= definition.maxVersion;
}

/**
 * Decodes one request frame. Never throws for any bytes: each failure is a `DecodedRequest` that
 * says what the broker must do. `isSupported` narrows the versions served below the codec's range
 * (pass the ApiVersions table's check); it must only accept versions the codec defines.
 */
export function decodeRequest(
  frame: Uint8Array,
  isSupported: VersionSupport = isVersionInCodec,
): DecodedRequest {
  if (frame.length < HEADER_PREFIX_BYTES) {
    const error = new DecodeError("truncated", `request of ${frame.length} bytes`, 0);
    return { kind: "malformed", error, header: undefined };
  }
  const prefix = new DataView(frame.buffer, frame.byteOffset, HEADER_PREFIX_BYTES);
  const apiKey = prefix.getInt16(0);
  const apiVersion = prefix.getInt16(2);
  const correlationId = prefix.getInt32(4);
  const headerVersion = requestHeaderVersion(apiKey, apiVersion);
  if (headerVersion === undefined) {
    return { kind: "unknownApi", apiKey, apiVersion, correlationId };
  }
  if (!isVersionInCodec(apiKey, apiVersion) || !isSupported(apiKey, apiVersion)) {
    return decodeUnsupported(frame, apiKey, headerVersion);
  }
  const reader = new ByteReader(frame);
  let header: RequestHeader | undefined;
  try {
    header = decodeRequestHeader(reader, headerVersion);
    const body = decodeRequestBodyPrefix(apiKey, apiVersion, reader);
    return { kind: "request", headerVersion, header, body, trailingBytes: reader.remaining };
  } catch (error) {
    if (!isDecodeError(error)) throw error;
    return { kind: "malformed", error, header };
  }
}

/**
 * The header of a request whose version is not served. KIP-511: a client may send ApiVersions at
 * a version newer than the broker, with a flexible (v2) header; the broker reads the header as v2
 * and, if that fails, as v1, so that it can still answer with the versions it supports.
 */
function decodeUnsupported(
  frame: Uint8Array,
  apiKey: number,
  headerVersion: RequestHeaderVersion,
): DecodedRequest {
  const attempts: RequestHeaderVersion[] =
    apiKey === API_VERSIONS_KEY && headerVersion === 2 ? [2, 1] : [headerVersion];
  let lastError: DecodeError | undefined;
  for (const attempt of attempts) {
    try {
      const header = decodeRequestHeader(new ByteReader(frame), attempt);
      return { kind: "unsupportedVersion", headerVersion: attempt, header };
    } catch (error) {
      if (!isDecodeError(error)) throw error;
      lastError = error;
    }
  }
  return { kind: "malformed", error: lastError as DecodeError, header: undefined };
}

/** A request header as the encoder takes it: tagged fields may be left out. */
export interface RequestHeaderInput {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string | null;
  readonly taggedFields?: readonly RawTaggedField[];
}

/** A response header as the encoder takes it: tagged fields may be left out. */
export interface ResponseHeaderInput {
  readonly correlationId: number;
  readonly taggedFields?: readonly RawTaggedField[];
}

/**
 * Encodes a request, size prefix included, as chunks for a vectored write. The header version
 * follows from the API key and version; large byte fields (record batches) are not copied.
 * Throws EncodeError when the body cannot be sent in that version; the API must be known.
 */
export function encodeRequest(header: RequestHeaderInput, body: object): Uint8Array[] {
  const headerVersion = requestHeaderVersion(header.apiKey, header.apiVersion);
  assert(headerVersion !== undefined, `unknown API key ${header.apiKey}`);
  const taggedFields = header.taggedFields ?? [];
  const writer = new ByteWriter();
  encodeRequestHeader({ ...header, taggedFields }, headerVersion, writer);
  encodeRequestBody(header.apiKey, header.apiVersion, body, writer);
  return encodeFrame(writer.finishChunks());
}

/**
 * Encodes a response to a request of (apiKey, apiVersion), size prefix included, as chunks for a
 * vectored write. The response header version follows Kafka's rules (v0 for ApiVersions).
 */
export function encodeResponse(
  header: ResponseHeaderInput,
  apiKey: number,
  apiVersion: number,
  body: object,
): Uint8Array[] {
  const headerVersion = responseHeaderVersion(apiKey, apiVersion);
  assert(headerVersion !== undefined, `unknown API key ${apiKey}`);
  const writer = new ByteWriter();
  encodeResponseHeader(
    { correlationId: header.correlationId, taggedFields: header.taggedFields ?? [] },
    headerVersion,
    writer,
  );
  encodeResponseBody(apiKey, apiVersion, body, writer);
  return encodeFrame(writer.finishChunks());
}

/** What a response frame turned out to be, for the project's own client. */
export type DecodedResponse =
  | {
      readonly kind: "response";
      readonly header: ResponseHeader;
      readonly body: Record<string, unknown>;
    }
  | { readonly kind: "malformed"; readonly error: DecodeError };

/**
 * The correlation id of a response frame, read before its API is known (the client looks the
 * request up by it), or undefined when the frame is too short to hold one.
 */
export function responseCorrelationId(frame: Uint8Array): number | undefined {
  if (frame.length < 4) return undefined;
  return new DataView(frame.buffer, frame.byteOffset, 4).getInt32(0);
}

/**
 * Decodes a response frame to a request of (apiKey, apiVersion). Never throws for any bytes; the
 * API must be one the codec knows, since the caller sent the request.
 */
export function decodeResponse(
  frame: Uint8Array,
  apiKey: number,
  apiVersion: number,
): DecodedResponse {
  const headerVersion = responseHeaderVersion(apiKey, apiVersion);
  assert(headerVersion !== undefined, `unknown API key ${apiKey}`);
  const reader = new ByteReader(frame);
  try {
    const header = decodeResponseHeader(reader, headerVersion);
    const body = decodeResponseBody(apiKey, apiVersion, reader);
    return { kind: "response", header, body };
  } catch (error) {
    if (!isDecodeError(error)) throw error;
    return { kind: "malformed", error };
  }
}
