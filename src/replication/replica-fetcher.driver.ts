/**
 * One replica fetcher (Kafka's ReplicaFetcherThread over AbstractFetcherThread): a loop that
 * fetches the partitions this broker follows from one leader, in one incremental fetch session.
 * This file owns one state machine: the fetch state of each of its partitions (fetch-state.ts
 * lists the states) and the loop's own: running, then stopped for good by `shutdown`.
 *
 * Each round first truncates the partitions that need it (to the high watermark when the log has
 * no epochs, else where OffsetsForLeaderEpoch says the logs diverge), then sends one Fetch for
 * the partitions ready to fetch and, for each partition answered: appends the batches with the
 * leader's offsets and epochs and takes the leader's high watermark; truncates on a diverging
 * epoch (KIP-320); on OFFSET_OUT_OF_RANGE moves to the leader's log end or start; on
 * FENCED_LEADER_EPOCH stops fetching it until new metadata; on any other error holds it back
 * for `replica.fetch.backoff.ms`; a throttled replica may be left out (KIP-73). A round with
 * nothing to fetch waits for a partition to be added or a backoff to end. Every change to a
 * partition's log is made only while the partition is still this fetcher's, and removing
 * partitions waits for a change in progress, but never for a request to the leader (a dead
 * leader's fetch may wait out its timeout; nobody waits with it).
 */
import { AssertionError, ErrorCode, type BrokerId } from "../common/index.js";
import type { Clock, Logger, Timer, Timers } from "../ports/index.js";
import type { TopicPartition } from "../storage/index.js";
import {
  afterFetch,
  afterTruncation,
  delayed,
  fetchErrorAction,
  isDelayed,
  isReadyForFetch,
  outOfRangeDecision,
  truncationFor,
  type PartitionFetchState,
} from "./fetch-state.js";
import { FetchSessionHandler, type SessionPartition } from "./fetch-session-handler.js";
import {
  partitionKey,
  type FetchedPartition,
  type LeaderEndpoint,
} from "./leader-endpoint.driver.js";
import type { Partition } from "./partition.driver.js";
import { wholeBatchesPrefix } from "./record-batches.js";
import { shouldFollowerThrottle, type ReplicaQuota } from "./replication-quotas.driver.js";

/** The settings of a fetcher, named after Kafka's configs. */
export interface ReplicaFetcherSettings {
  /** `replica.fetch.wait.max.ms`. */
  readonly maxWaitMs: number;
  /** `replica.fetch.min.bytes`. */
  readonly minBytes: number;
  /** `replica.fetch.response.max.bytes`. */
  readonly responseMaxBytes: number;
  /** `replica.fetch.max.bytes`: per partition. */
  readonly partitionMaxBytes: number;
  /** `replica.fetch.backoff.ms`. */
  readonly backoffMs: number;
  /** `broker.rack`, sent in Fetch v11+ (empty when unset). */
  readonly rackId: string;
}

/** What a fetcher reads from its broker. */
export interface FetcherHost {
  readonly brokerId: BrokerId;
  readonly brokerEpoch: () => number;
  /** The online local replica of `topicPartition`, if this broker still hosts it. */
  readonly partition: (topicPartition: TopicPartition) => Partition | undefined;
  /** Tells the broker that a fetched partition hit a storage error (it goes offline). */
  readonly onPartitionFailed?: (topicPartition: TopicPartition, errorCode: number) => void;
  /** Bytes appended by replication (metrics, throttles). */
  readonly onBytesFetched?: (topicPartition: TopicPartition, bytes: number) => void;
  /** The follower replication throttle; none when absent. */
  readonly followerQuota?: ReplicaQuota;
}

/** What a request to the leader resolves to when the fetcher stopped while waiting. */
const STOPPED = Symbol("stopped");

interface Entry {
  readonly topicPartition: TopicPartition;
  readonly topicId: string;
  state: PartitionFetchState;
}

/** A partition a fetcher starts fetching, with the state it starts in. */
export interface FetcherPartition {
  readonly topicPartition: TopicPartition;
  readonly topicId: string;
  readonly initial: PartitionFetchState;
}

