import { ByteReader } from "../codec/reader.js";
import { ByteWriter } from "../codec/writer.js";
import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import { allSchemas } from "./generated/index.js";
import { decodeMessage, encodeMessage, expectEnd } from "./message-codec.js";
import type { MessageSchema } from "./types.js";

/** The internal topics whose records carry coordinator keys and values. */
export type CoordinatorLog = "__consumer_offsets" | "__transaction_state";

/** A coordinator record family, e.g. "OffsetCommit" (OffsetCommitKey + OffsetCommitValue). */
export interface CoordinatorRecordSchemas {
  readonly name: string;
  readonly log: CoordinatorLog;
  readonly key: MessageSchema;
  readonly value: MessageSchema;
}

/** A decoded coordinator key: the key version selects the record family. */
export interface CoordinatorKey {
  readonly name: string;
  readonly version: number;
  readonly data: Record<string, unknown>;
}

export interface CoordinatorValue {
  readonly version: number;
  readonly data: Record<string, unknown>;
}

function buildFamilies(): Map<string, CoordinatorRecordSchemas> {
  const schemas = allSchemas.filter((schema) => schema.kind === "coordinator");
  const families = new Map<string, CoordinatorRecordSchemas>();
  for (const key of schemas.filter((schema) => schema.name.endsWith("Key"))) {
    const name = key.name.slice(0, -"Key".length);
    const value = schemas.find((schema) => schema.name === `${name}Value`);
    if (value === undefined) continue;
    const log = name === "TransactionLog" ? "__transaction_state" : "__consumer_offsets";
    families.set(name, { name, log, key, value });
  }
  return families;
}

const families = buildFamilies();

/** Every coordinator record family, by name. */
export function coordinatorRecordSchemas(): ReadonlyMap<string, CoordinatorRecordSchemas> {
  return families;
}

function familyFor(name: string): CoordinatorRecordSchemas {
  const family = families.get(name);
  if (family === undefined) throw new EncodeError("invalid", `no coordinator record ${name}`);
  return family;
}

/**
 * Encodes a coordinator record key: int16 key version, then the key struct. The version
 * defaults to the highest the family's key defines (it is what tells families apart).
 */
export function encodeCoordinatorKey(name: string, data: object, version?: number): Uint8Array {
  const family = familyFor(name);
  const keyVersion = version ?? family.key.validVersions[1];
  const writer = new ByteWriter();
  writer.int16(keyVersion);
  encodeMessage(family.key, keyVersion, data, writer);
  return writer.finish();
}

/** Finds the family whose key defines `version` in `log`; Kafka dispatches on the key version. */
function familyByKeyVersion(log: CoordinatorLog, version: number): CoordinatorRecordSchemas {
  for (const family of families.values()) {
    const [min, max] = family.key.validVersions;
    if (family.log === log && version >= min && version <= max) return family;
  }
  throw new DecodeError("unknownApi", `no ${log} record with key version ${version}`, 0);
}

/** Decodes a coordinator record key from `log`; throws DecodeError only. */
export function decodeCoordinatorKey(log: CoordinatorLog, bytes: Uint8Array): CoordinatorKey {
  const reader = new ByteReader(bytes);
  const version = reader.int16();
  const family = familyByKeyVersion(log, version);
  const data = decodeMessage(family.key, version, reader);
  expectEnd(reader, family.key.name);
  return { name: family.name, version, data };
}

/** Encodes a coordinator record value: int16 value version, then the value struct. */
export function encodeCoordinatorValue(name: string, version: number, data: object): Uint8Array {
  const family = familyFor(name);
  const writer = new ByteWriter();
  writer.int16(version);
  encodeMessage(family.value, version, data, writer);
  return writer.finish();
}

/** Decodes the value of a record whose key named family `name`; throws DecodeError only. */
export function decodeCoordinatorValue(name: string, bytes: Uint8Array): CoordinatorValue {
  const family = families.get(name);
  if (family === undefined) throw new DecodeError("unknownApi", `no coordinator record ${name}`);
  const reader = new ByteReader(bytes);
  const version = reader.int16();
  const data = decodeMessage(family.value, version, reader);
  expectEnd(reader, family.value.name);
  return { version, data };
}
