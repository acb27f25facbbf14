/**
 * Fixtures of the log manager tests on the simulated disk: a node with two log dirs, a manager
 * started on them with the node's clock and random stream, and the dir failures it reports.
 */
import { brokerId, type Uuid } from "../../src/common/index.js";
import {
  LogManager,
  defaultLogManagerConfig,
  type LogConfig,
  type LogDirFailure,
  type LogManagerConfig,
  type PartitionLog,
  type TopicPartition,
} from "../../src/storage/index.js";
import { MemoryMetricsSink, type SchedulerOptions } from "../../sim/index.js";
import { LogHarness, concat, makeBatch, testConfig } from "./log-harness.js";

export const dirA = "/data/a";
/** The cluster and node every manager of the tests runs as. */
export const identity = { clusterId: "Dz1DTnH3T0WL3dxJgZCkvg", nodeId: brokerId(1) };
/** A topic id for partition.metadata. */
export const topicId = "00112233445566778899aabbccddeeff" as Uuid;
export const dirB = "/data/b";

/** The partition `partition` of the topic "orders". */
export const ordersPartition = (partition: number): TopicPartition => ({
  topic: "orders",
  partition,
});

/** A node's disk and a log manager on it. */
export class ManagerHarness extends LogHarness {
  readonly metrics = new MemoryMetricsSink();
  readonly failures: LogDirFailure[] = [];

  constructor(seed: number, schedulerOptions: Omit<SchedulerOptions, "seed"> = {}) {
    super(seed, {}, schedulerOptions);
  }

  /** Kafka's defaults for two dirs, small segments and the given topic config changes. */
  config(changes: Partial<LogManagerConfig> = {}, logConfig: Partial<LogConfig> = {}) {
    return {
      ...defaultLogManagerConfig([dirA, dirB]),
      defaultLogConfig: testConfig({ segmentBytes: 1024, fileDeleteDelayMs: 1000, ...logConfig }),
      ...changes,
    };
  }

  /** Starts a manager, formatting the dirs, and records its dir failures. */
  async start(
    config: LogManagerConfig = this.config(),
    options: { readonly formatUnformatted?: boolean } = {},
  ): Promise<LogManager> {
    const manager = await this.run(
      LogManager.start({
        fileSystem: this.fs,
        clock: this.node.clock,
        random: this.node.random,
        logger: this.logger,
        metrics: this.metrics,
        config,
        identity,
        formatUnformatted: options.formatUnformatted ?? true,
      }),
    );
    manager.onLogDirFailure((failure) => this.failures.push(failure));
    return manager;
  }

  /** The log of `topicPartition`, created when missing; fails the test when there is none. */
  async logOf(
    manager: LogManager,
    topicPartition: TopicPartition,
    options: { readonly logDir?: string } = {},
  ): Promise<PartitionLog> {
    const [result] = await this.run(
      manager.getOrCreateLogs([{ topicPartition, topicId, ...options }]),
    );
    if (result?.kind !== "log") throw new Error(`no log for ${JSON.stringify(topicPartition)}`);
    return result.log;
  }
}

/** A batch of `count` records whose values name `label`. */
export function batchOf(label: string, count = 3): Uint8Array {
  return makeBatch({ count, tag: label, timestamp: 1_700_000_000_000, epoch: 0 });
}

/** Appends `batches` batches as leader in epoch 0 (run it through the harness). */
export async function appendBatches(
  log: PartitionLog,
  label: string,
  batches: number,
): Promise<void> {
  for (let index = 0; index < batches; index++) {
    await log.appendAsLeader(batchOf(`${label}-${index}`), { leaderEpoch: 0 });
  }
}

/** Every byte of the log from its start to its end (run it through the harness). */
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
  return concat(parts);
}

/** The text of a file on the simulated disk now, or undefined. */
export function textOf(harness: LogHarness, path: string): string | undefined {
  const bytes = harness.fs.peekFile(path);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}
