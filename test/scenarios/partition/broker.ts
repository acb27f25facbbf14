/**
 * One run of a scenario broker, from start to crash: its own LogManager over its simulated disk
 * and its own real ReplicaManager (partitions, replica fetchers), fed the controller's metadata
 * log as the broker's loader would feed it. A restart is a new BrokerProcess on the same disk.
 */
import { brokerId, ErrorCode, type BrokerId } from "../../../src/common/index.js";
import {
  EMPTY_IMAGE,
  MetadataDelta,
  type LoaderManifest,
  type MetadataImage,
} from "../../../src/metadata/index.js";
import type { MetadataRecord } from "../../../src/protocol/index.js";
import type { LogFields, Logger } from "../../../src/ports/index.js";
import {
  DEFAULT_REPLICA_FETCHER_SETTINGS,
  defaultPartitionConfig,
  ReplicaManager,
  type AlterPartitionSender,
  type LeaderEndpoint,
  type Partition,
} from "../../../src/replication/index.js";
import {
  defaultLogConfig,
  defaultLogManagerConfig,
  LogManager,
  type TopicPartition,
} from "../../../src/storage/index.js";
import { MemoryMetricsSink, type SimFileSystem, type SimNode } from "../../../sim/index.js";
import type { ScenarioWorld } from "./world.js";

/** The one partition every scenario replicates. */
export const ORDERS: TopicPartition = { topic: "orders", partition: 0 };
export const CLUSTER_ID = "Dz1DTnH3T0WL3dxJgZCkvg";
export const LOG_DIR = "/data";

/** One batch of the metadata log. */
export interface MetadataBatch {
  readonly baseOffset: number;
  readonly records: readonly MetadataRecord[];
}

/** The broker configs a scenario sets, under Kafka's names. */
export interface BrokerSettings {
  /** `replica.lag.time.max.ms`. */
  readonly replicaLagTimeMaxMs: number;
  /** `replica.fetch.max.bytes`: a small value makes a follower fetch one batch at a time. */
  readonly replicaFetchMaxBytes: number;
}

/** How a broker reaches the others: the scenario's held network and its controller. */
export interface BrokerLinks {
  readonly endpointOf: (leaderId: BrokerId) => LeaderEndpoint;
  readonly alterPartitionSender: AlterPartitionSender;
}

/** Prints what the replication code says at info level and above, as `<id>: <message>`. */
class PrintingLogger implements Logger {
  constructor(
    private readonly world: ScenarioWorld,
    private readonly prefix: string,
  ) {}
  debug(): void {}
  info(message: string, fields?: LogFields): void {
    this.world.print(`${this.prefix}: ${message}${describeFields(fields)}`);
  }
  warn(message: string, fields?: LogFields): void {
    this.info(message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.info(`ERROR ${message}`, fields);
  }
  child(): Logger {
    return this;
  }
}

/** The log manager talks only when something goes wrong. */
class QuietLogger extends PrintingLogger {
  override info(): void {}
  override warn(): void {}
}

function describeFields(fields: LogFields | undefined): string {
  const shown = Object.entries(fields ?? {}).filter(([key]) => key !== "topicPartition");
  return shown.map(([key, value]) => ` ${key}=${String(value)}`).join("");
}

export class BrokerProcess {
  private image: MetadataImage = EMPTY_IMAGE;
  /** How many batches of the metadata log this run has applied. */
  private appliedBatches = 0;

  private constructor(
    readonly id: number,
    readonly brokerEpoch: number,
    readonly logManager: LogManager,
    readonly replicaManager: ReplicaManager,
    private readonly world: ScenarioWorld,
  ) {}

