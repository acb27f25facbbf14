import type { ByteReader } from "../codec/reader.js";
import type { ByteWriter } from "../codec/writer.js";
import { nullRefusal, primitiveOps } from "./primitive-codec.js";
import type { Encoding, ReadOp, WriteOp } from "./primitive-codec.js";
import type { FieldSchema, PrimitiveType, StructSchema } from "./types.js";
import { inRange } from "./types.js";

/** A compiled struct, as the struct compiler returns it; declared here to avoid an import cycle. */
export interface StructCodec {
  decode(reader: ByteReader): Record<string, unknown>;
  encode(value: Record<string, unknown>, writer: ByteWriter): void;
  /** The fewest bytes one encoded instance takes in this version. */
  readonly minBytes: number;
}

/** Compiles a nested struct for the same version and flexibility. */
export type StructCompiler = (struct: StructSchema) => StructCodec;

/** How one field is read and written in one version. */
export interface FieldOps {
  readonly read: ReadOp;
  readonly write: WriteOp;
  readonly minBytes: number;
}

/** What the field compiler needs to know about the version being compiled. */
export interface FieldContext {
  readonly version: number;
  readonly isFlexible: boolean;
  readonly compileStruct: StructCompiler;
}

export function fieldEncoding(field: FieldSchema, context: FieldContext): Encoding {
  // RequestHeader's ClientId keeps its old encoding in flexible versions (field-level override).
  const isCompact =
    field.flexibleVersions !== undefined
      ? inRange(field.flexibleVersions, context.version)
      : context.isFlexible;
  return {
    isCompact,
    isNullable: inRange(field.nullableVersions, context.version),
    name: field.name,
  };
}

/** Compiles the read and write operations of one field present in the context's version. */
export function compileField(field: FieldSchema, context: FieldContext): FieldOps {
  const encoding = fieldEncoding(field, context);
  const type = field.type;
  if (typeof type === "string") return primitiveOps(type, encoding);
  if ("struct" in type) return structOps(context.compileStruct(type.struct), encoding);
  const element = elementOps(type.array, encoding, context);
  return arrayOps(element, encoding);
}

function elementOps(
  element: PrimitiveType | StructSchema,
  encoding: Encoding,
  context: FieldContext,
): FieldOps {
  // Array elements are never null; only the array itself may be.
  const elementEncoding = { ...encoding, isNullable: false };
  if (typeof element === "string") return primitiveOps(element, elementEncoding);
  return structOps(context.compileStruct(element), elementEncoding);
}

/**
 * A struct field; a nullable one is preceded by an int8 marker (-1 null, 1 present), as Kafka
 * does.
 */
function structOps(codec: StructCodec, encoding: Encoding): FieldOps {
  if (!encoding.isNullable) {
    return {
      read: (r) => codec.decode(r),
      write: (w, v) => {
        if (v === null) throw nullRefusal(encoding);
        codec.encode(v as Record<string, unknown>, w);
      },
      minBytes: codec.minBytes,
    };
  }
  return {
    read: (r) => (r.int8() < 0 ? null : codec.decode(r)),
    write: (w, v) => {
      if (v === null) {
        w.int8(-1);
        return;
      }
      w.int8(1);
      codec.encode(v as Record<string, unknown>, w);
    },
    minBytes: 1,
  };
}

function arrayOps(element: FieldOps, encoding: Encoding): FieldOps {
  const { isCompact, isNullable } = encoding;
  const readElement = element.read;
  const writeElement = element.write;
  const minElementBytes = element.minBytes;
  const read: ReadOp = (r) => {
    const count = isCompact
      ? r.compactArrayLength(isNullable, minElementBytes)
      : r.arrayLength(isNullable, minElementBytes);
    if (count === null) return null;
    const values: unknown[] = [];
    for (let i = 0; i < count; i++) values.push(readElement(r));
    return values;
  };
  const write: WriteOp = (w, v) => {
    if (v === null) {
      if (!isNullable) throw nullRefusal(encoding);
      if (isCompact) w.compactArrayLength(null);
      else w.arrayLength(null);
      return;
    }
    const values = v as readonly unknown[];
    if (isCompact) w.compactArrayLength(values.length);
    else w.arrayLength(values.length);
    for (let i = 0; i < values.length; i++) writeElement(w, values[i]);
  };
  return { read, write, minBytes: isCompact ? 1 : 4 };
}
