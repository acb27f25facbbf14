/**
 * Frame decoder throughput: a stream of request frames fed to FrameDecoder in chunks of a fixed
 * size, as a socket would deliver them. Small frames in large chunks take the view-only path;
 * large frames in small chunks take the copying path.
 */
import { performance } from "node:perf_hooks";
import { FrameDecoder, encodeFrame } from "../src/protocol/framing.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const MIN_DURATION_MS = 300;
const STREAM_BYTES = 16 * 2 ** 20;

/** A stream of frames of `frameBytes` each, about STREAM_BYTES long. */
function stream(frameBytes: number): Uint8Array {
  const payload = new Uint8Array(frameBytes).fill(7);
  const frameCount = Math.max(1, Math.floor(STREAM_BYTES / (frameBytes + 4)));
  const chunks: Uint8Array[] = [];
  for (let index = 0; index < frameCount; index++) chunks.push(...encodeFrame([payload]));
  return Uint8Array.from(Buffer.concat(chunks));
}

/** Splits `bytes` into views of `chunkBytes` each, as a socket hands them over. */
function chunked(bytes: Uint8Array, chunkBytes: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    chunks.push(bytes.subarray(at, at + chunkBytes));
  }
  return chunks;
}

/** Feeds the chunks again and again for MIN_DURATION_MS; reports frames/s and MB/s. */
function measure(label: string, frameBytes: number, chunkBytes: number): BenchmarkResult[] {
  const chunks = chunked(stream(frameBytes), chunkBytes);
  const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  let frames = 0;
  let passes = 0;
  const start = performance.now();
  let elapsedMs = 0;
  while (elapsedMs < MIN_DURATION_MS) {
    const decoder = new FrameDecoder();
    for (const chunk of chunks) frames += decoder.push(chunk).frames.length;
    passes++;
    elapsedMs = performance.now() - start;
  }
  const seconds = elapsedMs / 1000;
  return [
    { label: `${label}: frames`, value: Math.round(frames / seconds), unit: "frames/s" },
    {
      label: `${label}: bytes`,
      value: Number(((passes * totalBytes) / seconds / 1e6).toFixed(1)),
      unit: "MB/s",
    },
  ];
}

/** The framing benchmarks, run by bench/run.ts. */
export const benchmarks: Benchmark[] = [
  {
    name: "frame decoder",
    run: async () => [
      ...measure("100 B frames in 64 KiB chunks", 100, 65536),
      ...measure("16 KiB frames in 64 KiB chunks", 16384, 65536),
      ...measure("1 MiB frames in 64 KiB chunks", 2 ** 20, 65536),
      ...measure("1 KiB frames in 100 B chunks", 1024, 100),
    ],
  },
];
