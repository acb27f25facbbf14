/**
 * The replica manager (Kafka's ReplicaManager, leader side): the partitions this broker hosts,
 * kept in step with the metadata as a MetadataPublisher, and the routing of produce appends and
 * fetch reads to them. Metadata work runs in its own serial queue (publishers are called
 * synchronously; creating logs is not). A failed log dir takes its partitions offline
 * (KAFKA_STORAGE_ERROR). The purgatory of the broker waits on the partitions' events.
 */
import type { BrokerId } from "../common/index.js";
import {
  EMPTY_IMAGE,
  type LocalPartition,
  type MetadataDelta,
  type MetadataImage,
  type MetadataPublisher,
} from "../metadata/index.js";
import type { Clock, Logger } from "../ports/index.js";
import type { LogConfig, LogManager, PartitionLog, TopicPartition } from "../storage/index.js";
import type { AlterPartitionSender } from "./alter-partition-sender.js";
import { topicsWithChangedConfigs, updateLogConfigs } from "./config-changes.js";
import {
  HostedPartitions,
  type HostedPartition,
  type PartitionLookup,
} from "./hosted-partitions.js";
import { partitionConfigOf, type PartitionConfig } from "./partition-config.js";
import { Partition } from "./partition.driver.js";
import type { ReadRequest } from "./partition-read.driver.js";
import type { AppendOutcome, ReadOutcome } from "./partition-results.js";
import { newPartition } from "./new-partition.js";
import { applyLocalChanges } from "./replica-metadata.driver.js";
import type { AcksAllWait, AppendRecordsResult, ProduceEntry } from "./replica-manager-types.js";

export type { AcksAllWait, AppendRecordsResult, ProduceEntry } from "./replica-manager-types.js";

/** What the replica manager is built from. */
export interface ReplicaManagerOptions {
  readonly brokerId: BrokerId;
  /** This broker's epoch from its registration (sent with its own ISR entry). */
  readonly brokerEpoch: () => number;
  readonly logManager: LogManager;
  readonly alterPartitionSender: AlterPartitionSender;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The static broker config's topic defaults (the node's config file). */
  readonly defaults: PartitionConfig;
  /** `replica.lag.time.max.ms`. */
  readonly replicaLagTimeMaxMs: number;
}

/** The replica manager of one broker. */
export class ReplicaManager implements MetadataPublisher {
  readonly name = "ReplicaManager";
  private readonly hosted = new HostedPartitions();
  private image: MetadataImage = EMPTY_IMAGE;
  private readonly configs = new Map<string, PartitionConfig>();
  private applying: Promise<void> = Promise.resolve();
  private readonly stopListening: () => void;
  private readonly roleListeners = new Set<(topicPartition: TopicPartition) => void>();

  constructor(private readonly options: ReplicaManagerOptions) {
    this.stopListening = options.logManager.onLogDirFailure((failure) => {
      for (const topicPartition of failure.partitions)
        this.takeOffline(topicPartition, failure.logDir);
    });
  }

  /** The latest image this publisher received. */
  get metadataImage(): MetadataImage {
    return this.image;
  }

  /** Queues the local changes of `delta`; `whenMetadataApplied` resolves after them. */
  onMetadataUpdate(delta: MetadataDelta, image: MetadataImage): void {
    this.image = image;
    if (delta.configsDelta !== undefined || delta.topicsDelta !== undefined) this.configs.clear();
    // The open logs take the new configs now, before any later append reads them.
    if (delta.configsDelta !== undefined) {
      updateLogConfigs(this.hosted.online(), topicsWithChangedConfigs(delta), {
        logConfigOf: (topic) => this.logConfigOf(topic),
        logManager: this.options.logManager,
      });
    }
    const changes = delta.localChanges(this.options.brokerId);
    const refreshConfigs = delta.configsDelta !== undefined;
    this.applying = this.applying.then(async () => {
      await applyLocalChanges(this.context(), changes);
      if (refreshConfigs) this.refreshMinInsyncReplicas();
      for (const local of [...changes.deletes, ...changes.leaders, ...changes.followers]) {
        this.notifyRoleChanged({ topic: local.topicName, partition: local.partitionIndex });
      }
    });
  }

