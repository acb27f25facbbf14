import { assert } from "../../common/index.js";
import { EncodeError } from "./encode-error.js";
import { STRING_BYTES_MAX } from "./reader.js";

const textEncoder = new TextEncoder();
const INITIAL_CAPACITY = 256;
/** Byte fields at least this long are kept as references instead of being copied. */
const REFERENCE_THRESHOLD = 4096;

/**
 * A bytes value made of several pieces, encoded as one field without joining them: the record
 * batches a fetch read from several file pieces, written to the socket as they are.
 */
export class ByteChunks {
  readonly byteLength: number;

  constructor(readonly chunks: readonly Uint8Array[]) {
    this.byteLength = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }
}

/** The bytes of a bytes or records field, as one array or as pieces. */
export type BytesValue = Uint8Array | ByteChunks;

/**
 * A string's UTF-8 bytes. A string past Kafka's limit is a value the caller chose, not a broken
 * invariant, so it is refused as Kafka's serializers refuse it, in the compact form too.
 */
function encodeString(value: string): Uint8Array {
  const encoded = textEncoder.encode(value);
  if (encoded.length > STRING_BYTES_MAX) {
    throw new EncodeError(
      "invalid",
      `string of ${encoded.length} bytes, above ${STRING_BYTES_MAX}`,
    );
  }
  return encoded;
}

/**
 * Writes Kafka's primitive types. Output is a list of chunks: small fields are packed into a
 * growing scratch buffer, large byte fields (record batches) are referenced without a copy, so a
 * response can be written to a socket as it is.
 */
export class ByteWriter {
  private buffer: Uint8Array;
  private view: DataView;
  private position = 0;
  private readonly chunks: Uint8Array[] = [];
  private chunkedLength = 0;

  constructor(capacity = INITIAL_CAPACITY) {
    this.buffer = new Uint8Array(capacity);
    this.view = new DataView(this.buffer.buffer);
  }

  get length(): number {
    return this.chunkedLength + this.position;
  }

