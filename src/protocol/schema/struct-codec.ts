import type { ByteReader } from "../codec/reader.js";
import type { ByteWriter } from "../codec/writer.js";
import { assert } from "../../common/index.js";
import { EncodeError } from "../codec/encode-error.js";
import { defaultFactory, defaultTest } from "./defaults.js";
import { compileField } from "./field-codec.js";
import type { FieldContext, StructCodec } from "./field-codec.js";
import type { ReadOp, WriteOp } from "./primitive-codec.js";
import { readTaggedFields, writeTaggedFields } from "./tagged-fields.js";
import type { TaggedFieldOps } from "./tagged-fields.js";
import type { FieldSchema, StructSchema } from "./types.js";
import { inRange } from "./types.js";

export type { StructCodec } from "./field-codec.js";

/** Compiled codecs per struct, per version and flexibility; schemas are immutable, so keep them. */
const cache = new WeakMap<StructSchema, Map<number, StructCodec>>();

/**
 * The codec of `struct` in `version`, compiled on first use into flat lists of field operations
 * and cached, so that decoding does no per-field lookups.
 */
export function structCodec(
  struct: StructSchema,
  version: number,
  isFlexible: boolean,
): StructCodec {
  let byVersion = cache.get(struct);
  if (byVersion === undefined) {
    byVersion = new Map();
    cache.set(struct, byVersion);
  }
  const key = version * 2 + (isFlexible ? 1 : 0);
  let codec = byVersion.get(key);
  if (codec === undefined) {
    codec = compileStruct(struct, version, isFlexible);
    byVersion.set(key, codec);
  }
  return codec;
}

interface DecodeStep {
  readonly name: string;
  readonly read: ReadOp;
}

interface EncodeStep {
  readonly name: string;
  readonly write: WriteOp;
}

/** Where a field travels in one version. */
function placement(
  field: FieldSchema,
  version: number,
  isFlexible: boolean,
): "regular" | "tagged" | "absent" {
  if (isFlexible && inRange(field.taggedVersions, version)) return "tagged";
  return inRange(field.versions, version) ? "regular" : "absent";
}

/** A check that a field the version lacks holds its default, as Kafka's generated writers do. */
function absentCheck(field: FieldSchema, version: number): WriteOp {
  const isDefault = defaultTest(field);
  return (_writer, value) => {
    if (!isDefault(value)) {
      throw new EncodeError(
        "unsupportedVersion",
        `field ${field.name} cannot be set in version ${version}`,
      );
    }
  };
}

/** A write op that substitutes the default for a missing (undefined) value. */
function withDefault(write: WriteOp, field: FieldSchema): WriteOp {
  const makeDefault = defaultFactory(field);
  return (writer, value) => write(writer, value === undefined ? makeDefault() : value);
}

function compileStruct(struct: StructSchema, version: number, isFlexible: boolean): StructCodec {
  const context: FieldContext = {
    version,
    isFlexible,
    compileStruct: (nested) => structCodec(nested, version, isFlexible),
  };
  const decodeSteps: DecodeStep[] = [];
  const encodeSteps: EncodeStep[] = [];
  const tagged: TaggedFieldOps[] = [];
  let minBytes = isFlexible ? 1 : 0;
  for (const field of struct.fields) {
    const where = placement(field, version, isFlexible);
    if (where === "absent") {
      decodeSteps.push({ name: field.name, read: defaultFactory(field) });
      if (field.ignorable !== true) {
        encodeSteps.push({ name: field.name, write: absentCheck(field, version) });
      }
      continue;
    }
    const ops = compileField(field, context);
    if (where === "tagged") {
      decodeSteps.push({ name: field.name, read: defaultFactory(field) });
      const tag = field.tag;
      assert(tag !== undefined, `tagged field ${field.name} has no tag`);
      tagged.push({
        tag,
        name: field.name,
        read: ops.read,
        write: ops.write,
        isDefault: defaultTest(field),
      });
      continue;
    }
    decodeSteps.push({ name: field.name, read: ops.read });
    encodeSteps.push({ name: field.name, write: withDefault(ops.write, field) });
    minBytes += ops.minBytes;
  }
  tagged.sort((a, b) => a.tag - b.tag);
  return assembleCodec({ decodeSteps, encodeSteps, tagged, isFlexible, minBytes });
}

interface CompiledParts {
  readonly decodeSteps: readonly DecodeStep[];
  readonly encodeSteps: readonly EncodeStep[];
  readonly tagged: readonly TaggedFieldOps[];
  readonly isFlexible: boolean;
  readonly minBytes: number;
}

function assembleCodec(parts: CompiledParts): StructCodec {
  const { decodeSteps, encodeSteps, tagged, isFlexible, minBytes } = parts;
  const taggedByTag = new Map(tagged.map((field) => [field.tag, field]));
  return {
    minBytes,
    decode(reader: ByteReader): Record<string, unknown> {
      const value: Record<string, unknown> = {};
      for (let i = 0; i < decodeSteps.length; i++) {
        const step = decodeSteps[i] as DecodeStep;
        value[step.name] = step.read(reader);
      }
      if (isFlexible) readTaggedFields(reader, value, taggedByTag);
      return value;
    },
    encode(value: Record<string, unknown>, writer: ByteWriter): void {
      for (let i = 0; i < encodeSteps.length; i++) {
        const step = encodeSteps[i] as EncodeStep;
        step.write(writer, value[step.name]);
      }
      if (isFlexible) writeTaggedFields(writer, value, tagged);
    },
  };
}
