import { DecodeError } from "./decode-error.js";

const textDecoder = new TextDecoder("utf-8", { fatal: false });
/** Kafka's limit on a string's UTF-8 length, in the classic and the compact form alike. */
export const STRING_BYTES_MAX = 0x7fff;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/**
 * Reads Kafka's primitive types from a byte array. Every read checks bounds first and throws a
 * DecodeError, never a RangeError; lengths are checked against the bytes left before anything is
 * allocated. Byte fields are returned as views of the input, not copies.
 */
export class ByteReader {
  private readonly view: DataView;
  position: number;
  readonly end: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    end = bytes.length,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.position = start;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  /** Throws unless `count` more bytes are available. */
  need(count: number): void {
    if (count > this.end - this.position) {
      throw new DecodeError(
        "truncated",
        `need ${count} bytes, have ${this.remaining}`,
        this.position,
      );
    }
  }

  int8(): number {
    this.need(1);
    return this.view.getInt8(this.position++);
  }

  uint8(): number {
    this.need(1);
    return this.bytes[this.position++] as number;
  }

  bool(): boolean {
    return this.int8() !== 0;
  }

  int16(): number {
    this.need(2);
    const value = this.view.getInt16(this.position);
    this.position += 2;
    return value;
  }

  uint16(): number {
    this.need(2);
    const value = this.view.getUint16(this.position);
    this.position += 2;
    return value;
  }

  int32(): number {
    this.need(4);
    const value = this.view.getInt32(this.position);
    this.position += 4;
    return value;
  }

  uint32(): number {
    this.need(4);
    const value = this.view.getUint32(this.position);
    this.position += 4;
    return value;
  }

  /** An int64 as a number; values beyond 2^53 are a decode error (DESIGN: 64-bit integers). */
  int64(): number {
    this.need(8);
    const high = this.view.getInt32(this.position);
    const low = this.view.getUint32(this.position + 4);
    const start = this.position;
    this.position += 8;
    // The high word alone decides, except for -2^53: it shares the high word -0x200000 with
    // safe values but is itself unsafe, so it needs a zero low word to be refused.
    if (high > -0x200000 && high < 0x200000) return high * 0x100000000 + low;
    if (high === -0x200000 && low !== 0) return high * 0x100000000 + low;
    throw new DecodeError("invalid", "int64 outside the safe integer range", start);
  }

  /** An int64 as a bigint, for the rare fields that use the whole range. */
  int64Big(): bigint {
    this.need(8);
    const value = this.view.getBigInt64(this.position);
    this.position += 8;
    return value;
  }

  float64(): number {
    this.need(8);
    const value = this.view.getFloat64(this.position);
    this.position += 8;
    return value;
  }

