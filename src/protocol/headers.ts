import { ByteReader } from "./codec/reader.js";
import { ByteWriter } from "./codec/writer.js";
import { DecodeError } from "./codec/decode-error.js";
import { apiDefinition } from "./messages/index.js";

/**
 * Kafka's request and response headers. Request header v0 holds the API key, the API version and
 * the correlation id; v1 adds the client id; v2 adds tagged fields (the client id stays a classic,
 * non-compact nullable string, as Kafka's RequestHeader.json says). Response header v0 holds the
 * correlation id; v1 adds tagged fields.
 */

export type RequestHeaderVersion = 0 | 1 | 2;

export type ResponseHeaderVersion = 0 | 1;

/** A header tagged field Sluice does not interpret, kept as bytes so a round trip is exact. */
export interface RawTaggedField {
  readonly tag: number;
  readonly data: Uint8Array;
}

/** A decoded request header. `clientId` is null when absent (v0) or sent as null. */
export interface RequestHeader {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string | null;
  /** Tagged fields of a v2 header, in the order received; empty in v0 and v1. */
  readonly taggedFields: readonly RawTaggedField[];
}

export interface ResponseHeader {
  readonly correlationId: number;
  /** Tagged fields of a v1 header, in the order received; empty in v0. */
  readonly taggedFields: readonly RawTaggedField[];
}

const API_VERSIONS_KEY = 18;
const CONTROLLED_SHUTDOWN_KEY = 7;
/** Each tagged field takes at least two bytes: its tag and its size, one varint each. */
const TAGGED_FIELD_BYTES_MIN = 2;

function isFlexible(apiKey: number, apiVersion: number): boolean | undefined {
  const definition = apiDefinition(apiKey);
  if (definition === undefined) return undefined;
  return definition.flexibleFrom !== undefined && apiVersion >= definition.flexibleFrom;
}

/**
 * The request header version of (apiKey, apiVersion), or undefined for an API key the codec does
 * not know. Flexible versions use v2, others v1; ControlledShutdown v0 uses v0, as in Kafka. A
 * version above the API's maximum follows the same rule, which is what KIP-511 needs to read the
 * header of an ApiVersions request newer than the broker.
 */
export function requestHeaderVersion(
  apiKey: number,
  apiVersion: number,
): RequestHeaderVersion | undefined {
  if (apiKey === CONTROLLED_SHUTDOWN_KEY && apiVersion === 0) return 0;
  const flexible = isFlexible(apiKey, apiVersion);
  if (flexible === undefined) return undefined;
  return flexible ? 2 : 1;
}

/**
 * The response header version of (apiKey, apiVersion), or undefined for an unknown API key:
 * v1 for flexible versions, else v0. ApiVersions responses always use v0 so that a client can read
 * them before it knows which versions the broker speaks.
 */
export function responseHeaderVersion(
  apiKey: number,
  apiVersion: number,
): ResponseHeaderVersion | undefined {
  const flexible = isFlexible(apiKey, apiVersion);
  if (flexible === undefined) return undefined;
  if (apiKey === API_VERSIONS_KEY) return 0;
  return flexible ? 1 : 0;
}

/** Reads a tagged-field section, keeping every field as raw bytes. Throws DecodeError. */
export function decodeRawTaggedFields(reader: ByteReader): RawTaggedField[] {
  const start = reader.position;
  const count = reader.unsignedVarint();
  if (count * TAGGED_FIELD_BYTES_MIN > reader.remaining) {
    throw new DecodeError("tooLarge", `${count} tagged fields in ${reader.remaining} bytes`, start);
  }
  const fields: RawTaggedField[] = [];
  for (let index = 0; index < count; index++) {
    const tag = reader.unsignedVarint();
    const size = reader.unsignedVarint();
    fields.push({ tag, data: reader.raw(size) });
  }
  return fields;
}

/** Writes a tagged-field section from raw fields, in the order given. */
export function encodeRawTaggedFields(fields: readonly RawTaggedField[], writer: ByteWriter): void {
  writer.unsignedVarint(fields.length);
  for (const field of fields) {
    writer.unsignedVarint(field.tag).unsignedVarint(field.data.length).raw(field.data);
  }
}

/** Reads a request header of the given version. Throws DecodeError on malformed bytes. */
export function decodeRequestHeader(
  reader: ByteReader,
  headerVersion: RequestHeaderVersion,
): RequestHeader {
  const apiKey = reader.int16();
  const apiVersion = reader.int16();
  const correlationId = reader.int32();
  const clientId = headerVersion >= 1 ? reader.string(true) : null;
  const taggedFields = headerVersion >= 2 ? decodeRawTaggedFields(reader) : [];
  return { apiKey, apiVersion, correlationId, clientId, taggedFields };
}

/** Writes a request header of the given version; fields the version lacks are left out. */
export function encodeRequestHeader(
  header: RequestHeader,
  headerVersion: RequestHeaderVersion,
  writer: ByteWriter,
): void {
  writer.int16(header.apiKey).int16(header.apiVersion).int32(header.correlationId);
  if (headerVersion >= 1) writer.string(header.clientId);
  if (headerVersion >= 2) encodeRawTaggedFields(header.taggedFields, writer);
}

/** Reads a response header of the given version. Throws DecodeError on malformed bytes. */
export function decodeResponseHeader(
  reader: ByteReader,
  headerVersion: ResponseHeaderVersion,
): ResponseHeader {
  const correlationId = reader.int32();
  const taggedFields = headerVersion >= 1 ? decodeRawTaggedFields(reader) : [];
  return { correlationId, taggedFields };
}

export function encodeResponseHeader(
  header: ResponseHeader,
  headerVersion: ResponseHeaderVersion,
  writer: ByteWriter,
): void {
  writer.int32(header.correlationId);
  if (headerVersion >= 1) encodeRawTaggedFields(header.taggedFields, writer);
}
