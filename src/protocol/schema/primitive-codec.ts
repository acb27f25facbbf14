import type { ByteReader } from "../codec/reader.js";
import type { BytesValue, ByteWriter } from "../codec/writer.js";
import { assert } from "../../common/index.js";
import { EncodeError } from "../codec/encode-error.js";
import type { PrimitiveType } from "./types.js";

export type ReadOp = (reader: ByteReader) => unknown;

/** Writes one value of a field; the value has already been replaced by its default if missing. */
export type WriteOp = (writer: ByteWriter, value: unknown) => void;

/** How one primitive is read and written in one version, and the fewest bytes it can take. */
export interface PrimitiveOps {
  readonly read: ReadOp;
  readonly write: WriteOp;
  readonly minBytes: number;
}

/** Encoding choices that vary by version: compact (flexible) forms and nullability. */
export interface Encoding {
  readonly isCompact: boolean;
  readonly isNullable: boolean;
  /** The field's name, for error messages. */
  readonly name: string;
}

function fixed(read: ReadOp, write: WriteOp, minBytes: number): PrimitiveOps {
  return { read, write, minBytes };
}

const FIXED_OPS: Partial<Record<PrimitiveType, PrimitiveOps>> = {
  bool: fixed(
    (r) => r.bool(),
    (w, v) => w.bool(v as boolean),
    1,
  ),
  int8: fixed(
    (r) => r.int8(),
    (w, v) => w.int8(v as number),
    1,
  ),
  int16: fixed(
    (r) => r.int16(),
    (w, v) => w.int16(v as number),
    2,
  ),
  uint16: fixed(
    (r) => r.uint16(),
    (w, v) => w.uint16(v as number),
    2,
  ),
  int32: fixed(
    (r) => r.int32(),
    (w, v) => w.int32(v as number),
    4,
  ),
  uint32: fixed(
    (r) => r.uint32(),
    (w, v) => w.uint32(v as number),
    4,
  ),
  int64: fixed(
    (r) => r.int64(),
    (w, v) => w.int64(v as number),
    8,
  ),
  float64: fixed(
    (r) => r.float64(),
    (w, v) => w.float64(v as number),
    8,
  ),
  uuid: fixed(
    (r) => r.uuid(),
    (w, v) => w.uuid(v as string),
    16,
  ),
};

/** Refuses a null where the version does not allow one. */
export function nullRefusal(encoding: Encoding): EncodeError {
  return new EncodeError("invalid", `field ${encoding.name} is not nullable in this version`);
}

function stringOps(encoding: Encoding): PrimitiveOps {
  const { isCompact, isNullable } = encoding;
  const read: ReadOp = isCompact ? (r) => r.compactString(isNullable) : (r) => r.string(isNullable);
  const write: WriteOp = (w, v) => {
    if (v === null && !isNullable) throw nullRefusal(encoding);
    if (isCompact) w.compactString(v as string | null);
    else w.string(v as string | null);
  };
  return { read, write, minBytes: isCompact ? 1 : 2 };
}

function bytesOps(encoding: Encoding): PrimitiveOps {
  const { isCompact, isNullable } = encoding;
  const read: ReadOp = isCompact
    ? (r) => r.compactBytes(isNullable)
    : (r) => r.bytesField(isNullable);
  const write: WriteOp = (w, v) => {
    if (v === null && !isNullable) throw nullRefusal(encoding);
    if (isCompact) w.compactBytes(v as BytesValue | null);
    else w.bytesField(v as BytesValue | null);
  };
  return { read, write, minBytes: isCompact ? 1 : 4 };
}

export function primitiveOps(type: PrimitiveType, encoding: Encoding): PrimitiveOps {
  if (type === "string") return stringOps(encoding);
  // A records field travels as (nullable) bytes; its content is left to the record batch code.
  if (type === "bytes" || type === "records") return bytesOps(encoding);
  const ops = FIXED_OPS[type];
  assert(ops !== undefined, `no codec for primitive type ${type}`);
  return ops;
}
