/**
 * Shared set-up of the log manager's tests: two log dirs on an in-memory disk behind a fault
 * wrapper, a manager started on them, batches to append and a way to read a log back whole.
 */
import { brokerId, type Uuid } from "../../common/index.js";
import type { FileSystem } from "../../ports/index.js";
import { encodeBatch } from "../../protocol/index.js";
import { defaultLogConfig, type PartitionLog } from "../log/index.js";
import { MemoryFileSystem } from "../memory-file-system.test-support.js";
import { FaultyFileSystem } from "./faulty-file-system.test-support.js";
import { defaultLogManagerConfig, type LogManagerConfig } from "./log-manager-config.js";
import { LogManager } from "./log-manager.driver.js";
import { TestClock, TestLogger, TestMetrics, TestRandom } from "./manager-doubles.test-support.js";

export const DIR_A = "/data/a";
export const DIR_B = "/data/b";
export const IDENTITY = { clusterId: "Dz1DTnH3T0WL3dxJgZCkvg", nodeId: brokerId(1) };
export const TOPIC_ID = "00112233445566778899aabbccddeeff" as Uuid;

/** The world one test runs in. */
export interface Kit {
  readonly memory: MemoryFileSystem;
  readonly fileSystem: FaultyFileSystem;
  readonly clock: TestClock;
  readonly logger: TestLogger;
  readonly metrics: TestMetrics;
  /** Shared by every start, so that each start draws new directory ids. */
  readonly random: TestRandom;
}

/** A fresh disk and ports. */
export function newKit(): Kit {
  const memory = new MemoryFileSystem();
  return {
    memory,
    fileSystem: new FaultyFileSystem(memory),
    clock: new TestClock(),
    logger: new TestLogger(),
    metrics: new TestMetrics(),
    random: new TestRandom(),
  };
}

/** The manager config of the tests: two dirs, small segments. */
export function testConfig(logDirs: readonly string[] = [DIR_A, DIR_B]): LogManagerConfig {
  return {
    ...defaultLogManagerConfig(logDirs),
    defaultLogConfig: { ...defaultLogConfig, segmentBytes: 4096, fileDeleteDelayMs: 1000 },
    replicaFetchMaxBytes: 300,
  };
}

/** Starts a manager on the kit's disk. */
export function startManager(
  kit: Kit,
  options: { config?: LogManagerConfig; formatUnformatted?: boolean; fileSystem?: FileSystem } = {},
): Promise<LogManager> {
  return LogManager.start({
    fileSystem: options.fileSystem ?? kit.fileSystem,
    clock: kit.clock,
    random: kit.random,
    logger: kit.logger,
    metrics: kit.metrics,
    config: options.config ?? testConfig(),
    identity: IDENTITY,
    formatUnformatted: options.formatUnformatted ?? true,
  });
}

/** A batch of `count` records whose values name `label`. */
export function batchOf(label: string, count = 3): Uint8Array {
  const encoder = new TextEncoder();
  return encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: 0,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: Array.from({ length: count }, (_, index) => ({
      timestamp: 1_700_000_000_000 + index,
      key: null,
      value: encoder.encode(`${label}-${index}`),
    })),
  });
}

/** Appends `batches` batches as leader in epoch 0. */
export async function appendBatches(
  log: PartitionLog,
  label: string,
  batches: number,
): Promise<void> {
  for (let index = 0; index < batches; index++) {
    await log.appendAsLeader(batchOf(`${label}-${index}`), { leaderEpoch: 0 });
  }
}

/** Every byte of the log from its start to its end, batch by batch. */
export async function readWholeLog(log: PartitionLog): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let next = log.logStartOffset;
  while (next < log.logEndOffset) {
    const result = await log.read({
      fromOffset: next,
      maxBytes: 1 << 20,
      maxOffset: log.logEndOffset,
      minOneBatch: true,
    });
    if (result.kind !== "records" || result.slices.length === 0) break;
    for (const slice of result.slices) parts.push(await log.readBytes(slice));
    next = result.nextOffset;
  }
  const whole = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/** The text of a file on the in-memory disk, or undefined. */
export function textOf(kit: Kit, path: string): string | undefined {
  const bytes = kit.memory.contentOf(path);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}
