/**
 * The replica manager (Kafka's ReplicaManager). This file owns one state machine: the replicas
 * this broker hosts (online with their Partition, or offline with their failed dir, see
 * hosted-partitions.ts) and which of them its replica fetchers follow.
 *
 * As a MetadataPublisher it applies each delta's local changes in Kafka's order, in its own
 * serial queue (publishers are called synchronously; logs are not): deleted replicas stop
 * fetching, go offline and lose their logs; new leaders stop fetching first, then start their
 * leader epoch; followers take their new role and, on a new leader epoch or leader, start
 * fetching from the leader's inter-broker listener at the offset their log allows. It routes
 * produce appends and fetch reads to the partitions, proposes ISR shrinks on its tick, and takes
 * the partitions of a failed log dir offline, stopping their fetchers. The purgatory of the
 * broker waits on the partitions' events and on `onPartitionRoleChanged`. Its replication
 * throttles (KIP-73) follow the configs of each image.
 */
import type { BrokerId } from "../common/index.js";
import {
  EMPTY_IMAGE,
  type LoaderManifest,
  type LocalPartition,
  type LocalPartitionReference,
  type MetadataDelta,
  type MetadataImage,
  type MetadataPublisher,
} from "../metadata/index.js";
import type { Address, Clock, Logger, Timers } from "../ports/index.js";
import type { LeaderOrigin, LogConfig, LogManager, PartitionLog } from "../storage/index.js";
import type { GetOrCreateLogResult, TopicPartition } from "../storage/index.js";
import type { AlterPartitionSender } from "./alter-partition-sender.js";
import { topicsWithChangedConfigs, updateLogConfigs } from "./config-changes.js";
import { reportDirectories, type DirectoryAssigner } from "./directory-assignments.js";
import { initialFetchState } from "./fetch-state.js";
import { HostedPartitions, type PartitionLookup } from "./hosted-partitions.js";
import type { LeaderEndpoint } from "./leader-endpoint.driver.js";
import { partitionConfigOf, type PartitionConfig } from "./partition-config.js";
import { Partition } from "./partition.driver.js";
import type { AppendOutcome, ProduceEntry, ReadOutcome, ReadRequest } from "./partition-results.js";
import { newPartition } from "./new-partition.js";
import { ReplicaAlterLogDirs } from "./replica-alter-log-dirs.driver.js";
import {
  findPreferredReadReplica,
  isFetchOnlyFromLeader,
  redirectedRead,
} from "./preferred-read-replica.js";
import type { ClientMetadata, ReplicaSelector } from "./replica-selector.js";
import {
  ReplicaFetcherManager,
  type FollowedPartition,
  type ReplicaFetcherManagerSettings,
} from "./replica-fetcher-manager.driver.js";
import {
  IsrChangeTotals,
  summarizeReplication,
  type ReplicationSummary,
} from "./replication-summary.js";
import { ReplicationQuotas } from "./replication-quotas.driver.js";
import { recoveredRoles } from "./recovered-partitions.js";

/** One partition's records of a Produce request. */
/** What an acks=all produce must wait for, per appended partition (the purgatory's key). */
export interface AcksAllWait {
  readonly topicPartition: TopicPartition;
  readonly partition: Partition;
  /** Done when the high watermark reaches this (lastOffset + 1), or the ISR shrinks below. */
  readonly requiredOffset: number;
}

export interface AppendRecordsResult {
  readonly results: readonly {
    readonly topicPartition: TopicPartition;
    readonly outcome: AppendOutcome;
  }[];
  /**
   * For acks=-1: the partitions to wait on (see Partition.checkEnoughReplicasReachOffset), empty
   * when every partition failed (Kafka's delayedProduceRequestRequired), which answers at once.
   */
  readonly waits: readonly AcksAllWait[];
}

/** How the replica manager reaches other brokers as a follower. */
export interface ReplicationNetwork {
  /** `inter.broker.listener.name`: the listener of a leader that followers fetch from. */
  readonly listenerName: string;
  /** A leader's endpoint; `address` is where its inter-broker listener is registered. */
  readonly endpointOf: (leaderId: BrokerId, address: Address) => LeaderEndpoint;
  readonly fetchers: ReplicaFetcherManagerSettings;
}

