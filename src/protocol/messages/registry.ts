import type { ByteReader } from "../codec/reader.js";
import type { ByteWriter } from "../codec/writer.js";
import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import { decodeMessage } from "../schema/message-codec.js";
import type { ApiCodec, ApiDefinition } from "./define-api.js";
import { allApis } from "./generated/index.js";

const byKey = new Map<number, ApiCodec<object, object>>(allApis.map((api) => [api.apiKey, api]));

/** The codec of an API by key, or undefined for a key Kafka does not define. */
export function apiCodec(apiKey: number): ApiCodec<object, object> | undefined {
  return byKey.get(apiKey);
}

/** The definition of an API by key, or undefined for a key Kafka does not define. */
export function apiDefinition(apiKey: number): ApiDefinition | undefined {
  return byKey.get(apiKey);
}

/** Every API this codec knows, in API key order. */
export function allApiDefinitions(): readonly ApiDefinition[] {
  return allApis;
}

function decodingCodec(apiKey: number): ApiCodec<object, object> {
  const api = byKey.get(apiKey);
  if (api === undefined) throw new DecodeError("unknownApi", `no API with key ${apiKey}`);
  return api;
}

function encodingCodec(apiKey: number): ApiCodec<object, object> {
  const api = byKey.get(apiKey);
  if (api === undefined) throw new EncodeError("unsupportedVersion", `no API with key ${apiKey}`);
  return api;
}

/**
 * Decodes a request body (the bytes after the request header) that must end exactly at
 * `reader.end`. Throws DecodeError only: "unknownApi", "unsupportedVersion", "trailing", ...
 */
export function decodeRequestBody(
  apiKey: number,
  version: number,
  reader: ByteReader,
): Record<string, unknown> {
  return decodingCodec(apiKey).decodeRequest(version, reader) as Record<string, unknown>;
}

/** Encodes a request body; throws EncodeError when the body cannot be sent in `version`. */
export function encodeRequestBody(
  apiKey: number,
  version: number,
  body: object,
  writer: ByteWriter,
): void {
  encodingCodec(apiKey).encodeRequest(version, body, writer);
}

/**
 * Decodes a request body from the reader's position, leaving whatever follows it unread (Kafka
 * parses a request body and ignores the rest of the frame). Throws DecodeError only.
 */
export function decodeRequestBodyPrefix(
  apiKey: number,
  version: number,
  reader: ByteReader,
): Record<string, unknown> {
  return decodeMessage(decodingCodec(apiKey).requestSchema, version, reader);
}

/** Decodes a response body that must end exactly at `reader.end`; throws DecodeError only. */
export function decodeResponseBody(
  apiKey: number,
  version: number,
  reader: ByteReader,
): Record<string, unknown> {
  return decodingCodec(apiKey).decodeResponse(version, reader) as Record<string, unknown>;
}

/** Encodes a response body; throws EncodeError when the body cannot be sent in `version`. */
export function encodeResponseBody(
  apiKey: number,
  version: number,
  body: object,
  writer: ByteWriter,
): void {
  encodingCodec(apiKey).encodeResponse(version, body, writer);
}
