/**
 * The raw figures of this machine that Sluice's own benchmarks are compared against: how fast
 * the disk takes sequential writes with and without an fsync after each, through plain
 * node:fs/promises and through Sluice's NodeFileSystem adapter, and how fast loopback TCP moves
 * bytes between two sockets of one process.
 *
 * Sizes come from the environment: BENCH_DISK_MB (default 256), BENCH_FSYNC_MB (default 16),
 * BENCH_NET_MB (default 256); BENCH_DIR picks the folder of the temporary files (default the
 * system's temporary folder), so the disk under test can be chosen.
 */
import { randomFillSync } from "node:crypto";
import { mkdtemp, open, rm } from "node:fs/promises";
import { once } from "node:events";
import {
  createConnection,
  createServer,
  type AddressInfo,
  type Server,
  type Socket,
} from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { NodeFileSystem } from "../src/adapters/index.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const mebibyte = 2 ** 20;
const diskWriteBytes = 16 * 1024;
const networkWriteBytes = 64 * 1024;

/** A positive whole number of MiB from the environment, or `fallback`. */
function megabytesFromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number of MiB, not "${text}"`);
  }
  return value;
}

/** Random bytes, so neither the disk nor the network can compress them away. */
function randomChunk(size: number): Buffer {
  return randomFillSync(Buffer.alloc(size));
}

function mebibytesPerSecond(bytes: number, elapsedMs: number): number {
  return bytes / mebibyte / (elapsedMs / 1000);
}

/** The value at quantile `q` (0..1) of `samples`, by the nearest-rank method. */
function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Runs `body` with a fresh temporary folder that is removed afterwards, even on failure. */
async function withTemporaryFolder<T>(body: (folder: string) => Promise<T>): Promise<T> {
  const parent = process.env["BENCH_DIR"] ?? tmpdir();
  const folder = await mkdtemp(join(parent, "sluice-bench-"));
  try {
    return await body(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Something that takes one chunk at the end of a file and can make it durable. */
interface Appender {
  append(chunk: Buffer): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

async function openPlainAppender(path: string): Promise<Appender> {
  const handle = await open(path, "w");
  let position = 0;
  return {
    append: async (chunk) => {
      await handle.write(chunk, 0, chunk.length, position);
      position += chunk.length;
    },
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
}

async function openAdapterAppender(path: string): Promise<Appender> {
  const handle = await new NodeFileSystem().open(path, { create: true, truncate: true });
  return {
    append: async (chunk) => {
      await handle.append(chunk);
    },
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
}

/** Times `totalBytes` of sequential writes; with `isSyncEach`, an fsync follows every write. */
async function timeWrites(
  appender: Appender,
  options: { totalBytes: number; isSyncEach: boolean },
): Promise<{ writeMs: number; finalSyncMs: number; latenciesMs: number[] }> {
  const chunk = randomChunk(diskWriteBytes);
  const latenciesMs: number[] = [];
  const start = performance.now();
  for (let written = 0; written < options.totalBytes; written += chunk.length) {
    const before = performance.now();
    await appender.append(chunk);
    if (options.isSyncEach) await appender.sync();
    latenciesMs.push(performance.now() - before);
  }
  const writeMs = performance.now() - start;
  await appender.sync();
  const finalSyncMs = performance.now() - start - writeMs;
  return { writeMs, finalSyncMs, latenciesMs };
}

async function measureWrites(
  kind: "node:fs" | "NodeFileSystem",
  options: { totalBytes: number; isSyncEach: boolean },
): Promise<{ writeMs: number; finalSyncMs: number; latenciesMs: number[] }> {
  return withTemporaryFolder(async (folder) => {
    const path = join(folder, "segment.log");
    const appender =
      kind === "node:fs" ? await openPlainAppender(path) : await openAdapterAppender(path);
    try {
      return await timeWrites(appender, options);
    } finally {
      await appender.close();
    }
  });
}

function figure(label: string, value: number, unit: string): BenchmarkResult {
  return { label, value, unit };
}

async function runDiskWrites(): Promise<BenchmarkResult[]> {
  const totalBytes = megabytesFromEnvironment("BENCH_DISK_MB", 256) * mebibyte;
  const results: BenchmarkResult[] = [];
  for (const kind of ["node:fs", "NodeFileSystem"] as const) {
    const { writeMs, finalSyncMs } = await measureWrites(kind, { totalBytes, isSyncEach: false });
    results.push(
      figure(`${kind}, no fsync`, mebibytesPerSecond(totalBytes, writeMs), "MiB/s"),
      figure(
        `${kind}, one fsync at the end`,
        mebibytesPerSecond(totalBytes, writeMs + finalSyncMs),
        "MiB/s",
      ),
    );
  }
  return results;
}

async function runSyncedWrites(): Promise<BenchmarkResult[]> {
  const totalBytes = megabytesFromEnvironment("BENCH_FSYNC_MB", 16) * mebibyte;
  const results: BenchmarkResult[] = [];
  for (const kind of ["node:fs", "NodeFileSystem"] as const) {
    const { writeMs, latenciesMs } = await measureWrites(kind, { totalBytes, isSyncEach: true });
    results.push(
      figure(`${kind}, fsync after each write`, mebibytesPerSecond(totalBytes, writeMs), "MiB/s"),
      figure(`${kind}, fsync after each write`, latenciesMs.length / (writeMs / 1000), "writes/s"),
      figure(`${kind}, write + fsync p50`, quantile(latenciesMs, 0.5), "ms"),
      figure(`${kind}, write + fsync p99`, quantile(latenciesMs, 0.99), "ms"),
    );
  }
  return results;
}

/** Writes `totalBytes` of `chunk` copies, waiting for "drain" whenever the socket is full. */
async function writeAll(socket: Socket, chunk: Buffer, totalBytes: number): Promise<void> {
  for (let sent = 0; sent < totalBytes; sent += chunk.length) {
    if (!socket.write(chunk)) await once(socket, "drain");
  }
}

/** A server that counts what its first connection sends and resolves when the sender ends. */
function countingServer(): { server: Server; received: Promise<{ bytes: number; atMs: number }> } {
  const server = createServer();
  const received = new Promise<{ bytes: number; atMs: number }>((resolve, reject) => {
    server.once("connection", (socket) => {
      let bytes = 0;
      socket.on("data", (data: Buffer) => {
        bytes += data.length;
      });
      socket.once("end", () => {
        resolve({ bytes, atMs: performance.now() });
        socket.end();
      });
      socket.once("error", reject);
    });
  });
  return { server, received };
}

async function runLoopback(): Promise<BenchmarkResult[]> {
  const totalBytes = megabytesFromEnvironment("BENCH_NET_MB", 256) * mebibyte;
  const { server, received } = countingServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const client = createConnection({ host: "127.0.0.1", port });
  try {
    await once(client, "connect");
    const start = performance.now();
    await writeAll(client, randomChunk(networkWriteBytes), totalBytes);
    client.end();
    const { bytes, atMs } = await received;
    if (bytes !== totalBytes) throw new Error(`sent ${totalBytes} bytes, received ${bytes}`);
    return [figure("127.0.0.1, 64 KiB writes", mebibytesPerSecond(bytes, atMs - start), "MiB/s")];
  } finally {
    client.destroy();
    server.close();
  }
}

/** The baseline figures, in the order they are printed. */
export const benchmarks: Benchmark[] = [
  { name: "baseline.disk-write", run: runDiskWrites },
  { name: "baseline.disk-write-fsync", run: runSyncedWrites },
  { name: "baseline.tcp-loopback", run: runLoopback },
];
