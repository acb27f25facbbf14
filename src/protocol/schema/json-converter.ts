import { uuidFromBytes, uuidToBytes, type Uuid } from "../../common/index.js";
import { fromBase64, toBase64 } from "../codec/base64.js";
import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import { defaultFactory, defaultTest } from "./defaults.js";
import type { FieldSchema, PrimitiveType, StructSchema } from "./types.js";
import { inRange } from "./types.js";

/** A JSON value as JSON.parse returns it. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const INTEGER_RANGES: Partial<Record<PrimitiveType, readonly [number, number]>> = {
  int8: [-0x80, 0x7f],
  int16: [-0x8000, 0x7fff],
  uint16: [0, 0xffff],
  int32: [-0x80000000, 0x7fffffff],
  uint32: [0, 0xffffffff],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** A primitive as Kafka's generated JSON converters write it (uuid in URL-safe base64). */
function primitiveToJson(type: PrimitiveType, value: unknown): JsonValue {
  if (value === null) return null;
  if (type === "uuid") return toBase64(uuidToBytes(value as Uuid), true);
  if (type === "bytes" || type === "records") return toBase64(value as Uint8Array);
  return value as JsonValue;
}

function invalid(path: string, expected: string): DecodeError {
  return new DecodeError("invalid", `${path}: expected ${expected}`);
}

function integerFromJson(type: PrimitiveType, json: JsonValue, path: string): number {
  const range = INTEGER_RANGES[type] as readonly [number, number];
  // Kafka's converters accept integers written as numbers or as numeric text.
  const value = typeof json === "string" && /^-?\d+$/.test(json) ? Number(json) : json;
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalid(path, type);
  if (value < range[0] || value > range[1]) throw invalid(path, `${type} in range`);
  return value;
}

function primitiveFromJson(type: PrimitiveType, json: JsonValue, path: string): unknown {
  switch (type) {
    case "bool":
      if (typeof json !== "boolean") throw invalid(path, "a boolean");
      return json;
    case "float64":
      if (typeof json !== "number") throw invalid(path, "a number");
      return json;
    case "string":
      if (typeof json !== "string") throw invalid(path, "a string");
      return json;
    case "uuid": {
      const bytes = typeof json === "string" ? fromBase64(json) : null;
      if (bytes === null || bytes.length !== 16) throw invalid(path, "a base64 uuid");
      return uuidFromBytes(bytes);
    }
    case "bytes":
    case "records": {
      const bytes = typeof json === "string" ? fromBase64(json) : null;
      if (bytes === null) throw invalid(path, "base64 bytes");
      return bytes;
    }
    default:
      return integerFromJson(type, json, path);
  }
}

function valueToJson(field: FieldSchema, version: number, value: unknown): JsonValue {
  const type = field.type;
  if (value === null) return null;
  if (typeof type === "string") return primitiveToJson(type, value);
  if ("struct" in type) return structToJson(type.struct, version, value as Record<string, unknown>);
  const element = type.array;
  return (value as readonly unknown[]).map((item) =>
    typeof element === "string"
      ? primitiveToJson(element, item)
      : structToJson(element, version, item as Record<string, unknown>),
  );
}

/**
 * Converts a struct to the JSON object Kafka's generated JSON converter writes for `version`:
 * the version's fields in schema order, tagged ones only when they differ from their defaults.
 * Throws EncodeError for a non-default value in a field the version lacks (unless ignorable).
 */
export function structToJson(
  struct: StructSchema,
  version: number,
  value: Record<string, unknown>,
): { [key: string]: JsonValue } {
  const json: { [key: string]: JsonValue } = {};
  for (const field of struct.fields) {
    const fieldValue = value[field.name];
    const isDefault = defaultTest(field)(fieldValue);
    if (!inRange(field.versions, version)) {
      if (!isDefault && field.ignorable !== true) {
        throw new EncodeError(
          "unsupportedVersion",
          `field ${field.name} cannot be set in version ${version}`,
        );
      }
      continue;
    }
    if (inRange(field.taggedVersions, version) && isDefault) continue;
    if (fieldValue === null && !inRange(field.nullableVersions, version)) {
      throw new EncodeError("invalid", `field ${field.name} is not nullable in version ${version}`);
    }
    const present = fieldValue === undefined ? defaultFactory(field)() : fieldValue;
    json[field.name] = valueToJson(field, version, present);
  }
  return json;
}

function valueFromJson(
  field: FieldSchema,
  version: number,
  json: JsonValue,
  path: string,
): unknown {
  if (json === null) {
    if (inRange(field.nullableVersions, version)) return null;
    throw invalid(path, "a value, not null");
  }
  const type = field.type;
  if (typeof type === "string") return primitiveFromJson(type, json, path);
  if ("struct" in type) return structFromJson(type.struct, version, json, path);
  if (!Array.isArray(json)) throw invalid(path, "an array");
  const element = type.array;
  return json.map((item, index) =>
    typeof element === "string"
      ? primitiveFromJson(element, item, `${path}[${index}]`)
      : structFromJson(element, version, item, `${path}[${index}]`),
  );
}

/**
 * Reads a struct from JSON as Kafka's generated JSON converter does: a field of the version that
 * is neither tagged nor present is an error; missing others take their defaults. Throws
 * DecodeError kind "invalid" with the path of the offending value.
 */
export function structFromJson(
  struct: StructSchema,
  version: number,
  json: JsonValue,
  path: string,
): Record<string, unknown> {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw invalid(path, "an object");
  }
  const value: Record<string, unknown> = {};
  for (const field of struct.fields) {
    const fieldJson = json[field.name];
    const fieldPath = `${path}.${field.name}`;
    if (fieldJson === undefined) {
      const isMandatory =
        inRange(field.versions, version) && !inRange(field.taggedVersions, version);
      if (isMandatory) throw invalid(fieldPath, `a value (mandatory in version ${version})`);
      value[field.name] = defaultFactory(field)();
      continue;
    }
    value[field.name] = valueFromJson(field, version, fieldJson, fieldPath);
  }
  return value;
}
