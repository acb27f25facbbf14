/**
 * The partition log on the real disk through NodeFileSystem: append throughput for 1 KiB
 * records in 16 KiB batches without fsync and with flush.messages=1 (group commit) from 1, 8 and
 * 64 concurrent appenders, a full-scan read, and recovery time per GiB of unflushed log. Each
 * figure is printed beside the raw disk figure measured in the same run (plain sequential 16 KiB
 * writes of the same bytes through the adapter, with and without an fsync after each) as a ratio.
 *
 * Sizes from the environment: BENCH_LOG_MB (default 256) for appends without fsync and the read
 * and recovery figures, BENCH_FSYNC_MB (default 16) for the fsync'd ones; BENCH_DIR picks the
 * folder of the temporary files.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { NodeFileSystem } from "../src/adapters/index.js";
import { NEVER, defaultLogConfig, type PartitionLog } from "../src/storage/index.js";
import { megabytesFromEnvironment, openLog, uncompressedBatch, withFolder } from "./log-on-disk.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const mebibyte = 2 ** 20;
const batchBytes = 16 * 1024;
const recordBytes = 1024;

/** A batch of about 16 KiB holding 1 KiB records (whole records, so slightly under). */
function makeBatch(seed: number): Uint8Array {
  const count = Math.floor(batchBytes / (recordBytes + 16)) - 1;
  const records = Array.from({ length: count }, (_unused, index) => ({
    timestamp: 1_700_000_000_000 + index,
    key: null,
    value: new Uint8Array(recordBytes).map((_byte, at) => (at * 31 + index * 7 + seed) & 0xff),
  }));
  return uncompressedBatch(records);
}

/** MiB/s of `totalBytes` of plain sequential writes through the adapter. */
async function rawWrites(totalBytes: number, isSyncEach: boolean): Promise<number> {
  return withFolder(async (folder) => {
    const handle = await new NodeFileSystem().open(join(folder, "raw.log"), {
      create: true,
      truncate: true,
    });
    const chunk = makeBatch(1);
    const start = performance.now();
    for (let written = 0; written < totalBytes; written += chunk.length) {
      await handle.append(chunk);
      if (isSyncEach) await handle.sync();
    }
    const elapsedMs = performance.now() - start;
    await handle.close();
    return totalBytes / mebibyte / (elapsedMs / 1000);
  });
}

/** MiB/s of `totalBytes` appended by `appenders` concurrent loops, one batch at a time each. */
async function appendThroughput(
  folder: string,
  options: { totalBytes: number; appenders: number; flushMessages: number },
): Promise<number> {
  const log = await openLog(folder, { ...defaultLogConfig, flushMessages: options.flushMessages });
  const batchesEach = Math.max(1, Math.round(options.totalBytes / batchBytes / options.appenders));
  const start = performance.now();
  await Promise.all(
    Array.from({ length: options.appenders }, async (_unused, appender) => {
      // Each appender owns its buffer: the log stamps offsets into it in place.
      const batch = makeBatch(appender);
      for (let index = 0; index < batchesEach; index++)
        await log.appendAsLeader(batch, { leaderEpoch: 0 });
    }),
  );
  const elapsedMs = performance.now() - start;
  const bytes = log.size;
  await log.close();
  return bytes / mebibyte / (elapsedMs / 1000);
}

async function runAppends(): Promise<BenchmarkResult[]> {
  const logBytes = megabytesFromEnvironment("BENCH_LOG_MB", 256) * mebibyte;
  const fsyncBytes = megabytesFromEnvironment("BENCH_FSYNC_MB", 16) * mebibyte;
  // A first pass warms the JIT and the page cache for both sides; its figures are dropped.
  const warmBytes = Math.min(logBytes, 32 * mebibyte);
  await rawWrites(warmBytes, false);
  await withFolder((folder) =>
    appendThroughput(folder, { totalBytes: warmBytes, appenders: 8, flushMessages: NEVER }),
  );
  const results: BenchmarkResult[] = [];
  for (const isSynced of [false, true]) {
    for (const appenders of [1, 8, 64]) {
      const totalBytes = isSynced ? fsyncBytes : logBytes;
      // The raw figure is taken just before the log's, so both see the same state of the disk.
      const raw = await rawWrites(totalBytes, isSynced);
      const options = { totalBytes, appenders, flushMessages: isSynced ? 1 : NEVER };
      const value = await withFolder((folder) => appendThroughput(folder, options));
      const mode = isSynced ? "flush.messages=1" : "no fsync";
      const rawLabel = isSynced ? "fsync after each write" : "no fsync";
      results.push({
        label: `raw 16 KiB writes, ${rawLabel} (before ${appenders} appenders)`,
        value: raw,
        unit: "MiB/s",
      });
      results.push({ label: `append, ${mode}, ${appenders} appenders`, value, unit: "MiB/s" });
      results.push({
        label: `append, ${mode}, ${appenders} appenders / raw`,
        value: value / raw,
        unit: "ratio",
      });
    }
  }
  return results;
}

/** Appends `totalBytes` without flushing; the log is left open (unflushed) for the caller. */
async function fillLog(folder: string, totalBytes: number): Promise<PartitionLog> {
  const log = await openLog(folder, defaultLogConfig);
  const batch = makeBatch(3);
  for (let written = 0; written < totalBytes; written += batch.length)
    await log.appendAsLeader(batch, { leaderEpoch: 0 });
  return log;
}

async function runScanAndRecovery(): Promise<BenchmarkResult[]> {
  const logBytes = megabytesFromEnvironment("BENCH_LOG_MB", 256) * mebibyte;
  const rawPlain = await rawWrites(logBytes, false);
  return withFolder(async (folder) => {
    const log = await fillLog(folder, logBytes);
    const start = performance.now();
    let fromOffset = 0;
    let bytes = 0;
    while (fromOffset < log.logEndOffset) {
      const result = await log.read({
        fromOffset,
        maxBytes: mebibyte,
        maxOffset: log.logEndOffset,
        minOneBatch: true,
      });
      if (result.kind !== "records" || result.slices.length === 0)
        throw new Error(`the scan stopped at ${fromOffset}`);
      for (const slice of result.slices) bytes += (await log.readBytes(slice)).length;
      fromOffset = result.nextOffset;
    }
    const scanMs = performance.now() - start;
    const recoveryStart = performance.now();
    const recovered = await openLog(folder, defaultLogConfig, false);
    const recoveryMs = performance.now() - recoveryStart;
    if (recovered.logEndOffset !== log.logEndOffset)
      throw new Error("recovery lost batches of a log nobody crashed");
    await recovered.close();
    const scan = bytes / mebibyte / (scanMs / 1000);
    return [
      { label: "full scan read (read + readBytes, 1 MiB fetches)", value: scan, unit: "MiB/s" },
      { label: "full scan read / raw write, no fsync", value: scan / rawPlain, unit: "ratio" },
      {
        label: "recovery of an unflushed log",
        value: recoveryMs / 1000 / (bytes / 2 ** 30),
        unit: "s/GiB",
      },
    ];
  });
}

/** The partition log figures. */
export const benchmarks: Benchmark[] = [
  { name: "storage.append", run: runAppends },
  { name: "storage.scan-and-recovery", run: runScanAndRecovery },
];
