import { test } from "node:test";
import assert from "node:assert/strict";
import { compressRecords } from "./compression.js";
import { inflateChunks, type RecordsInflater } from "./inflate-chunks.js";

const MiB = 1024 * 1024;

function drain(inflater: RecordsInflater): { pieces: number[]; bytes: Uint8Array } | string {
  const pieces: Uint8Array[] = [];
  for (;;) {
    const step = inflater.next();
    if (step.kind === "failed") return step.error.kind;
    if (step.kind === "end") break;
    pieces.push(step.bytes);
  }
  return { pieces: pieces.map((piece) => piece.length), bytes: Buffer.concat(pieces) };
}

test("zstd, lz4 and snappy inflate a piece at a time, each bounded by the codec", () => {
  const input = new Uint8Array(6 * MiB);
  for (let index = 0; index < input.length; index += 4096) input[index] = index % 251;
  const bounds = { zstd: 64 * 1024, lz4: 4 * MiB, snappy: 32 * 1024 } as const;
  for (const [compression, bound] of Object.entries(bounds) as [keyof typeof bounds, number][]) {
    const drained = drain(inflateChunks(compression, compressRecords(compression, input)));
    assert.ok(typeof drained !== "string", `${compression}: ${String(drained)}`);
    assert.ok(Math.max(...drained.pieces) <= bound, `${compression} pieces ${drained.pieces}`);
    assert.ok(drained.pieces.length > 1, compression);
    assert.deepEqual(drained.bytes, Buffer.from(input), compression);
  }
});

test("a cut or damaged stream fails instead of yielding what it cannot", () => {
  const input = new Uint8Array(300_000).fill(3);
  for (const compression of ["zstd", "lz4", "snappy", "gzip"] as const) {
    const compressed = compressRecords(compression, input);
    const cut = compressed.subarray(0, compressed.length - 3);
    assert.equal(drain(inflateChunks(compression, cut)), "decompressionFailed", compression);
  }
});
