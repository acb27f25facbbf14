import { assert } from "../../common/index.js";
import type { FieldSchema, StructSchema } from "./types.js";
import { inRange } from "./types.js";

/** Makes a field's default value; called once per use so arrays and structs are never shared. */
export type DefaultFactory = () => unknown;

/** Tells whether a value equals a field's default (undefined always does). */
export type DefaultTest = (value: unknown) => boolean;

const EMPTY_BYTES = new Uint8Array(0);
const ZERO_UUID = "0".repeat(32);

function isEverNullable(field: FieldSchema): boolean {
  return field.nullableVersions !== undefined;
}

/** Parses a numeric default: decimal, or hexadecimal with a "0x" prefix and optional sign. */
export function parseNumberDefault(text: string): number {
  const negative = text.startsWith("-");
  const digits = negative ? text.slice(1) : text;
  const magnitude = /^0x/i.test(digits) ? parseInt(digits.slice(2), 16) : Number(digits);
  const value = negative ? -magnitude : magnitude;
  assert(!Number.isNaN(value), `bad numeric default ${text}`);
  return value;
}

/** The default of a scalar field, or undefined for arrays and structs. */
function scalarDefault(field: FieldSchema): unknown {
  const text = field.default;
  if (text === "null") {
    assert(isEverNullable(field), `field ${field.name} defaults to null but is never nullable`);
    return null;
  }
  switch (field.type) {
    case "bool":
      return text === "true";
    case "string":
      return text ?? "";
    case "uuid":
      return ZERO_UUID;
    case "bytes":
      return EMPTY_BYTES;
    case "records":
      // Kafka leaves an unset records field null; only a never-nullable one starts empty.
      return isEverNullable(field) ? null : EMPTY_BYTES;
    case "float64":
      return text === undefined ? 0 : Number(text);
    default:
      return text === undefined ? 0 : parseNumberDefault(text);
  }
}

export function defaultFactory(field: FieldSchema): DefaultFactory {
  const type = field.type;
  if (typeof type === "string") {
    const value = scalarDefault(field);
    return () => value;
  }
  if (field.default === "null") return () => null;
  if ("array" in type) return () => [];
  return structDefaultFactory(type.struct);
}

export function structDefaultFactory(struct: StructSchema): DefaultFactory {
  const names = struct.fields.map((field) => field.name);
  const factories = struct.fields.map(defaultFactory);
  return () => {
    const value: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++)
      value[names[i] as string] = (factories[i] as DefaultFactory)();
    return value;
  };
}

/** Builds the test for "this value equals the field's default", as Kafka's equals would say. */
export function defaultTest(field: FieldSchema): DefaultTest {
  const type = field.type;
  if (field.default === "null" && typeof type !== "string") {
    return (value) => value === undefined || value === null;
  }
  if (typeof type === "string") return scalarDefaultTest(field);
  if ("array" in type) {
    return (value) => value === undefined || (Array.isArray(value) && value.length === 0);
  }
  return structDefaultTest(type.struct);
}

function scalarDefaultTest(field: FieldSchema): DefaultTest {
  const expected = scalarDefault(field);
  if (field.type !== "bytes" && field.type !== "records") {
    return (value) => value === undefined || value === expected;
  }
  if (expected === null) return (value) => value === undefined || value === null;
  return (value) => value === undefined || (value instanceof Uint8Array && value.length === 0);
}

/** A struct equals its default when every field does and it carries no unknown tagged fields. */
export function structDefaultTest(struct: StructSchema): DefaultTest {
  const names = struct.fields.map((field) => field.name);
  const tests = struct.fields.map(defaultTest);
  return (value) => {
    if (value === undefined) return true;
    if (value === null || typeof value !== "object") return false;
    const record = value as Record<string, unknown>;
    for (let i = 0; i < names.length; i++) {
      if (!(tests[i] as DefaultTest)(record[names[i] as string])) return false;
    }
    const unknown = record["unknownTaggedFields"];
    return unknown === undefined || (Array.isArray(unknown) && unknown.length === 0);
  };
}

export function isNullableIn(field: FieldSchema, version: number): boolean {
  return inRange(field.nullableVersions, version);
}
