import { ByteReader } from "../codec/reader.js";
import { ByteWriter } from "../codec/writer.js";
import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import { allSchemas } from "./generated/index.js";
import type {
  KRaftVersionRecord,
  LeaderChangeMessage,
  SnapshotFooterRecord,
  SnapshotHeaderRecord,
  VotersRecord,
} from "./generated/index.js";
import { decodeMessage, decodeWholeMessage, encodeMessage } from "./message-codec.js";
import type { MessageInput, MessageSchema } from "./types.js";

const byName = new Map<string, MessageSchema>(
  allSchemas
    .filter((schema) => schema.kind === "data" || schema.kind === "header")
    .map((schema) => [schema.name, schema]),
);

/** The schema of a data or header definition by name (e.g. "LeaderChangeMessage"). */
export function dataSchema(name: string): MessageSchema | undefined {
  return byName.get(name);
}

/** Encodes a data schema (no version prefix); throws EncodeError for an unknown name or version. */
export function encodeData(name: string, version: number, data: object, writer: ByteWriter): void {
  const schema = byName.get(name);
  if (schema === undefined) throw new EncodeError("invalid", `no data schema ${name}`);
  encodeMessage(schema, version, data, writer);
}

/** Decodes a data schema from the reader's position (no end check); throws DecodeError only. */
export function decodeData(
  name: string,
  version: number,
  reader: ByteReader,
): Record<string, unknown> {
  const schema = byName.get(name);
  if (schema === undefined) throw new DecodeError("unknownApi", `no data schema ${name}`);
  return decodeMessage(schema, version, reader);
}

function encodeToBytes(name: string, version: number, data: object): Uint8Array {
  const writer = new ByteWriter();
  encodeData(name, version, data, writer);
  return writer.finish();
}

function decodeFromBytes(
  name: string,
  version: number,
  bytes: Uint8Array,
): Record<string, unknown> {
  const schema = byName.get(name);
  if (schema === undefined) throw new DecodeError("unknownApi", `no data schema ${name}`);
  return decodeWholeMessage(schema, version, new ByteReader(bytes));
}

/**
 * Encodes a version-prefixed data schema (int16 version, then the struct), the layout of
 * ConsumerProtocolSubscription and ConsumerProtocolAssignment in group protocol metadata.
 */
export function encodeVersionPrefixed(name: string, version: number, data: object): Uint8Array {
  const writer = new ByteWriter();
  writer.int16(version);
  encodeData(name, version, data, writer);
  return writer.finish();
}

/**
 * Decodes a version-prefixed data schema. As Kafka's ConsumerProtocol does, a version above the
 * highest known is read as the highest known and any bytes it added at the end are ignored.
 */
export function decodeVersionPrefixed(
  name: string,
  bytes: Uint8Array,
): { readonly version: number; readonly data: Record<string, unknown> } {
  const schema = byName.get(name);
  if (schema === undefined) throw new DecodeError("unknownApi", `no data schema ${name}`);
  const reader = new ByteReader(bytes);
  const version = reader.int16();
  const readVersion = Math.min(version, schema.validVersions[1]);
  const data = decodeMessage(schema, readVersion, reader);
  if (readVersion === version && reader.remaining > 0) {
    throw new DecodeError("trailing", `${reader.remaining} bytes after ${name}`, reader.position);
  }
  return { version, data };
}

export function encodeLeaderChangeMessage(
  version: number,
  data: MessageInput<LeaderChangeMessage>,
): Uint8Array {
  return encodeToBytes("LeaderChangeMessage", version, data);
}

/** Decodes the value of a LeaderChange control record; throws DecodeError only. */
export function decodeLeaderChangeMessage(version: number, bytes: Uint8Array): LeaderChangeMessage {
  return decodeFromBytes("LeaderChangeMessage", version, bytes) as unknown as LeaderChangeMessage;
}

export function encodeSnapshotHeaderRecord(
  version: number,
  data: MessageInput<SnapshotHeaderRecord>,
): Uint8Array {
  return encodeToBytes("SnapshotHeaderRecord", version, data);
}

/** Decodes the value of a SnapshotHeader control record; throws DecodeError only. */
export function decodeSnapshotHeaderRecord(
  version: number,
  bytes: Uint8Array,
): SnapshotHeaderRecord {
  return decodeFromBytes("SnapshotHeaderRecord", version, bytes) as unknown as SnapshotHeaderRecord;
}

export function encodeSnapshotFooterRecord(
  version: number,
  data: MessageInput<SnapshotFooterRecord>,
): Uint8Array {
  return encodeToBytes("SnapshotFooterRecord", version, data);
}

/** Decodes the value of a SnapshotFooter control record; throws DecodeError only. */
export function decodeSnapshotFooterRecord(
  version: number,
  bytes: Uint8Array,
): SnapshotFooterRecord {
  return decodeFromBytes("SnapshotFooterRecord", version, bytes) as unknown as SnapshotFooterRecord;
}

export function encodeKRaftVersionRecord(
  version: number,
  data: MessageInput<KRaftVersionRecord>,
): Uint8Array {
  return encodeToBytes("KRaftVersionRecord", version, data);
}

/** Decodes the value of a KRaftVersion control record; throws DecodeError only. */
export function decodeKRaftVersionRecord(version: number, bytes: Uint8Array): KRaftVersionRecord {
  return decodeFromBytes("KRaftVersionRecord", version, bytes) as unknown as KRaftVersionRecord;
}

export function encodeVotersRecord(version: number, data: MessageInput<VotersRecord>): Uint8Array {
  return encodeToBytes("VotersRecord", version, data);
}

/** Decodes the value of a Voters control record; throws DecodeError only. */
export function decodeVotersRecord(version: number, bytes: Uint8Array): VotersRecord {
  return decodeFromBytes("VotersRecord", version, bytes) as unknown as VotersRecord;
}
