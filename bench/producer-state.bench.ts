/**
 * Opening a partition log after a clean shutdown, with and without its producer state
 * snapshots: logs of idempotent batches from 64 producers, BENCH_PRODUCER_MB (default 16) MiB and
 * ten times that, in 4 MiB segments, with current timestamps (so no segment is skipped as
 * expired). With the snapshot written at close, opening reads it and no batch; without it (the
 * `.snapshot` files deleted) the open reads every batch header, as before snapshots existed.
 * The ratio of the two open times of the larger and the smaller log shows whether start time
 * grows with the log.
 */
import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { defaultLogConfig, type LogConfig } from "../src/storage/index.js";
import { megabytesFromEnvironment, openLog, uncompressedBatch, withFolder } from "./log-on-disk.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const mebibyte = 2 ** 20;
const producerCount = 64;
const recordsPerBatch = 15;
const value = new Uint8Array(1024).fill(7);
const config: LogConfig = { ...defaultLogConfig, segmentBytes: 4 * mebibyte };

function idempotentBatch(producerId: number, baseSequence: number, timestamp: number) {
  const records = Array.from({ length: recordsPerBatch }, () => ({ timestamp, key: null, value }));
  return uncompressedBatch(records, { producerId, producerEpoch: 0, baseSequence });
}

/** Writes `totalBytes` of idempotent batches and closes the log cleanly. */
async function fillAndClose(folder: string, totalBytes: number): Promise<number> {
  const log = await openLog(folder, config);
  const sequences = new Array<number>(producerCount).fill(0);
  for (let written = 0, turn = 0; written < totalBytes; turn++) {
    const producer = turn % producerCount;
    const batch = idempotentBatch(1000 + producer, sequences[producer] ?? 0, Date.now());
    sequences[producer] = (sequences[producer] ?? 0) + recordsPerBatch;
    await log.appendAsLeader(batch, { leaderEpoch: 0 });
    written += batch.length;
  }
  const segments = log.segmentCount;
  await log.close();
  return segments;
}

/** Milliseconds to open the log in `folder` after its clean shutdown, checking its producers. */
async function timedOpen(folder: string): Promise<number> {
  const start = performance.now();
  const log = await openLog(folder, config);
  const elapsedMs = performance.now() - start;
  if (log.activeProducers().length !== producerCount)
    throw new Error(`the reopened log knows ${log.activeProducers().length} producers`);
  await log.close();
  return elapsedMs;
}

async function deleteSnapshots(folder: string): Promise<void> {
  const dir = join(folder, "bench-0");
  for (const name of await readdir(dir))
    if (name.endsWith(".snapshot")) await unlink(join(dir, name));
}

async function openTimes(megabytes: number) {
  return withFolder(async (folder) => {
    const segments = await fillAndClose(folder, megabytes * mebibyte);
    const withSnapshot = await timedOpen(folder);
    await deleteSnapshots(folder);
    const withoutSnapshot = await timedOpen(folder);
    return { segments, withSnapshot, withoutSnapshot };
  });
}

async function runOpenTimes(): Promise<BenchmarkResult[]> {
  const small = megabytesFromEnvironment("BENCH_PRODUCER_MB", 16);
  const sizes = [small, small * 10];
  const results: BenchmarkResult[] = [];
  const times: Awaited<ReturnType<typeof openTimes>>[] = [];
  for (const megabytes of sizes) {
    const measured = await openTimes(megabytes);
    times.push(measured);
    const about = `${megabytes} MiB log, ${measured.segments} segments`;
    results.push(
      { label: `open with the snapshot, ${about}`, value: measured.withSnapshot, unit: "ms" },
      { label: `open without snapshots, ${about}`, value: measured.withoutSnapshot, unit: "ms" },
    );
  }
  const [first, last] = times;
  if (first !== undefined && last !== undefined) {
    results.push(
      {
        label: "open with the snapshot, 10x log / 1x",
        value: last.withSnapshot / first.withSnapshot,
        unit: "ratio",
      },
      {
        label: "open without snapshots, 10x log / 1x",
        value: last.withoutSnapshot / first.withoutSnapshot,
        unit: "ratio",
      },
    );
  }
  return results;
}

/** The producer state figures. */
export const benchmarks: Benchmark[] = [{ name: "storage.producer-state-open", run: runOpenTimes }];
