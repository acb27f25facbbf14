// Test support only (imported by *.test.ts files): fast-check arbitraries built from schemas.
import fc from "fast-check";
import { defaultFactory } from "./defaults.js";
import type {
  FieldSchema,
  MessageSchema,
  PrimitiveType,
  StructSchema,
  TaggedField,
} from "./types.js";
import { inRange } from "./types.js";

export interface ArbitraryOptions {
  /** True when the message is flexible in the version (tagged fields exist). */
  readonly isFlexible: boolean;
  readonly version: number;
  readonly maxArrayLength: number;
  /** False to leave out unknown tagged fields (for formats that drop them, such as JSON). */
  readonly hasUnknownTaggedFields: boolean;
}

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

const PRIMITIVES: Record<PrimitiveType, fc.Arbitrary<unknown>> = {
  bool: fc.boolean(),
  int8: fc.integer({ min: -0x80, max: 0x7f }),
  int16: fc.integer({ min: -0x8000, max: 0x7fff }),
  uint16: fc.integer({ min: 0, max: 0xffff }),
  int32: fc.integer({ min: -0x80000000, max: 0x7fffffff }),
  uint32: fc.integer({ min: 0, max: 0xffffffff }),
  int64: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.maxSafeInteger(), fc.constant(-1)),
  float64: fc.double({ noNaN: true }),
  string: fc.string({ unit: "grapheme", maxLength: 8 }),
  bytes: fc.uint8Array({ maxLength: 12 }),
  records: fc.uint8Array({ maxLength: 24 }),
  uuid: fc.uint8Array({ minLength: 16, maxLength: 16 }).map(hex),
};

function typeArbitrary(field: FieldSchema, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const type = field.type;
  let arbitrary: fc.Arbitrary<unknown>;
  if (typeof type === "string") arbitrary = PRIMITIVES[type];
  else if ("struct" in type) arbitrary = structArbitrary(type.struct, options);
  else {
    const element =
      typeof type.array === "string"
        ? PRIMITIVES[type.array]
        : structArbitrary(type.array, options);
    arbitrary = fc.array(element, { maxLength: options.maxArrayLength });
  }
  if (inRange(field.nullableVersions, options.version)) {
    arbitrary = fc.oneof(fc.constant(null), arbitrary);
  }
  return arbitrary;
}

function fieldArbitrary(field: FieldSchema, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const makeDefault = defaultFactory(field);
  if (!inRange(field.versions, options.version)) return fc.constant(null).map(() => makeDefault());
  const value = typeArbitrary(field, options);
  if (options.isFlexible && inRange(field.taggedVersions, options.version)) {
    // Tagged fields are often left at their default, so both shapes of the section are covered.
    return fc.oneof(
      fc.constant(null).map(() => makeDefault()),
      value,
    );
  }
  return value;
}

/** Unknown tagged fields: sorted, distinct tags that no known field of the struct uses. */
function unknownTaggedFieldsArbitrary(struct: StructSchema): fc.Arbitrary<TaggedField[]> {
  const knownTags = new Set(struct.fields.map((field) => field.tag));
  return fc
    .uniqueArray(
      fc.integer({ min: 0, max: 300 }).filter((tag) => !knownTags.has(tag)),
      {
        minLength: 1,
        maxLength: 2,
      },
    )
    .chain((tags) =>
      fc.tuple(
        ...tags
          .sort((a, b) => a - b)
          .map((tag) => fc.uint8Array({ maxLength: 6 }).map((data) => ({ tag, data }))),
      ),
    );
}

/**
 * Generates structs normalised to `options.version`: fields the version lacks hold their
 * defaults, so decode(encode(x)) must deep-equal x.
 */
export function structArbitrary(
  struct: StructSchema,
  options: ArbitraryOptions,
): fc.Arbitrary<Record<string, unknown>> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of struct.fields) shape[field.name] = fieldArbitrary(field, options);
  // Spread into plain objects: fast-check builds null-prototype records, decoders do not.
  const record = fc.record(shape).map((value) => ({ ...value }));
  if (!options.isFlexible || !options.hasUnknownTaggedFields) return record;
  const unknown = fc.option(unknownTaggedFieldsArbitrary(struct), { freq: 4, nil: undefined });
  return fc
    .tuple(record, unknown)
    .map(([value, unknownTaggedFields]) =>
      unknownTaggedFields === undefined ? value : { ...value, unknownTaggedFields },
    );
}

/** Generates messages of `schema` normalised to `version`. */
export function messageArbitrary(
  schema: MessageSchema,
  version: number,
  choices: { readonly maxArrayLength?: number; readonly hasUnknownTaggedFields?: boolean } = {},
): fc.Arbitrary<Record<string, unknown>> {
  const isFlexible = inRange(schema.flexibleVersions, version);
  return structArbitrary(schema, {
    isFlexible,
    version,
    maxArrayLength: choices.maxArrayLength ?? 2,
    hasUnknownTaggedFields: choices.hasUnknownTaggedFields ?? true,
  });
}

export function versionsOf(schema: MessageSchema): number[] {
  const versions: number[] = [];
  for (let version = schema.validVersions[0]; version <= schema.validVersions[1]; version++) {
    versions.push(version);
  }
  return versions;
}