  /**
   * Listens for partitions whose local replica changed role: a new leader or leader epoch,
   * followership, deletion, or going offline. The broker completes the delayed produces and
   * fetches waiting on them, as Kafka does on a leader change. Returns the function that stops.
   */
  onPartitionRoleChanged(listener: (topicPartition: TopicPartition) => void): () => void {
    this.roleListeners.add(listener);
    return () => this.roleListeners.delete(listener);
  }

  /** Resolves when every queued metadata change has been applied (rejects on a bug in one). */
  whenMetadataApplied(): Promise<void> {
    return this.applying;
  }

  /** The topic configs of `topic`, for the log manager's `logConfigOf` too. */
  configOf(topic: string): PartitionConfig {
    let config = this.configs.get(topic);
    if (config === undefined) {
      const { defaults, brokerId } = this.options;
      config = partitionConfigOf(this.image, topic, { defaults, brokerId });
      this.configs.set(topic, config);
    }
    return config;
  }

  /** The log config of `topic`, for the log manager's `logConfigOf` (bind it late). */
  logConfigOf(topic: string): LogConfig {
    return this.configOf(topic).log;
  }

  /** A hosted partition, or the error a request for it gets. */
  getPartitionOrError(topicPartition: TopicPartition): PartitionLookup {
    return this.hosted.lookup(topicPartition, this.image);
  }

  /** The online partitions. */
  onlinePartitions(): Partition[] {
    return this.hosted.online();
  }

  /**
   * Appends each entry to its partition as leader (Kafka's appendRecords); the results come at
   * once, and for acks=-1 what the caller must wait for.
   */
  async appendRecords(
    entries: readonly ProduceEntry[],
    options: { readonly requiredAcks: number },
  ): Promise<AppendRecordsResult> {
    const nowMs = this.options.clock.nowMs();
    const results = await Promise.all(
      entries.map(async ({ topicPartition, records }) => {
        const lookup = this.getPartitionOrError(topicPartition);
        if (lookup.kind === "error") {
          const outcome: AppendOutcome = {
            kind: "error",
            errorCode: lookup.errorCode,
            logStartOffset: -1,
            recordErrors: [],
          };
          return { topicPartition, outcome, partition: undefined };
        }
        const { partition } = lookup;
        const outcome = await partition.appendRecordsToLeader(records, {
          requiredAcks: options.requiredAcks,
          nowMs,
        });
        return { topicPartition, outcome, partition };
      }),
    );
    const waits: AcksAllWait[] = [];
    if (options.requiredAcks === -1) {
      for (const { topicPartition, outcome, partition } of results) {
        if (outcome.kind !== "appended" || partition === undefined) continue;
        waits.push({ topicPartition, partition, requiredOffset: outcome.lastOffset + 1 });
      }
    }
    return {
      results: results.map(({ topicPartition, outcome }) => ({ topicPartition, outcome })),
      waits,
    };
  }

