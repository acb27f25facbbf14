import { assert } from "../../common/index.js";
import type { ByteWriter } from "../codec/writer.js";
import type { RecordHeader } from "./record.js";

const utf8 = new TextEncoder();

/** A record ready to write: deltas against its batch, header keys already UTF-8. */
export interface RecordToWrite {
  readonly timestampDelta: number;
  readonly offsetDelta: number;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  readonly headers: readonly RecordHeader[];
}

/** The bytes of an unsigned LEB128 varint holding `raw` (a non-negative safe integer). */
function unsignedVarintSize(raw: number): number {
  let size = 1;
  for (let rest = raw; rest >= 0x80; rest = Math.floor(rest / 128)) size++;
  return size;
}

/** The bytes of a zigzag varint or varlong holding `value`. */
export function zigzagVarintSize(value: number): number {
  assert(Number.isSafeInteger(value), "a varlong is a safe integer");
  if (value >= -0x80000000 && value <= 0x7fffffff) {
    return unsignedVarintSize(value >= 0 ? value * 2 : -value * 2 - 1);
  }
  // Beyond 32 bits the zigzag value may pass 2^53, so it is sized as a bigint.
  let raw = value >= 0 ? BigInt(value) << 1n : (BigInt(-value) << 1n) - 1n;
  let size = 1;
  for (; raw >= 0x80n; raw >>= 7n) size++;
  return size;
}

function nullableBytesSize(bytes: Uint8Array | null): number {
  return bytes === null ? 1 : zigzagVarintSize(bytes.length) + bytes.length;
}

/** Header keys as UTF-8, encoded once and used for both sizing and writing. */
function encodeHeaderKeys(headers: readonly RecordHeader[]): Uint8Array[] {
  return headers.map((header) => utf8.encode(header.key));
}

function bodySize(record: RecordToWrite, headerKeys: readonly Uint8Array[]): number {
  let size = 1 + zigzagVarintSize(record.timestampDelta) + zigzagVarintSize(record.offsetDelta);
  size += nullableBytesSize(record.key) + nullableBytesSize(record.value);
  size += zigzagVarintSize(record.headers.length);
  record.headers.forEach((header, index) => {
    size += nullableBytesSize(headerKeys[index] as Uint8Array) + nullableBytesSize(header.value);
  });
  return size;
}

function writeNullableBytes(writer: ByteWriter, bytes: Uint8Array | null): void {
  if (bytes === null) writer.varint(-1);
  else writer.varint(bytes.length).raw(bytes);
}

/** Appends one record (length-prefixed) to `writer`; attributes are written as zero. */
export function writeRecord(writer: ByteWriter, record: RecordToWrite): void {
  const headerKeys = encodeHeaderKeys(record.headers);
  writer.varint(bodySize(record, headerKeys)).int8(0);
  writer.varlong(record.timestampDelta).varint(record.offsetDelta);
  writeNullableBytes(writer, record.key);
  writeNullableBytes(writer, record.value);
  writer.varint(record.headers.length);
  record.headers.forEach((header, index) => {
    writeNullableBytes(writer, headerKeys[index] as Uint8Array);
    writeNullableBytes(writer, header.value);
  });
}
