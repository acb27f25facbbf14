import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ByteReader } from "./reader.js";
import { ByteWriter } from "./writer.js";
import { isDecodeError } from "./decode-error.js";
import { isEncodeError } from "./encode-error.js";

/** Kafka refuses strings longer than this in both the classic and the compact form. */
const STRING_BYTES_MAX = 0x7fff;

function int64Bytes(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value);
  return bytes;
}

function readInt64(value: bigint): number {
  return new ByteReader(int64Bytes(value)).int64();
}

test("int64 reads both ends of the safe integer range", () => {
  assert.equal(readInt64(BigInt(Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER);
  assert.equal(readInt64(BigInt(Number.MIN_SAFE_INTEGER)), Number.MIN_SAFE_INTEGER);
});

test("int64 refuses the first value past either end of the safe range", () => {
  // -2^53 shares its high word with safe values; accepting it would let the writer's
  // safe-integer assertion end the process when the value is echoed back.
  for (const value of [
    BigInt(Number.MAX_SAFE_INTEGER) + 1n,
    BigInt(Number.MIN_SAFE_INTEGER) - 1n,
  ]) {
    assert.throws(
      () => readInt64(value),
      (error) => isDecodeError(error) && error.kind === "invalid",
      `int64 ${value}`,
    );
  }
});

test("every int64 the reader accepts, the writer writes back to the same bytes", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), (value) => {
      const bytes = int64Bytes(value);
      let read: number;
      try {
        read = new ByteReader(bytes).int64();
      } catch (error) {
        assert.ok(isDecodeError(error));
        assert.ok(
          value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER),
        );
        return;
      }
      assert.deepEqual(new ByteWriter().int64(read).finish(), bytes);
    }),
    { seed: 4242, numRuns: 500, examples: [[-(1n << 53n)], [(1n << 53n) - 1n], [-1n], [0n]] },
  );
});

test("varint and varlong round-trip their edge values", () => {
  const varints = [0, -1, 1, 63, -64, 64, -65, 0x7fffffff, -0x80000000];
  for (const value of varints) {
    assert.equal(new ByteReader(new ByteWriter().varint(value).finish()).varint(), value);
  }
  const varlongs = [
    ...varints,
    2 ** 31,
    -(2 ** 31) - 1,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
  ];
  for (const value of varlongs) {
    assert.equal(new ByteReader(new ByteWriter().varlong(value).finish()).varlong(), value);
  }
});

test("the zigzag forms of int32's ends are Kafka's bytes", () => {
  assert.deepEqual(
    [...new ByteWriter().varint(-0x80000000).finish()],
    [0xff, 0xff, 0xff, 0xff, 0x0f],
  );
  assert.deepEqual(
    [...new ByteWriter().varint(0x7fffffff).finish()],
    [0xfe, 0xff, 0xff, 0xff, 0x0f],
  );
  assert.deepEqual([...new ByteWriter().varint(-1).finish()], [0x01]);
});

test("an unsigned varint above 32 bits is refused", () => {
  const tooLong = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x10]);
  assert.throws(() => new ByteReader(tooLong).unsignedVarint(), isDecodeError);
  const sixBytes = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x00]);
  assert.throws(() => new ByteReader(sixBytes).unsignedVarint(), isDecodeError);
  const max = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]);
  assert.equal(new ByteReader(max).unsignedVarint(), 0xffffffff);
});

test("a string longer than 32767 bytes is an encode refusal in both forms, as in Kafka", () => {
  const long = "x".repeat(STRING_BYTES_MAX + 1);
  assert.throws(() => new ByteWriter().string(long), isEncodeError);
  assert.throws(() => new ByteWriter().compactString(long), isEncodeError);
  const longest = "x".repeat(STRING_BYTES_MAX);
  const compact = new ByteWriter().compactString(longest).finish();
  assert.equal(new ByteReader(compact).compactString(false), longest);
});

test("a compact string declaring more than 32767 bytes is refused, as Kafka's readers do", () => {
  const writer = new ByteWriter().unsignedVarint(STRING_BYTES_MAX + 2);
  writer.raw(new Uint8Array(STRING_BYTES_MAX + 1).fill(0x61));
  assert.throws(
    () => new ByteReader(writer.finish()).compactString(true),
    (error) => isDecodeError(error) && error.kind === "invalid",
  );
});