  /** Reads each requested partition in order (Kafka's readFromLog with its KIP-74 rule). */
  async fetchMessages(
    requests: readonly {
      readonly topicPartition: TopicPartition;
      readonly request: Omit<ReadRequest, "nowMs" | "minOneBatch">;
    }[],
    options: { readonly maxBytes: number; readonly isHardMaxBytesLimit: boolean },
  ): Promise<{ readonly topicPartition: TopicPartition; readonly outcome: ReadOutcome }[]> {
    const nowMs = this.options.clock.nowMs();
    let remainingBytes = options.maxBytes;
    // The first non-empty partition may exceed the limits, so a large batch is never stuck.
    let minOneBatch = !options.isHardMaxBytesLimit;
    const answers: { topicPartition: TopicPartition; outcome: ReadOutcome }[] = [];
    for (const { topicPartition, request } of requests) {
      const lookup = this.getPartitionOrError(topicPartition);
      if (lookup.kind === "error") {
        const outcome: ReadOutcome = {
          kind: "error",
          errorCode: lookup.errorCode,
          highWatermark: -1,
          logStartOffset: -1,
        };
        answers.push({ topicPartition, outcome });
        continue;
      }
      const maxBytes = Math.min(request.maxBytes, Math.max(0, remainingBytes));
      const outcome = await lookup.partition.readRecords({
        ...request,
        maxBytes,
        minOneBatch,
        nowMs,
      });
      if (outcome.kind === "records" && outcome.sizeInBytes > 0) {
        minOneBatch = false;
        remainingBytes -= outcome.sizeInBytes;
      }
      answers.push({ topicPartition, outcome });
    }
    return answers;
  }

  /** Proposes ISR shrinks where members fell out of sync (Kafka runs it every lag/2 ms). */
  maybeShrinkIsrs(nowMs: number): number {
    let proposals = 0;
    for (const partition of this.hosted.online()) if (partition.maybeShrinkIsr(nowMs)) proposals++;
    return proposals;
  }

  /** Stops listening to the log manager; metadata already queued still applies. */
  async shutdown(): Promise<void> {
    this.stopListening();
    await this.applying;
    await Promise.all(this.hosted.online().map((partition) => partition.whenIdle()));
  }

  private takeOffline(topicPartition: TopicPartition, logDir: string): void {
    const hosted = this.hosted.get(topicPartition);
    if (hosted?.kind === "online") hosted.partition.state.becomeOffline();
    this.hosted.set(topicPartition, { kind: "offline", logDir });
    this.options.logger.warn("partition offline", {
      topicPartition: `${topicPartition.topic}-${topicPartition.partition}`,
      logDir,
    });
    this.notifyRoleChanged(topicPartition);
  }

  private notifyRoleChanged(topicPartition: TopicPartition): void {
    for (const listener of this.roleListeners) listener(topicPartition);
  }

  private refreshMinInsyncReplicas(): void {
    for (const partition of this.hosted.online()) {
      partition.state.updateMinInsyncReplicas(
        this.configOf(partition.topicPartition.topic).minInsyncReplicas,
      );
    }
  }

  private context(): Parameters<typeof applyLocalChanges>[0] {
    return {
      get: (topicPartition) => this.hosted.get(topicPartition),
      delete: (topicPartition) => void this.hosted.delete(topicPartition),
      ensurePartition: (local) => this.ensurePartition(local),
      deleteLog: async (topicPartition) =>
        void (await this.options.logManager.deleteLog(topicPartition)),
      nowMs: () => this.options.clock.nowMs(),
    };
  }

  private async ensurePartition(local: LocalPartition): Promise<HostedPartition> {
    const topicPartition = { topic: local.topicName, partition: local.partitionIndex };
    const existing = this.hosted.get(topicPartition);
    if (existing !== undefined) return existing;
    const { logManager } = this.options;
    const created = await logManager.getOrCreateLog(topicPartition, { topicId: local.topicId });
    if (created.kind !== "log") {
      const logDir = created.kind === "offlineDir" ? created.logDir : undefined;
      const hosted: HostedPartition = { kind: "offline", logDir };
      this.hosted.set(topicPartition, hosted);
      return hosted;
    }
    const hosted: HostedPartition = {
      kind: "online",
      partition: this.newPartition(local, created.log, created.logDir),
    };
    this.hosted.set(topicPartition, hosted);
    return hosted;
  }

  private newPartition(local: LocalPartition, log: PartitionLog, logDir: string): Partition {
    return newPartition(
      {
        ...this.options,
        configOf: (topic) => this.configOf(topic),
        image: () => this.image,
      },
      { local, log, logDir },
    );
  }
}
