/**
 * The shape of the project's schema tables: a plain-data description of a Kafka message (its
 * fields, their types and the versions each exists in), produced by tools/gen-schemas.mjs from
 * Kafka's message definitions and interpreted by the codec engine.
 */
import type { ByteChunks } from "../codec/writer.js";

/** An inclusive version range; an open range ("3+") ends at VERSION_MAX. */
export type VersionRange = readonly [min: number, max: number];

/** The highest version an open range ("N+") reaches. */
export const VERSION_MAX = 0x7fff;

/** The scalar types of Kafka's message definitions. */
export type PrimitiveType =
  | "bool"
  | "int8"
  | "int16"
  | "uint16"
  | "int32"
  | "uint32"
  | "int64"
  | "float64"
  | "string"
  | "bytes"
  | "records"
  | "uuid";

/** A field type: a primitive, an array of primitives or structs, or a single struct. */
export type FieldType =
  | PrimitiveType
  | { readonly array: PrimitiveType | StructSchema }
  | { readonly struct: StructSchema };

/** One field of a struct, with the versions it exists in and how it is encoded there. */
export interface FieldSchema {
  /** The camelCase property name (Kafka's JSON name). */
  readonly name: string;
  readonly type: FieldType;
  readonly versions: VersionRange;
  readonly nullableVersions?: VersionRange;
  /** Versions in which the field travels in the tagged-field section, under `tag`. */
  readonly taggedVersions?: VersionRange;
  readonly tag?: number;
  /** The default as written in the definition ("null", "-1", "0x7fffffff", "true", text). */
  readonly default?: string;
  /** When set, a non-default value is dropped silently in versions that lack the field. */
  readonly ignorable?: boolean;
  /** A field-level override of the message's flexible versions (only RequestHeader uses it). */
  readonly flexibleVersions?: VersionRange | null;
}

/** A named struct: the top level of a message or a nested struct. */
export interface StructSchema {
  readonly name: string;
  readonly fields: readonly FieldSchema[];
}

/** What a schema describes, as the definition's "type" says. */
export type MessageKind = "request" | "response" | "header" | "data" | "metadata" | "coordinator";

/** A whole message: its top-level struct plus its version facts. */
export interface MessageSchema extends StructSchema {
  readonly kind: MessageKind;
  /** The API key of a request or response, or the record type of a metadata record. */
  readonly apiKey?: number;
  readonly validVersions: VersionRange;
  /** Versions using compact encodings and tagged fields, or null when none do. */
  readonly flexibleVersions: VersionRange | null;
  /** True when Kafka marks the highest version as still unstable. */
  readonly latestVersionUnstable?: boolean;
}

/** A tagged field the schema does not know, kept as raw bytes so it survives a round trip. */
export interface TaggedField {
  readonly tag: number;
  readonly data: Uint8Array;
}

/**
 * The input accepted by the encoders: the decoded shape with every property optional (a missing
 * property takes its default, as in Kafka's generated data classes) and arrays read-only. A
 * bytes or records field may be given as ByteChunks, encoded without joining its pieces. A
 * decoded message is an input of its own type, which the union states for code generic in `T`.
 */
export type MessageInput<T> = T | PartialMessage<T>;

type PartialMessage<T> = T extends Uint8Array
  ? T | ByteChunks
  : T extends readonly (infer E)[]
    ? readonly PartialMessage<E>[]
    : T extends object
      ? { readonly [K in keyof T]?: PartialMessage<T[K]> }
      : T;

/** True when `version` lies in `range` (a null range holds no version). */
export function inRange(range: VersionRange | null | undefined, version: number): boolean {
  return range !== null && range !== undefined && version >= range[0] && version <= range[1];
}
