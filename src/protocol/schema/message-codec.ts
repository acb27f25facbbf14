import type { ByteReader } from "../codec/reader.js";
import type { ByteWriter } from "../codec/writer.js";
import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import { structCodec } from "./struct-codec.js";
import type { MessageSchema } from "./types.js";
import { inRange } from "./types.js";

export function isValidVersion(schema: MessageSchema, version: number): boolean {
  return Number.isInteger(version) && inRange(schema.validVersions, version);
}

/** True when the schema uses compact encodings and tagged fields in `version`. */
export function isFlexibleVersion(schema: MessageSchema, version: number): boolean {
  return inRange(schema.flexibleVersions, version);
}

/**
 * Decodes one message of `schema` at `version` from the reader's position. Fields the version
 * lacks take their defaults. Throws DecodeError (kind "unsupportedVersion" for a version the
 * schema does not define) and nothing else for bad bytes; does not require the reader to end.
 */
export function decodeMessage(
  schema: MessageSchema,
  version: number,
  reader: ByteReader,
): Record<string, unknown> {
  if (!isValidVersion(schema, version)) {
    throw new DecodeError("unsupportedVersion", `${schema.name} has no version ${version}`);
  }
  return structCodec(schema, version, isFlexibleVersion(schema, version)).decode(reader);
}

/** Throws DecodeError kind "trailing" unless the reader has consumed its whole range. */
export function expectEnd(reader: ByteReader, what: string): void {
  if (reader.position !== reader.end) {
    throw new DecodeError("trailing", `${reader.remaining} bytes after ${what}`, reader.position);
  }
}

/** Decodes a message that must fill the reader's range exactly (a frame body, a record value). */
export function decodeWholeMessage(
  schema: MessageSchema,
  version: number,
  reader: ByteReader,
): Record<string, unknown> {
  const value = decodeMessage(schema, version, reader);
  expectEnd(reader, schema.name);
  return value;
}

/**
 * Encodes `value` as `schema` at `version`. Missing properties take their defaults; a
 * non-default value in a field the version lacks (unless ignorable), a null where the version
 * forbids one, or an undefined version throws EncodeError.
 */
export function encodeMessage(
  schema: MessageSchema,
  version: number,
  value: object,
  writer: ByteWriter,
): void {
  if (!isValidVersion(schema, version)) {
    throw new EncodeError("unsupportedVersion", `${schema.name} has no version ${version}`);
  }
  const codec = structCodec(schema, version, isFlexibleVersion(schema, version));
  codec.encode(value as Record<string, unknown>, writer);
}
