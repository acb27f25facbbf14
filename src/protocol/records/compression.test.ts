import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compressionTypes } from "./attributes.js";
import { compressRecords, decompressRecords, decompressionLimitFor } from "./compression.js";
import { snappyCompressRawBlock, XERIAL_BLOCK_BYTES } from "./snappy.js";

const hello = new TextEncoder().encode("hello");
const MiB = 1024 * 1024;
const arbCodec = fc.constantFrom(...compressionTypes);

function hex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  return Uint8Array.from(clean.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function decompressOk(compression: Parameters<typeof decompressRecords>[0], bytes: Uint8Array) {
  const result = decompressRecords(compression, bytes, MiB);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
  return result.bytes;
}

test("every codec round-trips arbitrary bytes", () => {
  fc.assert(
    fc.property(arbCodec, fc.uint8Array({ maxLength: 70000 }), (codec, bytes) => {
      const compressed = compressRecords(codec, bytes);
      const result = decompressRecords(codec, compressed, 1 + bytes.length);
      assert.ok(result.ok);
      assert.deepEqual(result.bytes, bytes);
    }),
    { seed: 77, numRuns: 60 },
  );
});

test("a hand-built gzip member with a stored deflate block decompresses", () => {
  const member = hex("1f8b 0800 00000000 00ff 01 0500 faff 68656c6c6f 86a61036 05000000");
  assert.deepEqual(decompressOk("gzip", member), hello);
});

test("gzip output starts with the gzip magic 1F 8B and method 8", () => {
  const compressed = compressRecords("gzip", hello);
  assert.deepEqual([...compressed.subarray(0, 3)], [0x1f, 0x8b, 0x08]);
});

test("a hand-built raw snappy block (librdkafka's form) decompresses", () => {
  // Preamble varint 5, then a literal tag for five bytes: (5 - 1) << 2.
  assert.deepEqual(decompressOk("snappy", hex("05 10 68656c6c6f")), hello);
});

test("a raw snappy block from the library starts with its length varint and decompresses", () => {
  const data = new Uint8Array(300).fill(42);
  const block = snappyCompressRawBlock(data);
  assert.deepEqual([...block.subarray(0, 2)], [0xac, 0x02]);
  assert.deepEqual(decompressOk("snappy", block), data);
});

test("a hand-built xerial stream of two blocks decompresses", () => {
  const header = "82534e4150505900 00000001 00000001";
  const stream = hex(`${header} 00000007 0510 68656c6c6f 00000003 01 00 21`);
  assert.deepEqual(decompressOk("snappy", stream), new TextEncoder().encode("hello!"));
});

test("snappy output uses xerial framing with 32 KiB blocks, as the Java producer", () => {
  const data = new Uint8Array(XERIAL_BLOCK_BYTES + 10).fill(1);
  const stream = compressRecords("snappy", data);
  assert.deepEqual([...stream.subarray(0, 16)], [...hex("82534e4150505900 00000001 00000001")]);
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const firstLength = view.getInt32(16);
  const firstBlock = stream.subarray(20, 20 + firstLength);
  assert.deepEqual([...firstBlock.subarray(0, 3)], [0x80, 0x80, 0x02]);
  assert.deepEqual(decompressOk("snappy", stream), data);
});

test("a hand-built LZ4 frame with one uncompressed block decompresses", () => {
  // FLG 0x60 (version 1, independent blocks), BD 0x40 (64 KiB), header checksum 0x82.
  const frame = hex("04224d18 6040 82 05000080 68656c6c6f 00000000");
  assert.deepEqual(decompressOk("lz4", frame), hello);
});

test("LZ4 output is one frame: magic 04 22 4D 18, version 1, independent blocks", () => {
  const frame = compressRecords("lz4", new Uint8Array(5000).fill(3));
  assert.deepEqual([...frame.subarray(0, 4)], [0x04, 0x22, 0x4d, 0x18]);
  assert.equal(frame[4]! & 0xe0, 0x60);
  assert.deepEqual([...frame.subarray(frame.length - 4)], [0, 0, 0, 0]);
});

test("concatenated LZ4 frames and skippable frames decompress as one stream", () => {
  const first = compressRecords("lz4", hello);
  const skippable = hex("502a4d18 02000000 abcd");
  const second = compressRecords("lz4", new TextEncoder().encode(" world"));
  const stream = new Uint8Array([...first, ...skippable, ...second]);
  assert.deepEqual(decompressOk("lz4", stream), new TextEncoder().encode("hello world"));
});

test("a hand-built zstd frame with one raw block decompresses", () => {
  // Descriptor 0x20: single segment, one-byte content size 5; block header 0x29: last, raw, 5.
  const frame = hex("28b52ffd 20 05 290000 68656c6c6f");
  assert.deepEqual(decompressOk("zstd", frame), hello);
});

test("zstd output starts with the zstd magic 28 B5 2F FD", () => {
  const frame = compressRecords("zstd", hello);
  assert.deepEqual([...frame.subarray(0, 4)], [0x28, 0xb5, 0x2f, 0xfd]);
});

test("garbage is decompressionFailed for every codec, never an exception", () => {
  const garbage = hex("0102030405060708090a0b0c0d0e0f10 1112131415161718");
  for (const codec of compressionTypes.filter((type) => type !== "none")) {
    const result = decompressRecords(codec, garbage, MiB);
    assert.ok(!result.ok, codec);
    assert.equal(result.error.kind, "decompressionFailed", codec);
  }
});

test("truncated streams are decompressionFailed for every codec", () => {
  const data = new Uint8Array(50000).map((_, index) => (index * 7919) % 251);
  for (const codec of compressionTypes.filter((type) => type !== "none")) {
    const compressed = compressRecords(codec, data);
    const result = decompressRecords(codec, compressed.subarray(0, compressed.length - 3), MiB);
    assert.ok(!result.ok, codec);
    assert.equal(result.error.kind, "decompressionFailed", codec);
  }
});

test("a decompression bomb is refused with decompressedTooLarge by every codec", () => {
  const zeros = new Uint8Array(8 * MiB);
  for (const codec of compressionTypes.filter((type) => type !== "none")) {
    const bomb = compressRecords(codec, zeros);
    assert.ok(bomb.length < zeros.length / 16, `${codec} bomb is small`);
    const result = decompressRecords(codec, bomb, MiB);
    assert.ok(!result.ok, codec);
    assert.deepEqual(result.error, {
      kind: "decompressedTooLarge",
      compression: codec,
      maxDecompressedBytes: MiB,
    });
  }
});

test("a zstd bomb without a content size is stopped while streaming", () => {
  // Descriptor 0x00 (no content size, window descriptor follows), then 100 RLE blocks of
  // 128 KiB each: header (size << 3) | (type 1 << 1) | last.
  const block = (isLast: boolean) => {
    const word = 128 * 1024 * 8 + 2 + (isLast ? 1 : 0);
    return [word & 0xff, (word >> 8) & 0xff, (word >> 16) & 0xff, 0x00];
  };
  const blocks: number[] = [];
  for (let index = 0; index < 100; index++) blocks.push(...block(index === 99));
  const frame = new Uint8Array([...hex("28b52ffd 00 58"), ...blocks]);
  const result = decompressRecords("zstd", frame, MiB);
  assert.ok(!result.ok);
  assert.equal(result.error.kind, "decompressedTooLarge");
  const allowed = decompressRecords("zstd", frame, 100 * 128 * 1024);
  assert.ok(allowed.ok);
  assert.equal(allowed.bytes.length, 100 * 128 * 1024);
});

test("output exactly at the limit is accepted and one byte over is refused", () => {
  const data = new Uint8Array(100000).fill(9);
  for (const codec of compressionTypes.filter((type) => type !== "none")) {
    const compressed = compressRecords(codec, data);
    // LZ4's limit is checked against a bound (a block maximum per block), so it is exact only
    // up to one block; see lz4.ts.
    if (codec !== "lz4") assert.ok(decompressRecords(codec, compressed, data.length).ok, codec);
    assert.ok(!decompressRecords(codec, compressed, data.length - 1).ok, codec);
  }
});

test("the decompression limit is twice message.max.bytes with an 8 MiB floor", () => {
  assert.equal(decompressionLimitFor({ messageMaxBytes: 1048588 }), 8 * MiB);
  assert.equal(decompressionLimitFor({ messageMaxBytes: 10 * MiB }), 20 * MiB);
});
