/**
 * Shared fixtures of the partition log tests: a simulated disk on a seeded scheduler, a way to
 * drive an operation to completion in simulated time, record batches to append, and helpers to
 * read a log back as batches.
 */
import assert from "node:assert/strict";
import type { LogFields, Logger } from "../../src/ports/index.js";
import { encodeBatch, iterateBatches, readBatchHeader } from "../../src/protocol/index.js";
import { PartitionLog, defaultLogConfig, type LogConfig } from "../../src/storage/index.js";
import {
  Scheduler,
  SimFileSystem,
  type SchedulerOptions,
  type SimFileSystemOptions,
  type SimNode,
} from "../../sim/index.js";

/** A logger that keeps its lines, for assertions and for a failing test's output. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  debug(message: string, fields?: LogFields): void {
    this.lines.push(`debug ${message} ${JSON.stringify(fields ?? {})}`);
  }
  info(message: string, fields?: LogFields): void {
    this.lines.push(`info ${message} ${JSON.stringify(fields ?? {})}`);
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push(`warn ${message} ${JSON.stringify(fields ?? {})}`);
  }
  error(message: string, fields?: LogFields): void {
    this.lines.push(
      `error ${message} ${JSON.stringify(fields ?? {}, (_key, value: unknown) =>
        value instanceof Error ? value.message : value,
      )}`,
    );
  }
  child(): Logger {
    return this;
  }
}

/** The folder of the partition under test. */
export const partitionDir = "/data/orders-0";

/** A test config: Kafka's defaults with the given changes. */
export function testConfig(changes: Partial<LogConfig> = {}): LogConfig {
  return { ...defaultLogConfig, ...changes };
}

/** One node with a simulated disk, and the means to run log operations on it. */
export class LogHarness {
  readonly scheduler: Scheduler;
  readonly node: SimNode;
  readonly fs: SimFileSystem;
  readonly logger = new MemoryLogger();
  syncCount = 0;

  constructor(
    seed: number,
    options: SimFileSystemOptions = {},
    schedulerOptions: Omit<SchedulerOptions, "seed"> = {},
  ) {
    this.scheduler = new Scheduler({ seed, ...schedulerOptions });
    this.node = this.scheduler.node("broker");
    this.fs = new SimFileSystem(this.scheduler, this.node, options);
    const sync = this.fs.open.bind(this.fs);
    // Counts fsyncs of file handles, to check that group commit shares them.
    this.fs.open = async (path, openOptions) => {
      const handle = await sync(path, openOptions);
      const original = handle.sync.bind(handle);
      handle.sync = () => {
        this.syncCount++;
        return original();
      };
      return handle;
    };
  }

  /** Runs the simulation until `promise` settles; fails when it never can. */
  async run<T>(promise: Promise<T>): Promise<T> {
    let isSettled = false;
    const observed = promise.finally(() => {
      isSettled = true;
    });
    observed.catch(() => undefined);
    for (let attempt = 0; attempt < 100 && !isSettled; attempt++) {
      await this.scheduler.runUntil(() => isSettled, Number.POSITIVE_INFINITY);
      for (let turn = 0; turn < 200 && !isSettled; turn++) await Promise.resolve();
    }
    assert.ok(isSettled, "the operation settled in simulated time");
    return observed;
  }

  /** Opens the log of `partitionDir`. */
  open(
    config: LogConfig,
    state: { recoveryPoint?: number; logStartOffset?: number; hadCleanShutdown?: boolean } = {},
  ): Promise<PartitionLog> {
    return this.run(
      PartitionLog.open({
        fs: this.fs,
        clock: this.node.clock,
        logger: this.logger,
        dir: partitionDir,
        topicPartition: { topic: "orders", partition: 0 },
        config,
        recoveryPoint: state.recoveryPoint ?? 0,
        logStartOffset: state.logStartOffset ?? 0,
        hadCleanShutdown: state.hadCleanShutdown ?? true,
      }),
    );
  }

  /** Crashes and restarts the node: unsynced writes may be lost or torn. */
  crash(): void {
    this.node.crash();
    this.node.restart();
  }
}

/** A batch of `count` records with values "<tag>-<index>" and the given timestamps. */
export function makeBatch(options: {
  count: number;
  tag: string;
  timestamp?: number;
  baseOffset?: number;
  epoch?: number;
  valueBytes?: number;
}): Uint8Array {
  const encoder = new TextEncoder();
  const records = Array.from({ length: options.count }, (_unused, index) => {
    const text = `${options.tag}-${index}`;
    const value =
      options.valueBytes === undefined
        ? encoder.encode(text)
        : new Uint8Array(options.valueBytes).fill(index % 251);
    return { timestamp: (options.timestamp ?? 1_000) + index, key: null, value };
  });
  return encodeBatch({
    baseOffset: options.baseOffset ?? 0,
    partitionLeaderEpoch: options.epoch ?? -1,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records,
  });
}

/** Joins byte arrays. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** The batches of the whole log from its start, as (baseOffset, lastOffset, bytes). */
export async function readAll(
  harness: LogHarness,
  log: PartitionLog,
): Promise<{ baseOffset: number; lastOffset: number; bytes: Uint8Array }[]> {
  const result = await harness.run(
    log.read({
      fromOffset: log.logStartOffset,
      maxBytes: 1 << 30,
      maxOffset: Number.MAX_SAFE_INTEGER,
      minOneBatch: true,
    }),
  );
  assert.equal(result.kind, "records");
  if (result.kind !== "records") return [];
  const batches: { baseOffset: number; lastOffset: number; bytes: Uint8Array }[] = [];
  for (const slice of result.slices) {
    const bytes = await harness.run(log.readBytes(slice));
    for (const entry of iterateBatches(bytes, { maxBatchBytes: 1 << 30 })) {
      assert.equal(entry.kind, "batch");
      if (entry.kind !== "batch") continue;
      assert.ok(entry.header.isCrcValid(), "a batch read back has a valid CRC");
      batches.push({
        baseOffset: entry.header.baseOffset,
        lastOffset: entry.header.lastOffset,
        bytes: entry.bytes.slice(),
      });
    }
  }
  return batches;
}

/** The header of a batch's bytes. */
export function headerOf(bytes: Uint8Array): {
  baseOffset: number;
  lastOffset: number;
  partitionLeaderEpoch: number;
} {
  const read = readBatchHeader(bytes);
  assert.ok(read.ok);
  if (!read.ok) throw new Error("unreachable");
  return {
    baseOffset: read.header.baseOffset,
    lastOffset: read.header.lastOffset,
    partitionLeaderEpoch: read.header.partitionLeaderEpoch,
  };
}
