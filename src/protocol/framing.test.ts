import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { FRAME_BYTES_MAX_DEFAULT, FrameDecoder, encodeFrame, encodeFrameSize } from "./framing.js";

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Splits `bytes` at the given cut points (taken modulo its length). */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => (bytes.length === 0 ? 0 : cut % bytes.length)))];
  points.sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

function feed(decoder: FrameDecoder, chunks: readonly Uint8Array[]): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (const chunk of chunks) {
    const result = decoder.push(chunk);
    assert.equal(result.kind, "frames");
    frames.push(...result.frames);
  }
  return frames;
}

test("frames come back whole however the stream is split", () => {
  const payloads = fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 });
  const cuts = fc.array(fc.nat(), { maxLength: 40 });
  fc.assert(
    fc.property(payloads, cuts, (frames, cutPoints) => {
      const stream = concat(frames.flatMap((frame) => encodeFrame([frame])));
      const decoder = new FrameDecoder();
      const decoded = feed(decoder, split(stream, cutPoints));
      assert.deepEqual(
        decoded.map((frame) => [...frame]),
        frames.map((frame) => [...frame]),
      );
      assert.equal(decoder.bufferedBytes, 0);
    }),
    { seed: 0x51c3, numRuns: 300 },
  );
});

test("frames given their buffer early come back whole however the stream is split", () => {
  const payloads = fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 });
  const cuts = fc.array(fc.nat(), { maxLength: 40 });
  const allocates = fc.array(fc.boolean(), { minLength: 41, maxLength: 41 });
  fc.assert(
    fc.property(payloads, cuts, allocates, (frames, cutPoints, isAllocated) => {
      const stream = concat(frames.flatMap((frame) => encodeFrame([frame])));
      const decoder = new FrameDecoder();
      const decoded: Uint8Array[] = [];
      split(stream, cutPoints).forEach((chunk, index) => {
        const result = decoder.push(chunk);
        assert.equal(result.kind, "frames");
        decoded.push(...result.frames);
        const size = decoder.partialFrameSize;
        if (size === undefined || decoder.isPartialFrameAllocated || !isAllocated[index]) return;
        const buffered = decoder.bufferedBytes;
        decoder.allocatePartialFrame();
        assert.equal(decoder.partialFrameSize, size);
        assert.equal(decoder.bufferedBytes, buffered - 4, "the prefix is dropped");
      });
      assert.deepEqual(
        decoded.map((frame) => [...frame]),
        frames.map((frame) => [...frame]),
      );
      assert.equal(decoder.bufferedBytes, 0);
    }),
    { seed: 0x51c4, numRuns: 300 },
  );
});

test("a frame inside one chunk is a view of that chunk, not a copy", () => {
  const first = encodeFrame([Uint8Array.of(1, 2, 3)]);
  const stream = concat([...first, ...encodeFrame([Uint8Array.of(4)])]);
  const decoder = new FrameDecoder();
  const result = decoder.push(stream);
  assert.equal(result.kind, "frames");
  assert.equal(result.frames.length, 2);
  for (const frame of result.frames) assert.equal(frame.buffer, stream.buffer);
  assert.deepEqual([...(result.frames[0] as Uint8Array)], [1, 2, 3]);
  assert.equal((result.frames[1] as Uint8Array).byteOffset, 11);
});

test("a frame spanning chunks is copied once it is complete", () => {
  const stream = concat(encodeFrame([Uint8Array.of(9, 8, 7, 6, 5)]));
  const decoder = new FrameDecoder();
  assert.deepEqual(decoder.push(stream.subarray(0, 2)), { kind: "frames", frames: [] });
  assert.deepEqual(decoder.push(stream.subarray(2, 6)), { kind: "frames", frames: [] });
  assert.equal(decoder.bufferedBytes, 6);
  const result = decoder.push(stream.subarray(6));
  assert.equal(result.kind, "frames");
  assert.deepEqual([...(result.frames[0] as Uint8Array)], [9, 8, 7, 6, 5]);
  assert.notEqual((result.frames[0] as Uint8Array).buffer, stream.buffer);
});

test("an empty frame is a frame", () => {
  const decoder = new FrameDecoder();
  const result = decoder.push(encodeFrameSize(0));
  assert.equal(result.kind, "frames");
  assert.equal(result.frames.length, 1);
  assert.equal((result.frames[0] as Uint8Array).length, 0);
});

test("a size above the limit fails before any of the frame is buffered", () => {
  const decoder = new FrameDecoder({ frameBytesMax: 10 });
  const ok = concat(encodeFrame([new Uint8Array(10)]));
  const result = decoder.push(concat([ok, encodeFrameSize(11), new Uint8Array(3)]));
  assert.equal(result.kind, "failed");
  assert.equal(result.frames.length, 1, "the whole frame before the error is still returned");
  assert.deepEqual(result.error, { kind: "tooLarge", size: 11, frameBytesMax: 10 });
  assert.equal(decoder.bufferedBytes, 0);
  const after = decoder.push(concat(encodeFrame([Uint8Array.of(1)])));
  assert.equal(after.kind, "failed");
  assert.equal(after.frames.length, 0, "a failed stream yields nothing more");
});

test("a negative size is an error value, split across chunks or not", () => {
  const decoder = new FrameDecoder();
  assert.equal(decoder.push(Uint8Array.of(0xff, 0xff)).kind, "frames");
  const result = decoder.push(Uint8Array.of(0xff, 0xfe));
  const error = { kind: "negativeSize", size: -2 };
  assert.deepEqual(result, { kind: "failed", frames: [], error });
});

test("the default limit is socket.request.max.bytes and a huge prefix allocates nothing", () => {
  const decoder = new FrameDecoder();
  assert.equal(decoder.frameBytesMax, FRAME_BYTES_MAX_DEFAULT);
  const result = decoder.push(encodeFrameSize(0x7fffffff));
  assert.equal(result.kind, "failed");
  const atLimit = new FrameDecoder();
  assert.deepEqual(atLimit.push(encodeFrameSize(FRAME_BYTES_MAX_DEFAULT)), {
    kind: "frames",
    frames: [],
  });
  assert.equal(atLimit.bufferedBytes, 4, "only the received prefix is held");
});

test("encodeFrame prefixes the total size and passes the chunks through uncopied", () => {
  const first = Uint8Array.of(1, 2);
  const second = Uint8Array.of(3, 4, 5);
  const chunks = encodeFrame([first, second]);
  assert.equal(chunks.length, 3);
  assert.deepEqual([...(chunks[0] as Uint8Array)], [0, 0, 0, 5]);
  assert.equal(chunks[1], first);
  assert.equal(chunks[2], second);
  assert.throws(() => encodeFrameSize(-1));
});
