/**
 * What the benchmarks of the partition log on the real disk share: sizes from the environment,
 * a silent logger, a temporary folder, and a log opened in it through NodeFileSystem.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NodeFileSystem, SystemClock } from "../src/adapters/index.js";
import type { Logger } from "../src/ports/index.js";
import { encodeBatch, type NewRecord } from "../src/protocol/index.js";
import { PartitionLog, type LogConfig } from "../src/storage/index.js";

export function megabytesFromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number of MiB`);
  return value;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message, fields) => console.error(message, fields),
  child: () => silentLogger,
};

/** Runs `body` with a temporary folder (BENCH_DIR picks its parent), removed afterwards. */
export async function withFolder<T>(body: (folder: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(process.env["BENCH_DIR"] ?? tmpdir(), "sluice-log-bench-"));
  try {
    return await body(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export function openLog(
  folder: string,
  config: LogConfig,
  hadCleanShutdown = true,
): Promise<PartitionLog> {
  return PartitionLog.open({
    fs: new NodeFileSystem(),
    clock: new SystemClock(),
    logger: silentLogger,
    dir: join(folder, "bench-0"),
    topicPartition: { topic: "bench", partition: 0 },
    config,
    recoveryPoint: 0,
    logStartOffset: 0,
    hadCleanShutdown,
  });
}

/** An uncompressed v2 batch of `records`, without a producer unless one is given. */
export function uncompressedBatch(
  records: readonly NewRecord[],
  producer = { producerId: -1, producerEpoch: -1, baseSequence: -1 },
): Uint8Array {
  return encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: 0,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    ...producer,
    records,
  });
}