  /** An unsigned LEB128 varint of at most 5 bytes (32 bits). */
  unsignedVarint(): number {
    const start = this.position;
    const bytes = this.bytes;
    let result = 0;
    // Shifts of 0 to 21 stay within 31 bits; the fifth byte is scaled by 2^28 as a number.
    for (let shift = 0; shift < 28; shift += 7) {
      if (this.position >= this.end) throw new DecodeError("truncated", "varint", start);
      const byte = bytes[this.position++] as number;
      result |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
    if (this.position >= this.end) throw new DecodeError("truncated", "varint", start);
    const byte = bytes[this.position++] as number;
    if ((byte & 0x80) === 0 && byte <= 0x0f) return result + byte * 0x10000000;
    throw new DecodeError("invalid", "unsigned varint longer than 32 bits", start);
  }

  /** A zigzag-encoded signed varint of 32 bits. */
  varint(): number {
    const raw = this.unsignedVarint();
    return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
  }

  /**
   * A zigzag-encoded signed varlong; values beyond 2^53 are a decode error. Up to seven bytes
   * (49 bits) are read as a number; only a longer one goes through a bigint.
   */
  varlong(): number {
    const start = this.position;
    const bytes = this.bytes;
    let raw = 0;
    let scale = 1;
    for (let index = 0; index < 7; index++) {
      if (this.position >= this.end) throw new DecodeError("truncated", "varlong", start);
      const byte = bytes[this.position++] as number;
      raw += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
      scale *= 128;
    }
    this.position = start;
    return this.varlongBig();
  }

  private varlongBig(): number {
    const start = this.position;
    let raw = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.position >= this.end) throw new DecodeError("truncated", "varlong", start);
      const byte = this.bytes[this.position++] as number;
      raw |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        if (raw >= 1n << 64n) break;
        const value = (raw >> 1n) ^ -(raw & 1n);
        if (value > MAX_SAFE || value < MIN_SAFE) break;
        return Number(value);
      }
    }
    throw new DecodeError("invalid", "varlong out of range", start);
  }

  uuid(): string {
    this.need(16);
    let hex = "";
    for (let i = 0; i < 16; i++) {
      hex += (this.bytes[this.position + i] as number).toString(16).padStart(2, "0");
    }
    this.position += 16;
    return hex;
  }

  /** `count` raw bytes as a view of the input. */
  raw(count: number): Uint8Array {
    this.need(count);
    const slice = this.bytes.subarray(this.position, this.position + count);
    this.position += count;
    return slice;
  }

  private utf8(length: number): string {
    this.need(length);
    const text = textDecoder.decode(this.bytes.subarray(this.position, this.position + length));
    this.position += length;
    return text;
  }

  /** STRING / NULLABLE_STRING: int16 length, -1 is null. */
  string(nullable: boolean): string | null {
    const start = this.position;
    const length = this.int16();
    if (length === -1 && nullable) return null;
    if (length < 0) throw new DecodeError("invalid", `string length ${length}`, start);
    return this.utf8(length);
  }

  /** COMPACT_STRING / COMPACT_NULLABLE_STRING: unsigned varint length + 1, 0 is null. */
  compactString(nullable: boolean): string | null {
    const start = this.position;
    const lengthPlusOne = this.unsignedVarint();
    if (lengthPlusOne === 0) {
      if (nullable) return null;
      throw new DecodeError("invalid", "null in a non-nullable compact string", start);
    }
    // Kafka's generated readers refuse a compact string longer than the classic form allows.
    const length = lengthPlusOne - 1;
    if (length > STRING_BYTES_MAX) {
      throw new DecodeError("invalid", `compact string length ${length}`, start);
    }
    return this.utf8(length);
  }

  /** BYTES / NULLABLE_BYTES: int32 length, -1 is null. */
  bytesField(nullable: boolean): Uint8Array | null {
    const start = this.position;
    const length = this.int32();
    if (length === -1 && nullable) return null;
    if (length < 0) throw new DecodeError("invalid", `bytes length ${length}`, start);
    return this.raw(length);
  }

  /** COMPACT_BYTES / COMPACT_NULLABLE_BYTES: unsigned varint length + 1, 0 is null. */
  compactBytes(nullable: boolean): Uint8Array | null {
    const start = this.position;
    const lengthPlusOne = this.unsignedVarint();
    if (lengthPlusOne === 0) {
      if (nullable) return null;
      throw new DecodeError("invalid", "null in non-nullable compact bytes", start);
    }
    return this.raw(lengthPlusOne - 1);
  }

  /**
   * An array length (int32, -1 is null). A count larger than the bytes left cannot be honest,
   * since every element takes at least one byte, so it is refused before any allocation.
   */
  arrayLength(nullable: boolean, minElementBytes = 1): number | null {
    const start = this.position;
    const count = this.int32();
    return this.checkCount(count, nullable, minElementBytes, start);
  }

  /** A compact array length (unsigned varint count + 1, 0 is null), checked like arrayLength. */
  compactArrayLength(nullable: boolean, minElementBytes = 1): number | null {
    const start = this.position;
    const count = this.unsignedVarint() - 1;
    return this.checkCount(count, nullable, minElementBytes, start);
  }

  private checkCount(
    count: number,
    nullable: boolean,
    minElementBytes: number,
    start: number,
  ): number | null {
    if (count === -1) {
      if (nullable) return null;
      throw new DecodeError("invalid", "null in a non-nullable array", start);
    }
    if (count < 0) throw new DecodeError("invalid", `array length ${count}`, start);
    if (count * Math.max(minElementBytes, 1) > this.remaining) {
      throw new DecodeError("tooLarge", `array of ${count} in ${this.remaining} bytes`, start);
    }
    return count;
  }
}