export interface ReplicaManagerOptions {
  readonly brokerId: BrokerId;
  /** This broker's epoch from its registration (sent with its ISR entry and its fetches). */
  readonly brokerEpoch: () => number;
  readonly logManager: LogManager;
  readonly alterPartitionSender: AlterPartitionSender;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
  /** The static broker config's topic defaults (the node's config file). */
  readonly defaults: PartitionConfig;
  /** `replica.lag.time.max.ms`. */
  readonly replicaLagTimeMaxMs: number;
  readonly network: ReplicationNetwork;
  /** The replication throttles; when absent, Kafka's defaults and no metrics. */
  readonly replicationQuotas?: ReplicationQuotas;
  /** Where replicas' log dirs are reported to the controller (KIP-858); none in some tests. */
  readonly directoryAssigner?: DirectoryAssigner;
  /** `replica.selector.class`: undefined when unset, and consumers read from the leader. */
  readonly replicaSelector: ReplicaSelector | undefined;
}

export class ReplicaManager implements MetadataPublisher {
  readonly name = "ReplicaManager";
  private readonly hosted = new HostedPartitions();
  private image: MetadataImage = EMPTY_IMAGE;
  private readonly configs = new Map<string, PartitionConfig>();
  private applying: Promise<void> = Promise.resolve();
  private readonly stopListening: () => void;
  private readonly roleListeners = new Set<(topicPartition: TopicPartition) => void>();
  private readonly fetchers: ReplicaFetcherManager;
  private readonly logDirMoves: ReplicaAlterLogDirs;
  private readonly downstream: MetadataPublisher[] = [];
  private readonly isrChanges = new IsrChangeTotals();
  private isShutDown = false;
  /** The leader and follower replication throttles (KIP-73). */
  readonly replicationQuotas: ReplicationQuotas;

  constructor(private readonly options: ReplicaManagerOptions) {
    this.replicationQuotas =
      options.replicationQuotas ?? new ReplicationQuotas(options.brokerId, options);
    const stopFailures = options.logManager.onLogDirFailure((failure) => {
      for (const topicPartition of failure.partitions) {
        this.takeOffline(topicPartition, failure.logDir);
      }
    });
    // The replicas of a dir back from a full disk take their roles again.
    const stopRecoveries = options.logManager.fullDirRecovery.subscribe((recovery) => {
      this.hosted.forgetOffline(recovery.partitions, recovery.logDir);
      this.applying = this.applying.then(() => this.applyRecovered(recovery.partitions));
    });
    this.stopListening = () => [stopFailures, stopRecoveries].forEach((stop) => stop());
    this.logDirMoves = new ReplicaAlterLogDirs({
      ...options,
      hosted: (topicPartition) => this.hosted.get(topicPartition),
      image: () => this.image,
    });
    this.fetchers = new ReplicaFetcherManager(
      {
        brokerId: options.brokerId,
        brokerEpoch: options.brokerEpoch,
        partition: (topicPartition) => this.onlinePartition(topicPartition),
        followerQuota: this.replicationQuotas.follower,
      },
      (leaderId) => this.leaderEndpoint(leaderId),
      { clock: options.clock, timers: options.timers, logger: options.logger },
      options.network.fetchers,
    );
  }

  get metadataImage(): MetadataImage {
    return this.image;
  }

  /** The replica fetchers and the partitions they follow. */
  get replicaFetchers(): ReplicaFetcherManager {
    return this.fetchers;
  }

  /**
   * Makes `publisher` see each delta only once this broker's replicas follow it, so that what
   * the broker serves as metadata (the metadata cache) never names a partition it leads before
   * the partition is there to answer (Kafka's brokers answer such a window with retriable
   * errors; here there is none).
   */
  publishAfterApplying(publisher: MetadataPublisher): void {
    this.downstream.push(publisher);
  }