  /** Opens the log dir (formatting it when empty) and starts the replica manager. */
  static async start(options: {
    readonly world: ScenarioWorld;
    readonly id: number;
    readonly brokerEpoch: number;
    readonly machine: { readonly node: SimNode; readonly fs: SimFileSystem };
    readonly settings: BrokerSettings;
    readonly links: BrokerLinks;
  }): Promise<BrokerProcess> {
    const { world, id, machine, settings } = options;
    const defaults = defaultPartitionConfig(defaultLogConfig);
    let replicaManager: ReplicaManager | undefined;
    const logManager = await world.run(
      LogManager.start({
        fileSystem: machine.fs,
        clock: machine.node.clock,
        random: machine.node.random,
        logger: new QuietLogger(world, String(id)),
        metrics: new MemoryMetricsSink(),
        config: { ...defaultLogManagerConfig([LOG_DIR]), logCleanerEnable: false },
        identity: { clusterId: CLUSTER_ID, nodeId: brokerId(id) },
        formatUnformatted: true,
        logConfigOf: (topic) => replicaManager?.logConfigOf(topic) ?? defaults.log,
      }),
    );
    replicaManager = new ReplicaManager({
      brokerId: brokerId(id),
      brokerEpoch: () => options.brokerEpoch,
      logManager,
      alterPartitionSender: options.links.alterPartitionSender,
      clock: machine.node.clock,
      timers: machine.node.timers,
      logger: new PrintingLogger(world, String(id)),
      defaults,
      replicaLagTimeMaxMs: settings.replicaLagTimeMaxMs,
      replicaSelector: undefined,
      network: {
        listenerName: "PLAINTEXT",
        endpointOf: (leaderId) => options.links.endpointOf(leaderId),
        fetchers: {
          ...DEFAULT_REPLICA_FETCHER_SETTINGS,
          partitionMaxBytes: settings.replicaFetchMaxBytes,
        },
      },
    });
    return new BrokerProcess(id, options.brokerEpoch, logManager, replicaManager, world);
  }

  /**
   * Applies the batches of the metadata log this run has not applied yet, as one delta (as the
   * loader publishes what it caught up with), and waits for the replica manager to act on it.
   */
  async catchUp(batches: readonly MetadataBatch[]): Promise<void> {
    const pending = batches.slice(this.appliedBatches);
    const last = pending.at(-1);
    if (last === undefined) return;
    const delta = new MetadataDelta(this.image);
    for (const batch of pending) delta.replayAll(batch.records, batch.baseOffset);
    const lastContainedOffset = last.baseOffset + last.records.length - 1;
    this.image = delta.apply({ lastContainedOffset, lastContainedEpoch: 1 });
    this.appliedBatches = batches.length;
    const manifest: LoaderManifest = {
      kind: "logDelta",
      provenance: this.image.provenance,
      numBatches: pending.length,
      numBytes: 0,
    };
    this.replicaManager.onMetadataUpdate(delta, this.image, manifest);
    await this.world.run(this.replicaManager.whenMetadataApplied());
  }

  /** The local replica of the scenario's partition, if this broker hosts it online. */
  get partition(): Partition | undefined {
    const lookup = this.replicaManager.getPartitionOrError(ORDERS);
    return lookup.kind === "online" ? lookup.partition : undefined;
  }

  /** Whether the scenario's partition is hosted offline here (its log dir failed). */
  get isOffline(): boolean {
    const lookup = this.replicaManager.getPartitionOrError(ORDERS);
    return lookup.kind === "error" && lookup.errorCode === ErrorCode.KAFKA_STORAGE_ERROR;
  }

  /** The fetch state of the partition on this broker's fetcher, if one fetches it. */
  get fetchState(): string | undefined {
    for (const fetcher of this.replicaManager.replicaFetchers.fetcherStates()) {
      for (const { state } of fetcher.partitions) {
        const isDelayed = state.delayedUntilMs !== undefined;
        return `${state.state}${isDelayed ? ", backing off" : ""}`;
      }
    }
    return undefined;
  }

  /** Makes every log durable, as the log flusher does (`flush.ms`). */
  async flush(): Promise<void> {
    for (const log of this.logManager.allLogs()) await this.world.run(log.flush());
  }

  /** Writes the checkpoint files now, the replication-offset (high watermark) one among them. */
  async checkpoint(): Promise<void> {
    await this.world.run(this.logManager.checkpointAll());
  }

  /** A clean shutdown: fetchers stop, logs flush and close, checkpoints and marker written. */
  async shutdown(): Promise<void> {
    await this.world.run(this.replicaManager.shutdown());
    await this.world.run(this.logManager.shutdown(this.brokerEpoch));
  }
}