export class ReplicaFetcher {
  private readonly entries = new Map<string, Entry>();
  private readonly session = new FetchSessionHandler();
  private isStopped = false;
  private loop: Promise<void> | undefined;
  /** The change to a partition's log in progress, if any (see `change`). */
  private changing: Promise<unknown> = Promise.resolve();
  private wake: (() => void) | undefined;
  private readonly stopped: Promise<typeof STOPPED>;
  private signalStopped: () => void = () => undefined;

  constructor(
    readonly leaderId: BrokerId,
    readonly fetcherId: number,
    private readonly endpoint: LeaderEndpoint,
    private readonly host: FetcherHost,
    private readonly ports: {
      readonly clock: Clock;
      readonly timers: Timers;
      readonly logger: Logger;
    },
    private readonly settings: ReplicaFetcherSettings,
  ) {
    this.stopped = new Promise((resolve) => (this.signalStopped = () => resolve(STOPPED)));
  }

  get partitionCount(): number {
    return this.entries.size;
  }

  has(topicPartition: TopicPartition): boolean {
    return this.entries.has(partitionKey(topicPartition));
  }

  /** The partitions and their fetch states, for metrics and tests. */
  states(): { readonly topicPartition: TopicPartition; readonly state: PartitionFetchState }[] {
    return [...this.entries.values()].map(({ topicPartition, state }) => ({
      topicPartition,
      state,
    }));
  }

