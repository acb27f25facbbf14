import { ByteReader } from "../codec/reader.js";
import { ByteWriter } from "../codec/writer.js";
import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import { allSchemas } from "./generated/index.js";
import type { MetadataRecordDataByType } from "./generated/index.js";
import { decodeWholeMessage, encodeMessage } from "./message-codec.js";
import type { MessageInput, MessageSchema } from "./types.js";

/** The only frame version of `__cluster_metadata` record values Kafka defines. */
export const METADATA_FRAME_VERSION = 1;

/** A metadata record type number (the definition's "apiKey"). */
export type MetadataRecordTypeNumber = keyof MetadataRecordDataByType;

/** A decoded metadata record: its type selects the shape of its data. */
export type MetadataRecord = {
  [K in MetadataRecordTypeNumber]: {
    readonly type: K;
    readonly version: number;
    readonly data: MetadataRecordDataByType[K];
  };
}[MetadataRecordTypeNumber];

/** A metadata record to encode; missing data properties take their defaults. */
export type MetadataRecordInput = {
  [K in MetadataRecordTypeNumber]: {
    readonly type: K;
    readonly version: number;
    readonly data: MessageInput<MetadataRecordDataByType[K]>;
  };
}[MetadataRecordTypeNumber];

const byType = new Map<number, MessageSchema>(
  allSchemas
    .filter((schema) => schema.kind === "metadata" && schema.apiKey !== undefined)
    .map((schema) => [schema.apiKey as number, schema]),
);

/** The schema of a metadata record type, or undefined for a type Kafka does not define. */
export function metadataRecordSchema(type: number): MessageSchema | undefined {
  return byType.get(type);
}

/**
 * Encodes a `__cluster_metadata` record value: unsigned varint frame version (1), record type
 * and record version, then the record body. Throws EncodeError for an unknown type or version.
 */
export function encodeMetadataRecord(record: MetadataRecordInput): Uint8Array {
  const schema = byType.get(record.type);
  if (schema === undefined) {
    throw new EncodeError("unsupportedVersion", `no metadata record type ${record.type}`);
  }
  const writer = new ByteWriter();
  writer.unsignedVarint(METADATA_FRAME_VERSION);
  writer.unsignedVarint(record.type);
  writer.unsignedVarint(record.version);
  encodeMessage(schema, record.version, record.data, writer);
  return writer.finish();
}

/** Decodes a `__cluster_metadata` record value that must fill `bytes`; throws DecodeError only. */
export function decodeMetadataRecord(bytes: Uint8Array): MetadataRecord {
  const reader = new ByteReader(bytes);
  const frameVersion = reader.unsignedVarint();
  if (frameVersion !== METADATA_FRAME_VERSION) {
    throw new DecodeError("unsupportedVersion", `metadata frame version ${frameVersion}`, 0);
  }
  const type = reader.unsignedVarint();
  const version = reader.unsignedVarint();
  const schema = byType.get(type);
  if (schema === undefined) {
    throw new DecodeError("unknownApi", `no metadata record type ${type}`);
  }
  const data = decodeWholeMessage(schema, version, reader);
  return { type, version, data } as MetadataRecord;
}
