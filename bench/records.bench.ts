/**
 * Record batch throughput: validate + decode of 16 KiB batches of 1 KiB records under each codec,
 * in MB/s of uncompressed records, and CRC-32C throughput of the native @node-rs/crc32 beside the
 * plain table-driven one. BENCH_RECORDS_MB (default 64) sets how much each figure processes.
 */
import { performance } from "node:perf_hooks";
import {
  compressionTypes,
  crc32c,
  crc32cTable,
  decodeRecords,
  encodeBatch,
  validateBatch,
  type CompressionType,
} from "../src/protocol/records/index.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const megabyte = 1_000_000;
const recordBytes = 1024;
const recordsPerBatch = 16;
const totalBytes = Number(process.env["BENCH_RECORDS_MB"] ?? 64) * megabyte;
const limits = { maxDecompressedBytes: 8 * 1024 * 1024 };

/** Record values that compress like text rather than like zeros or noise. */
function recordValue(seed: number): Uint8Array {
  const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
  const value = new Uint8Array(recordBytes);
  let state = seed * 2654435761;
  for (let at = 0; at < recordBytes;) {
    state = (state * 1103515245 + 12345) >>> 0;
    const word = new TextEncoder().encode(`${words[state % words.length]} ${state % 1000} `);
    value.set(word.subarray(0, recordBytes - at), at);
    at += word.length;
  }
  return value;
}

function makeBatch(compression: CompressionType, seed: number): Uint8Array {
  return encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: 0,
    compression,
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: Array.from({ length: recordsPerBatch }, (_, index) => ({
      timestamp: 1_700_000_000_000 + index,
      key: new TextEncoder().encode(`key-${seed}-${index}`),
      value: recordValue(seed * recordsPerBatch + index),
    })),
  });
}

/** MB/s of uncompressed record bytes through validateBatch then decodeRecords. */
function measureCodec(compression: CompressionType): BenchmarkResult {
  const batches = Array.from({ length: 32 }, (_, seed) => makeBatch(compression, seed));
  const batchRecordBytes = recordsPerBatch * recordBytes;
  const rounds = Math.max(1, Math.ceil(totalBytes / batchRecordBytes));
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    const batch = batches[round % batches.length] as Uint8Array;
    const validated = validateBatch(batch, { ...limits, origin: "client" });
    const decoded = decodeRecords(batch, limits);
    if (!validated.ok || !decoded.ok) throw new Error(`benchmark batch refused (${compression})`);
  }
  const seconds = (performance.now() - started) / 1000;
  const value = (rounds * batchRecordBytes) / megabyte / seconds;
  return { label: `validate+decode ${compression}`, value: Math.round(value), unit: "MB/s" };
}

// Every checksum is folded in here so that the engine cannot drop the calls as unused.
let checksumSink = 0;

/** MB/s of a CRC-32C function over 16 KiB buffers. */
function measureCrc(
  label: string,
  checksum: (bytes: Uint8Array) => number,
  bytes: number,
): BenchmarkResult {
  const buffer = recordValue(7).subarray(0, 1024);
  const block = new Uint8Array(16 * 1024);
  for (let at = 0; at < block.length; at += buffer.length) block.set(buffer, at);
  const rounds = Math.max(1, Math.ceil(bytes / block.length));
  const started = performance.now();
  for (let round = 0; round < rounds; round++) checksumSink ^= checksum(block);
  const seconds = (performance.now() - started) / 1000;
  return { label, value: Math.round((rounds * block.length) / megabyte / seconds), unit: "MB/s" };
}

export const benchmarks: Benchmark[] = [
  {
    name: "record batches: validate + decode, 1 KiB records in 16 KiB batches",
    async run() {
      return compressionTypes.map((compression) => measureCodec(compression));
    },
  },
  {
    name: "CRC-32C over 16 KiB buffers",
    async run() {
      const results = [
        measureCrc("@node-rs/crc32 (native)", crc32c, totalBytes * 4),
        measureCrc("table-driven JavaScript", crc32cTable, totalBytes / 4),
      ];
      return checksumSink === -1 ? [] : results;
    },
  },
];