  /** Queues the local changes of `delta`; `whenMetadataApplied` resolves after them. */
  onMetadataUpdate(delta: MetadataDelta, image: MetadataImage, manifest: LoaderManifest): void {
    this.image = image;
    if (delta.configsDelta !== undefined || delta.topicsDelta !== undefined) this.configs.clear();
    // The open logs and the throttles take the new configs now, before any later read.
    if (delta.configsDelta !== undefined) {
      this.replicationQuotas.update(delta, image);
      updateLogConfigs(this.hosted.online(), topicsWithChangedConfigs(delta), {
        logConfigOf: (topic) => this.logConfigOf(topic),
        logManager: this.options.logManager,
      });
    }
    const changes = delta.localChanges(this.options.brokerId);
    const refreshConfigs = delta.configsDelta !== undefined;
    this.applying = this.applying.then(async () => {
      const removed = this.isShutDown ? [] : await this.stopDeletedReplicas(changes.deletes);
      if (!this.isShutDown) {
        await this.applyLeaders(changes.leaders);
        await this.applyFollowers(changes.followers, image);
        if (refreshConfigs) this.refreshMinInsyncReplicas();
        reportDirectories([...changes.leaders, ...changes.followers], image, this.options);
      }
      for (const publisher of this.downstream) publisher.onMetadataUpdate(delta, image, manifest);
      for (const local of [...changes.deletes, ...changes.leaders, ...changes.followers]) {
        this.notifyRoleChanged({ topic: local.topicName, partition: local.partitionIndex });
      }
      // Files go last: nothing waits on them, but a topic made again waits for its old logs.
      for (const topicPartition of removed) {
        await this.options.logManager.deleteLog(topicPartition);
      }
      if (!this.isShutDown) await this.fetchers.shutdownIdleFetchers();
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

  /** A hosted partition, or the error a request for it gets (Kafka's getPartitionOrError). */
  getPartitionOrError(topicPartition: TopicPartition): PartitionLookup {
    return this.hosted.lookup(topicPartition, this.image);
  }

  onlinePartitions(): Partition[] {
    return this.hosted.online();
  }

  /** The numbers behind Kafka's ReplicaManager metrics, now (replication-summary.ts). */
  replicationSummary(): ReplicationSummary {
    const { hosted, image, fetchers, isrChanges } = this;
    return summarizeReplication({ hosted, image, fetchers, isrChanges });
  }

  /**
   * Appends each entry to its partition as leader (Kafka's appendRecords); the results come at
   * once, and for acks=-1 what the caller must wait for.
   */
  async appendRecords(
    entries: readonly ProduceEntry[],
    options: { readonly requiredAcks: number; readonly origin?: LeaderOrigin },
  ): Promise<AppendRecordsResult> {
    const nowMs = this.options.clock.nowMs();
    const results = await Promise.all(
      entries.map(async ({ topicPartition, records, verification }) => {
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
        const at = { ...options, nowMs, ...(verification === undefined ? {} : { verification }) };
        const outcome = await partition.appendRecordsToLeader(records, at);
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

  /**
   * Reads each requested partition in order (Kafka's readFromLog with its KIP-74 rule): the
   * records come as the bytes of the log's file pieces, ready to be written as they are. A
   * consumer that sent client metadata (Fetch v11+) may be read from here as a follower, and is
   * sent to a closer replica, unread, when this broker leads and the selector names one.
   */
  async fetchMessages(
    requests: readonly {
      readonly topicPartition: TopicPartition;
      readonly request: Omit<ReadRequest, "nowMs" | "minOneBatch" | "fetchOnlyLeader">;
    }[],
    options: {
      readonly maxBytes: number;
      readonly isHardMaxBytesLimit: boolean;
      readonly clientMetadata: ClientMetadata | undefined;
    },
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
      const { partition } = lookup;
      const preferred = this.preferredReadReplicaOf(partition, request, options, nowMs);
      if (preferred !== undefined) {
        const outcome = redirectedRead(partition, request.currentLeaderEpoch, preferred);
        answers.push({ topicPartition, outcome });
        continue;
      }
      // KIP-73: a throttled follower's read still records its offset, but carries no bytes.
      const isThrottled = this.replicationQuotas.shouldLeaderThrottle(partition, request.replicaId);
      const maxBytes = isThrottled ? 0 : Math.min(request.maxBytes, Math.max(0, remainingBytes));
      const outcome = await partition.readRecords({
        ...request,
        fetchOnlyLeader: isFetchOnlyFromLeader(request.replicaId, options.clientMetadata),
        maxBytes,
        minOneBatch: minOneBatch && !isThrottled,
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

  /** Moves a replica to another of this broker's log dirs (AlterReplicaLogDirs); an error code. */
  alterReplicaLogDir(topicPartition: TopicPartition, targetDir: string): Promise<number> {
    return this.logDirMoves.alterReplicaLogDir(topicPartition, targetDir);
  }

  /** Proposes ISR shrinks where members fell out of sync (Kafka runs it every lag/2 ms). */
  maybeShrinkIsrs(nowMs: number): number {
    let proposals = 0;
    for (const partition of this.hosted.online()) if (partition.maybeShrinkIsr(nowMs)) proposals++;
    return proposals;
  }

  /** Stops the fetchers and listening to the log manager; queued metadata still applies. */
  async shutdown(): Promise<void> {
    this.stopListening();
    await this.applying;
    this.isShutDown = true;
    await this.logDirMoves.shutdown();
    await this.fetchers.shutdown();
    await Promise.all(this.hosted.online().map((partition) => partition.whenIdle()));
  }

  /**
   * Stops the replicas this broker no longer hosts; resolves to those whose logs are to be
   * deleted (a log in a failed dir cannot be deleted now; it stays until the dir is repaired).
   */
  private async stopDeletedReplicas(
    deletes: readonly LocalPartitionReference[],
  ): Promise<TopicPartition[]> {
    const topicPartitions = deletes.map(topicPartitionOf);
    await this.fetchers.removeFetcherForPartitions(topicPartitions);
    const toDelete: TopicPartition[] = [];
    for (const topicPartition of topicPartitions) {
      const hosted = this.hosted.delete(topicPartition);
      if (hosted?.kind === "online") hosted.partition.becomeOffline();
      if (hosted?.kind !== "offline") toDelete.push(topicPartition);
    }
    return toDelete;
  }

  /** Kafka's applyLocalLeadersDelta: fetchers stop first, so no follower append races the epoch. */
  private async applyRecovered(partitions: readonly TopicPartition[]): Promise<void> {
    if (this.isShutDown) return;
    const roles = recoveredRoles(this.image, partitions, this.options.brokerId);
    await this.applyLeaders(roles.leaders);
    await this.applyFollowers(roles.followers, this.image);
    reportDirectories([...roles.leaders, ...roles.followers], this.image, this.options);
  }

  private async applyLeaders(leaders: readonly LocalPartition[]): Promise<void> {
    await this.fetchers.removeFetcherForPartitions(leaders.map(topicPartitionOf));
    const partitions = await this.ensureHosted(leaders);
    leaders.forEach((local, index) => {
      partitions[index]?.becomeLeader(local.partition, this.options.clock.nowMs());
    });
  }

  /**
   * Kafka's applyLocalFollowersDelta: every follower takes its role; those with a new leader
   * epoch (or just created) restart fetching from the leader named, when the leader is a
   * registered broker with the inter-broker listener; a partition without a leader stops.
   */
  private async applyFollowers(
    followers: readonly LocalPartition[],
    image: MetadataImage,
  ): Promise<void> {
    const toStart: { readonly local: LocalPartition; readonly partition: Partition }[] = [];
    const toStop: TopicPartition[] = [];
    const partitions = await this.ensureHosted(followers);
    for (const [index, local] of followers.entries()) {
      const partition = partitions[index];
      if (partition === undefined) continue;
      const change = partition.becomeFollower(local.partition);
      if (change.kind === "skipped") continue;
      const isFetched = this.fetchers.isFetching(partition.topicPartition);
      if (local.partition.leader < 0) toStop.push(partition.topicPartition);
      else if (change.isNewLeaderEpoch || !isFetched) toStart.push({ local, partition });
    }
    // Stopping first lets each fetch start from the log as it is now.
    await this.fetchers.removeFetcherForPartitions([
      ...toStop,
      ...toStart.map(({ partition }) => partition.topicPartition),
    ]);
    const followed: FollowedPartition[] = [];
    for (const { local, partition } of toStart) {
      const leaderId = local.partition.leader;
      if (this.leaderAddress(image, leaderId) === undefined) {
        this.options.logger.debug("partition leader is not reachable yet; not fetching", {
          topicPartition: `${local.topicName}-${local.partitionIndex}`,
          leaderId,
        });
        continue;
      }
      const initial = initialFetchState(
        {
          logEndOffset: partition.logEndOffset,
          highWatermark: partition.highWatermark,
          latestEpoch: partition.latestEpoch,
        },
        local.partition.leaderEpoch,
      );
      followed.push({
        topicPartition: partition.topicPartition,
        topicId: local.topicId,
        leaderId,
        initial,
      });
    }
    await this.fetchers.addFetcherForPartitions(followed);
  }

  private preferredReadReplicaOf(
    partition: Partition,
    request: { readonly replicaId: number; readonly fetchOffset: number },
    options: { readonly clientMetadata: ClientMetadata | undefined },
    nowMs: number,
  ): BrokerId | undefined {
    const selector = this.options.replicaSelector;
    const client = options.clientMetadata;
    if (selector === undefined || client === undefined) return undefined;
    const { brokerId } = this.options;
    const { role, isr, logEndOffset } = partition;
    return findPreferredReadReplica(
      { brokerId, role, isr, logEndOffset },
      { ...request, selector, client, nowMs, broker: (id) => this.image.cluster.brokers.get(id) },
    );
  }

  private leaderEndpoint(leaderId: BrokerId): LeaderEndpoint {
    const address = this.leaderAddress(this.image, leaderId);
    // A fetcher is only made for a leader found in the image, whose address it just read.
    if (address === undefined) throw new RangeError(`no inter-broker endpoint for ${leaderId}`);
    return this.options.network.endpointOf(leaderId, address);
  }

  private leaderAddress(image: MetadataImage, leaderId: BrokerId): Address | undefined {
    const broker = image.cluster.brokers.get(leaderId);
    const listener = broker?.listeners.find(
      (endpoint) => endpoint.name === this.options.network.listenerName,
    );
    return listener === undefined ? undefined : { host: listener.host, port: listener.port };
  }

  private onlinePartition(topicPartition: TopicPartition): Partition | undefined {
    const hosted = this.hosted.get(topicPartition);
    return hosted?.kind === "online" ? hosted.partition : undefined;
  }

  private takeOffline(topicPartition: TopicPartition, logDir: string): void {
    const hosted = this.hosted.get(topicPartition);
    if (hosted?.kind === "online") hosted.partition.becomeOffline();
    this.hosted.set(topicPartition, { kind: "offline", logDir });
    // Its fetcher stops in the metadata queue, which shutdown awaits.
    this.applying = this.applying.then(() =>
      this.fetchers.removeFetcherForPartitions([topicPartition]),
    );
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
      partition.updateMinInsyncReplicas(
        this.configOf(partition.topicPartition.topic).minInsyncReplicas,
      );
    }
  }

  /** The online partition of each replica, made with its log where it is not hosted yet. */
  private async ensureHosted(
    locals: readonly LocalPartition[],
  ): Promise<(Partition | undefined)[]> {
    const missing = locals.filter((local) => !this.hosted.has(topicPartitionOf(local)));
    const created = await this.options.logManager.getOrCreateLogs(
      missing.map((local) => ({ topicPartition: topicPartitionOf(local), topicId: local.topicId })),
    );
    missing.forEach((local, index) => {
      const make = (log: PartitionLog, logDir: string) => this.newPartition(local, log, logDir);
      this.hosted.hostCreated(
        topicPartitionOf(local),
        created[index] as GetOrCreateLogResult,
        make,
      );
    });
    return locals.map((local) => this.onlinePartition(topicPartitionOf(local)));
  }

  private newPartition(local: LocalPartition, log: PartitionLog, logDir: string): Partition {
    return newPartition(
      {
        ...this.options,
        configOf: (topic) => this.configOf(topic),
        image: () => this.image,
        onIsrChange: (change) => this.isrChanges.record(change),
      },
      { local, log, logDir },
    );
  }
}

function topicPartitionOf(reference: LocalPartitionReference): TopicPartition {
  return { topic: reference.topicName, partition: reference.partitionIndex };
}