  private ensure(count: number): void {
    if (this.position + count <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < this.position + count) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.position));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  int8(value: number): this {
    this.ensure(1);
    this.view.setInt8(this.position++, value);
    return this;
  }

  uint8(value: number): this {
    this.ensure(1);
    this.buffer[this.position++] = value;
    return this;
  }

  bool(value: boolean): this {
    return this.int8(value ? 1 : 0);
  }

  int16(value: number): this {
    this.ensure(2);
    this.view.setInt16(this.position, value);
    this.position += 2;
    return this;
  }

  uint16(value: number): this {
    this.ensure(2);
    this.view.setUint16(this.position, value);
    this.position += 2;
    return this;
  }

  int32(value: number): this {
    this.ensure(4);
    this.view.setInt32(this.position, value);
    this.position += 4;
    return this;
  }

  uint32(value: number): this {
    this.ensure(4);
    this.view.setUint32(this.position, value);
    this.position += 4;
    return this;
  }

  /** An int64 from a safe-integer number. */
  int64(value: number): this {
    assert(Number.isSafeInteger(value), "int64 must be a safe integer");
    this.ensure(8);
    const high = Math.floor(value / 0x100000000);
    this.view.setInt32(this.position, high);
    this.view.setUint32(this.position + 4, value - high * 0x100000000);
    this.position += 8;
    return this;
  }

  int64Big(value: bigint): this {
    this.ensure(8);
    this.view.setBigInt64(this.position, value);
    this.position += 8;
    return this;
  }

  float64(value: number): this {
    this.ensure(8);
    this.view.setFloat64(this.position, value);
    this.position += 8;
    return this;
  }

  unsignedVarint(value: number): this {
    assert(value >= 0 && value <= 0xffffffff, "unsigned varint must fit in 32 bits");
    this.ensure(5);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.position++] = (rest & 0x7f) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.buffer[this.position++] = rest;
    return this;
  }

  /** A zigzag-encoded int32. */
  varint(value: number): this {
    assert(value >= -0x80000000 && value <= 0x7fffffff, "varint must fit in 32 bits");
    return this.unsignedVarint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** A zigzag-encoded int64 from a safe-integer number. */
  varlong(value: number): this {
    assert(Number.isSafeInteger(value), "varlong must be a safe integer");
    if (value >= -0x80000000 && value <= 0x7fffffff) return this.varint(value);
    let raw = value >= 0 ? BigInt(value) << 1n : (BigInt(-value) << 1n) - 1n;
    this.ensure(10);
    while (raw >= 0x80n) {
      this.buffer[this.position++] = Number(raw & 0x7fn) | 0x80;
      raw >>= 7n;
    }
    this.buffer[this.position++] = Number(raw);
    return this;
  }

  /** A UUID given as 32 hex digits. */
  uuid(hex: string): this {
    assert(/^[0-9a-f]{32}$/.test(hex), "uuid must be 32 lowercase hex digits");
    this.ensure(16);
    for (let i = 0; i < 16; i++) {
      this.buffer[this.position++] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    }
    return this;
  }

  /** Raw bytes; large ones are referenced, not copied, so they must not change afterwards. */
  raw(bytes: Uint8Array): this {
    if (bytes.length >= REFERENCE_THRESHOLD) {
      this.flushScratch();
      this.chunks.push(bytes);
      this.chunkedLength += bytes.length;
      return this;
    }
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.position);
    this.position += bytes.length;
    return this;
  }

  string(value: string | null): this {
    if (value === null) return this.int16(-1);
    const encoded = encodeString(value);
    return this.int16(encoded.length).raw(encoded);
  }

  compactString(value: string | null): this {
    if (value === null) return this.unsignedVarint(0);
    const encoded = encodeString(value);
    return this.unsignedVarint(encoded.length + 1).raw(encoded);
  }

  bytesField(value: BytesValue | null): this {
    if (value === null) return this.int32(-1);
    if (value instanceof ByteChunks) return this.int32(value.byteLength).rawChunks(value);
    return this.int32(value.length).raw(value);
  }

  compactBytes(value: BytesValue | null): this {
    if (value === null) return this.unsignedVarint(0);
    if (value instanceof ByteChunks) {
      return this.unsignedVarint(value.byteLength + 1).rawChunks(value);
    }
    return this.unsignedVarint(value.length + 1).raw(value);
  }

  private rawChunks(value: ByteChunks): this {
    for (const chunk of value.chunks) this.raw(chunk);
    return this;
  }

  arrayLength(count: number | null): this {
    return this.int32(count === null ? -1 : count);
  }

  compactArrayLength(count: number | null): this {
    return this.unsignedVarint(count === null ? 0 : count + 1);
  }

  /** Overwrites an int32 at `at` (a value of `length` taken earlier), e.g. a size prefix. */
  patchInt32(at: number, value: number): void {
    assert(at >= this.chunkedLength, "patch target must still be in the scratch buffer");
    this.view.setInt32(at - this.chunkedLength, value);
  }

  private flushScratch(): void {
    if (this.position === 0) return;
    this.chunks.push(this.buffer.subarray(0, this.position));
    this.chunkedLength += this.position;
    this.buffer = new Uint8Array(Math.max(INITIAL_CAPACITY, this.buffer.length));
    this.view = new DataView(this.buffer.buffer);
    this.position = 0;
  }

  /** The output as chunks, ready for a vectored write. The writer must not be used after. */
  finishChunks(): Uint8Array[] {
    this.flushScratch();
    return this.chunks;
  }

  /** The output as one contiguous array. The writer must not be used after. */
  finish(): Uint8Array {
    if (this.chunks.length === 0) return this.buffer.subarray(0, this.position);
    const chunks = this.finishChunks();
    if (chunks.length === 1) return chunks[0] as Uint8Array;
    const out = new Uint8Array(this.chunkedLength);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}