  /**
   * Starts fetching `partitions`. A partition already fetched at the same leader epoch keeps its
   * state (a metadata replay changes nothing); a new epoch starts over from `initial`.
   */
  addPartitions(partitions: readonly FetcherPartition[]): void {
    for (const { topicPartition, topicId, initial } of partitions) {
      const key = partitionKey(topicPartition);
      const known = this.entries.get(key);
      if (known?.state.currentLeaderEpoch === initial.currentLeaderEpoch) continue;
      this.entries.set(key, { topicPartition, topicId, state: initial });
    }
    this.wakeUp();
    if (this.loop === undefined && !this.isStopped) {
      this.loop = this.run().catch((error: unknown) => {
        if (error instanceof AssertionError) throw error;
        this.ports.logger.error("replica fetcher stopped on an unexpected error", {
          leaderId: this.leaderId,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      });
    }
  }

  /** Stops fetching `partitions`; resolves once no change to their logs is in progress. */
  async removePartitions(partitions: readonly TopicPartition[]): Promise<void> {
    for (const topicPartition of partitions) this.entries.delete(partitionKey(topicPartition));
    await this.changing;
  }

  /** Stops the loop for good; a request in flight is abandoned, its answer ignored. */
  async shutdown(): Promise<void> {
    this.isStopped = true;
    this.entries.clear();
    this.signalStopped();
    this.wakeUp();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.isStopped) {
      const waitMs = await this.runRound();
      if (waitMs !== undefined && !this.isStopped) await this.idle(waitMs);
    }
  }

  /**
   * Runs `work` on the log of `entry`'s partition if the partition is still this fetcher's
   * (undefined otherwise); removal waits for it. Checked and begun in one turn, so a removal
   * either comes before (and the work is skipped) or waits for the work.
   */
  private async change<T>(entry: Entry, work: () => Promise<T>): Promise<T | undefined> {
    if (this.entries.get(partitionKey(entry.topicPartition)) !== entry) return undefined;
    const running = work();
    this.changing = running.catch(() => undefined);
    return running;
  }

  /** `request`'s answer, or STOPPED when the fetcher stops first. */
  private whileRunning<T>(request: Promise<T>): Promise<T | typeof STOPPED> {
    return Promise.race([request, this.stopped]);
  }

  /** One round; resolves to how long to wait before the next, or undefined to go on at once. */
  private async runRound(): Promise<number | undefined> {
    await this.truncatePartitions();
    const nowMs = this.ports.clock.monotonicMs();
    const { followerQuota } = this.host;
    const ready = [...this.entries.values()].filter(
      ({ state, topicPartition }) =>
        isReadyForFetch(state, nowMs) &&
        !shouldFollowerThrottle(followerQuota, { topicPartition, lag: state.lag }),
    );
    const request = this.session.build(ready.map((entry) => this.sessionPartition(entry)));
    if (request.sessionPartitions.size === 0 && request.toForget.length === 0) {
      return this.nextWakeMs(nowMs);
    }
    const sent = new Map([...request.sessionPartitions].map(([key, data]) => [key, data]));
    const result = await this.whileRunning(
      this.endpoint.fetch({
        replicaId: this.host.brokerId,
        brokerEpoch: this.host.brokerEpoch(),
        maxWaitMs: this.settings.maxWaitMs,
        minBytes: this.settings.minBytes,
        maxBytes: this.settings.responseMaxBytes,
        rackId: this.settings.rackId,
        session: request,
      }),
    );
    if (result === STOPPED) return undefined;
    if (result.kind === "failed") {
      this.session.handleError();
      this.ports.logger.debug("fetch from the partition leader failed", {
        leaderId: this.leaderId,
        problem: result.message,
      });
      this.delayAll(sent.keys());
      return undefined;
    }
    const keys = result.partitions.map((partition) => partition.key);
    const isUsable = this.session.handleResponse(request, { ...result, partitionKeys: keys });
    if (!isUsable) {
      const isSessionError =
        result.errorCode === ErrorCode.FETCH_SESSION_ID_NOT_FOUND ||
        result.errorCode === ErrorCode.INVALID_FETCH_SESSION_EPOCH;
      // A lost session is found again by the next (full) request; anything else waits.
      if (!isSessionError) this.delayAll(sent.keys());
      return undefined;
    }
    for (const fetched of result.partitions) {
      const asked = sent.get(fetched.key);
      if (asked !== undefined) await this.processPartition(fetched, asked);
    }
    return undefined;
  }

  private sessionPartition(entry: Entry): SessionPartition {
    const partition = this.host.partition(entry.topicPartition);
    return {
      topicName: entry.topicPartition.topic,
      topicId: entry.topicId,
      partition: entry.topicPartition.partition,
      fetchOffset: entry.state.fetchOffset,
      logStartOffset: partition?.logStartOffset ?? -1,
      partitionMaxBytes: this.settings.partitionMaxBytes,
      currentLeaderEpoch: entry.state.currentLeaderEpoch,
      lastFetchedEpoch: entry.state.lastFetchedEpoch ?? -1,
    };
  }

  /** Applies one partition's answer, if the partition is still fetched from where it asked. */
  private async processPartition(fetched: FetchedPartition, asked: SessionPartition) {
    const entry = this.entries.get(fetched.key);
    if (entry === undefined) return;
    const { state } = entry;
    const isCurrent =
      state.state === "fetching" &&
      state.fetchOffset === asked.fetchOffset &&
      state.currentLeaderEpoch === asked.currentLeaderEpoch;
    if (!isCurrent) return;
    const partition = this.host.partition(entry.topicPartition);
    if (partition === undefined) return;
    if (fetched.errorCode !== ErrorCode.NONE) {
      await this.handleFetchError(entry, partition, fetched.errorCode);
      return;
    }
    if (fetched.divergingEpoch !== undefined) {
      await this.truncate(entry, partition, fetched.divergingEpoch);
      return;
    }
    await this.appendFetched(entry, partition, fetched);
  }

  private async appendFetched(entry: Entry, partition: Partition, fetched: FetchedPartition) {
    const records = wholeBatchesPrefix(fetched.records);
    let nextOffset = entry.state.fetchOffset;
    let latestEpoch = entry.state.lastFetchedEpoch;
    const nowMs = this.ports.clock.nowMs();
    if (records.length > 0) {
      const appended = await this.change(entry, () =>
        partition.appendRecordsAsFollower(records, {
          fetchLeaderEpoch: entry.state.currentLeaderEpoch,
          nowMs,
        }),
      );
      if (appended === undefined) return;
      if (appended.kind === "error") {
        this.failPartition(entry, appended.errorCode);
        return;
      }
      nextOffset = appended.logEndOffset;
      latestEpoch = appended.latestEpoch;
      this.host.onBytesFetched?.(entry.topicPartition, records.length);
    }
    // Caught-up replicas count too, so the whole throttled traffic stays under the bound.
    const quota = this.host.followerQuota;
    if (quota?.isThrottled(entry.topicPartition) === true) quota.record(records.length);
    const failed = await this.change(entry, () =>
      partition.updateFollowerOffsets({
        highWatermark: fetched.highWatermark,
        logStartOffset: fetched.logStartOffset,
      }),
    );
    if (failed !== undefined) {
      this.failPartition(entry, failed.errorCode);
      return;
    }
    if (this.entries.get(partitionKey(entry.topicPartition)) !== entry) return;
    const leaderHighWatermark = fetched.highWatermark;
    entry.state = afterFetch(entry.state, { nextOffset, leaderHighWatermark, latestEpoch });
  }

  private async handleFetchError(entry: Entry, partition: Partition, errorCode: number) {
    switch (fetchErrorAction(errorCode)) {
      case "outOfRange":
        await this.moveOutOfRange(entry, partition);
        return;
      case "awaitMetadata":
        this.ports.logger.info("partition leader has a newer epoch; waiting for metadata", {
          topicPartition: `${entry.topicPartition.topic}-${entry.topicPartition.partition}`,
          leaderEpoch: entry.state.currentLeaderEpoch,
        });
        this.entries.delete(partitionKey(entry.topicPartition));
        return;
      case "backoff":
        this.delayOne(entry);
        return;
    }
  }

  /** Kafka's fetchOffsetAndTruncate: asks the leader for its log end, then its log start. */
  private async moveOutOfRange(entry: Entry, partition: Partition): Promise<void> {
    const currentLeaderEpoch = entry.state.currentLeaderEpoch;
    const end = await this.whileRunning(
      this.endpoint.fetchOffset(entry.topicPartition, { currentLeaderEpoch, timestamp: -1 }),
    );
    if (end === STOPPED) return;
    const start = await this.whileRunning(
      this.endpoint.fetchOffset(entry.topicPartition, { currentLeaderEpoch, timestamp: -2 }),
    );
    if (start === STOPPED) return;
    if (end.kind === "failed" || start.kind === "failed" || end.errorCode !== ErrorCode.NONE) {
      this.delayOne(entry);
      return;
    }
    if (start.errorCode !== ErrorCode.NONE) {
      this.delayOne(entry);
      return;
    }
    const decision = outOfRangeDecision({
      logEndOffset: end.offset,
      logStartOffset: start.offset,
      replicaLogEndOffset: partition.logEndOffset,
    });
    this.ports.logger.warn("follower fetch offset out of range at the leader", {
      topicPartition: `${entry.topicPartition.topic}-${entry.topicPartition.partition}`,
      logEndOffset: partition.logEndOffset,
      leaderLogStartOffset: start.offset,
      leaderLogEndOffset: end.offset,
      decision: decision.kind,
    });
    let failed: { readonly errorCode: number } | undefined;
    if (decision.kind === "truncateTo") {
      failed = await this.change(entry, () => partition.truncateTo(decision.offset));
    }
    if (decision.kind === "startAt") {
      failed = await this.change(entry, () => partition.truncateFullyAndStartAt(decision.offset));
    }
    if (failed !== undefined) {
      this.failPartition(entry, failed.errorCode);
      return;
    }
    if (this.entries.get(partitionKey(entry.topicPartition)) !== entry) return;
    entry.state = afterTruncation(
      entry.state,
      { offset: partition.logEndOffset, isComplete: true },
      partition.latestEpoch,
    );
  }

  /** Truncates the partitions in the truncating state (Kafka's maybeTruncate). */
  private async truncatePartitions(): Promise<void> {
    const nowMs = this.ports.clock.monotonicMs();
    const truncating = [...this.entries.values()].filter(
      (entry) => entry.state.state === "truncating" && !isDelayed(entry.state, nowMs),
    );
    const withEpochs: { entry: Entry; partition: Partition; latestEpoch: number }[] = [];
    for (const entry of truncating) {
      const partition = this.host.partition(entry.topicPartition);
      if (partition === undefined) continue;
      const latestEpoch = partition.latestEpoch;
      if (latestEpoch !== undefined) {
        withEpochs.push({ entry, partition, latestEpoch });
        continue;
      }
      // Without epochs only the high watermark is known to be committed.
      const highWatermark = partition.highWatermark;
      await this.truncate(entry, partition, { epoch: -1, endOffset: highWatermark });
    }
    if (withEpochs.length === 0) return;
    const answers = await this.whileRunning(
      this.endpoint.endOffsetsForEpochs(
        withEpochs.map(({ entry, latestEpoch }) => ({
          topicPartition: entry.topicPartition,
          currentLeaderEpoch: entry.state.currentLeaderEpoch,
          leaderEpoch: latestEpoch,
        })),
      ),
    );
    if (answers === STOPPED) return;
    for (const { entry, partition } of withEpochs) {
      const answer = answers.get(partitionKey(entry.topicPartition));
      if (this.entries.get(partitionKey(entry.topicPartition)) !== entry) continue;
      if (answer === undefined || answer.kind === "failed") this.delayOne(entry);
      else if (answer.errorCode === ErrorCode.NONE)
        await this.truncate(entry, partition, answer.end);
      else await this.handleFetchError(entry, partition, answer.errorCode);
    }
  }

  private async truncate(
    entry: Entry,
    partition: Partition,
    leaderEnd: { readonly epoch: number; readonly endOffset: number },
  ): Promise<void> {
    const decision = truncationFor(leaderEnd, {
      logEndOffset: partition.logEndOffset,
      fetchOffset: entry.state.fetchOffset,
      endOffsetForEpoch: (epoch) => partition.localEndOffsetForEpoch(epoch),
    });
    if (decision.offset < partition.logEndOffset) {
      this.ports.logger.info("follower truncates its log", {
        topicPartition: `${entry.topicPartition.topic}-${entry.topicPartition.partition}`,
        from: partition.logEndOffset,
        to: decision.offset,
        leaderEpoch: leaderEnd.epoch,
      });
      const failed = await this.change(entry, () => partition.truncateTo(decision.offset));
      if (failed !== undefined) {
        this.failPartition(entry, failed.errorCode);
        return;
      }
    }
    if (this.entries.get(partitionKey(entry.topicPartition)) !== entry) return;
    entry.state = afterTruncation(entry.state, decision, partition.latestEpoch);
  }

  /** A storage error takes the partition out of this fetcher; others back off. */
  private failPartition(entry: Entry, errorCode: number): void {
    if (errorCode === ErrorCode.KAFKA_STORAGE_ERROR) {
      this.entries.delete(partitionKey(entry.topicPartition));
      this.host.onPartitionFailed?.(entry.topicPartition, errorCode);
      return;
    }
    this.ports.logger.warn("follower could not apply fetched data; retrying after a backoff", {
      topicPartition: `${entry.topicPartition.topic}-${entry.topicPartition.partition}`,
      errorCode,
    });
    this.delayOne(entry);
  }

  private delayOne(entry: Entry): void {
    const at = { nowMs: this.ports.clock.monotonicMs(), backoffMs: this.settings.backoffMs };
    entry.state = delayed(entry.state, at);
  }

  private delayAll(keys: Iterable<string>): void {
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry !== undefined) this.delayOne(entry);
    }
  }

  /** How long until the first delayed partition may go again (the backoff when none waits). */
  private nextWakeMs(nowMs: number): number {
    let waitMs = this.settings.backoffMs;
    for (const { state } of this.entries.values()) {
      if (state.delayedUntilMs !== undefined) {
        waitMs = Math.min(waitMs, Math.max(0, state.delayedUntilMs - nowMs));
      }
    }
    return waitMs;
  }

  /** Waits `delayMs`, or less when partitions are added or the fetcher stops. */
  private async idle(delayMs: number): Promise<void> {
    let timer: Timer | undefined;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      timer = this.ports.timers.schedule(delayMs, resolve);
    });
    timer?.cancel();
    this.wake = undefined;
  }

  private wakeUp(): void {
    this.wake?.();
  }
}
