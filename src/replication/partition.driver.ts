/**
 * One local replica (Kafka's Partition). This file owns one state machine: the replica's role,
 * offsets and ISR (the pure PartitionState, see partition-role.ts for the roles and their
 * transitions) joined to its log, which only this class reads and writes.
 *
 * As leader it appends produced records, serves consumers up to the high watermark and followers
 * up to the log end (recording their progress, which may grow the ISR and move the high
 * watermark), answers ListOffsets, OffsetForLeaderEpoch and DeleteRecords, and proposes ISR
 * changes to the controller. As follower it appends the leader's batches with their offsets and
 * epochs, truncates where its log diverges, and takes the leader's high watermark bounded by its
 * own log end. Listeners hear of appends and high watermark moves, so that the broker's purgatory
 * completes delayed produces and fetches; the high watermark goes to the log manager for the
 * replication-offset checkpoint as it moves. An I/O error takes the replica offline.
 */
import { ErrorCode, type BrokerId, type Uuid } from "../common/index.js";
import type { PartitionRegistration } from "../metadata/index.js";
import {
  isLogAppendError,
  isResourceExhaustion,
  isStorageFailure,
  type ActiveProducer,
  type LogConfig,
  type LogOffsetMetadata,
  type PartitionLog,
  type TopicPartition,
} from "../storage/index.js";
import { submitWithRetries, type AlterPartitionSender } from "./alter-partition-sender.js";
import type { AlterPartitionItem, IsrChange } from "./isr-state.js";
import { endOffsetOnLeader } from "./leader-epoch-end.js";
import { produceRulesOf, type PartitionConfig } from "./partition-config.js";
import {
  consumerBound,
  divergedRead,
  lastStableOffsetOf,
  leaderAppendOf,
  type AppendOutcome,
  type AppendToLeaderOptions,
  type DeleteRecordsOutcome,
  type EpochEndOffset,
  type FollowerAppendOutcome,
  type OffsetLookup,
  type OffsetLookupOptions,
  type ReadOutcome,
  type ReadRequest,
} from "./partition-results.js";
import type { PartitionRole } from "./partition-role.js";
import type { PartitionState, RoleChange } from "./partition-state.js";
import { producerOutcome, validateProduceRecords } from "./produce-validation.js";
import { divergenceOf, type AcksAllProgress } from "./request-checks.js";
import type { FollowerReplicaState } from "./replica-state.js";
import { offsetForTimestamp } from "./partition-timestamps.driver.js";
import { PartitionLogAccess, type LogSwapResult } from "./partition-log-access.driver.js";

export interface PartitionOptions {
  readonly topicPartition: TopicPartition;
  readonly topicId: Uuid;
  readonly log: PartitionLog;
  /** The log dir holding the log, reported when an I/O error takes it offline. */
  readonly logDir: string;
  readonly state: PartitionState;
  /** The topic's current configs (they change with metadata). */
  readonly config: () => PartitionConfig;
  /** Records the high watermark for the checkpoint (LogManager.setHighWatermark). */
  readonly checkpointHighWatermark: (highWatermark: number) => void;
  readonly alterPartitionSender: AlterPartitionSender;
  readonly onIsrChange: (change: IsrChange) => void;
  /** Called with an I/O error of the log; the replica manager takes the dir offline. */
  readonly onStorageFailure: (logDir: string, error: unknown) => void;
}

/** What an append told the listeners. */
export interface AppendedEvent {
  readonly lastOffset: number;
  readonly logEndOffset: number;
}

type Failure = { readonly kind: "error"; readonly errorCode: number };

export class Partition {
  private readonly highWatermarkListeners = new Set<(highWatermark: number) => void>();
  private readonly appendListeners = new Set<(event: AppendedEvent) => void>();
  private readonly inflight = new Set<Promise<void>>();
  private readonly access: PartitionLogAccess;
  private readonly state: PartitionState;

  constructor(private readonly options: PartitionOptions) {
    this.access = new PartitionLogAccess(options.log, options.logDir);
    this.state = options.state;
  }

  /** The log now (a replica move may swap it; async work goes through `access.use`). */
  private get log(): PartitionLog {
    return this.access.current;
  }

  get topicPartition(): TopicPartition {
    return this.options.topicPartition;
  }
  get topicId(): Uuid {
    return this.options.topicId;
  }
  get logDir(): string {
    return this.access.logDir;
  }
  get role(): PartitionRole {
    return this.state.role;
  }
  get isLeader(): boolean {
    return this.state.isLeader;
  }
  get leaderEpoch(): number {
    return this.state.leaderEpoch;
  }
  get highWatermark(): number {
    return this.state.highWatermark;
  }
  get logStartOffset(): number {
    return this.state.logStartOffset;
  }
  get logEndOffset(): number {
    return this.log.logEndOffset;
  }
  /** Where the log ends, with the segment and byte position (delayed fetches measure bytes). */
  get logEndOffsetMetadata(): LogOffsetMetadata {
    return this.log.logEndOffsetMetadata;
  }
  /** The epoch of the last batch in the log, or undefined for a log without epochs. */
  get latestEpoch(): number | undefined {
    return this.log.latestEpoch;
  }
  /** The producers the log holds state for (DescribeProducers, on leaders and followers). */
  activeProducers(): ActiveProducer[] {
    return this.log.activeProducers();
  }
  /** The bytes the log holds on disk. */
  get sizeInBytes(): number {
    return this.log.size;
  }
  /** The committed ISR (empty unless leader). */
  get isr(): readonly BrokerId[] {
    return this.state.isr;
  }
  /** The ISR that counts for the high watermark and acks=all (empty unless leader). */
  get maximalIsr(): readonly BrokerId[] {
    return this.state.maximalIsr;
  }
  /** Whether the ISR is below the effective min.insync.replicas (Kafka's UnderMinIsr). */
  get isUnderMinIsr(): boolean {
    return this.state.isUnderMinIsr;
  }
  /** Whether the ISR is exactly at the effective min.insync.replicas (Kafka's AtMinIsr). */
  get isAtMinIsr(): boolean {
    return this.state.isAtMinIsr;
  }
  /** The leader's view of a follower, if this broker leads and `replicaId` follows. */
  followerState(replicaId: BrokerId): FollowerReplicaState | undefined {
    return this.state.followerState(replicaId);
  }

  onHighWatermarkChanged(listener: (highWatermark: number) => void): () => void {
    this.highWatermarkListeners.add(listener);
    return () => this.highWatermarkListeners.delete(listener);
  }

  onAppended(listener: (event: AppendedEvent) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /**
   * The epoch and leadership check of a request (see request-checks.ts): FENCED_LEADER_EPOCH,
   * UNKNOWN_LEADER_EPOCH, NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR or NONE.
   */
  checkLeaderEpoch(currentLeaderEpoch: number, options: { readonly requireLeader: boolean }) {
    return this.state.checkLeaderEpoch(currentLeaderEpoch, options);
  }

  /** Applies a registration naming this broker leader (Kafka's makeLeader). */
  becomeLeader(registration: PartitionRegistration, nowMs: number): RoleChange {
    const localLogEndOffset = this.log.logEndOffset;
    const change = this.state.becomeLeader(registration, { nowMs, localLogEndOffset });
    if (change.kind === "changed" && change.highWatermarkChanged) this.publishHighWatermark();
    return change;
  }

  /** Applies a registration naming another broker leader, or none (Kafka's makeFollower). */
  becomeFollower(registration: PartitionRegistration): RoleChange {
    return this.state.becomeFollower(registration, { localLogEndOffset: this.log.logEndOffset });
  }

  /** Applies a new `min.insync.replicas` (a topic config change). */
  updateMinInsyncReplicas(minInsyncReplicas: number): void {
    this.state.updateMinInsyncReplicas(minInsyncReplicas);
  }

  /** Gives the log the topic's new configs (Kafka's LogManager.updateTopicConfig). */
  updateLogConfig(config: LogConfig): void {
    this.log.updateConfig(config);
  }

  /** Takes the replica offline: its log's dir failed, or its replica is being removed. */
  becomeOffline(): void {
    this.state.becomeOffline();
  }

  /**
   * Validates and appends one partition's produced records as leader (Kafka's
   * appendRecordsToLeader). For acks=all the caller then waits on checkEnoughReplicasReachOffset.
   */
  async appendRecordsToLeader(
    records: Uint8Array,
    options: AppendToLeaderOptions,
  ): Promise<AppendOutcome> {
    const refuse = (errorCode: number, errorMessage?: string): AppendOutcome => ({
      ...{ kind: "error", errorCode, recordErrors: [] },
      ...(errorMessage === undefined ? {} : { errorMessage }),
      logStartOffset: this.state.logStartOffset,
    });
    const checked = this.state.checkAppend(options.requiredAcks);
    if (checked !== ErrorCode.NONE) return refuse(checked);
    const rules = produceRulesOf(this.options.config());
    const validation = validateProduceRecords(records, rules, options);
    if (!validation.ok)
      return { kind: "error", ...validation, logStartOffset: this.state.logStartOffset };
    const at = leaderAppendOf(options, this.state.leaderEpoch);
    let appended;
    try {
      appended = await this.access.use((log) => log.appendAsLeader(validation.header.bytes, at));
    } catch (error) {
      return producerOutcome(error, this.state.logStartOffset) ?? refuse(this.errorCodeOf(error));
    }
    if (this.state.role.kind === "offline") return refuse(ErrorCode.KAFKA_STORAGE_ERROR);
    this.afterAppend(appended.lastOffset, options.nowMs);
    return {
      kind: "appended",
      firstOffset: appended.firstOffset,
      lastOffset: appended.lastOffset,
      logAppendTime: appended.logAppendTime,
      logStartOffset: this.state.logStartOffset,
    };
  }

  /** Whether an acks=all append ending before `requiredOffset` is done (the purgatory asks). */
  checkEnoughReplicasReachOffset(requiredOffset: number): AcksAllProgress {
    return this.state.checkEnoughReplicasReachOffset(requiredOffset);
  }

  /**
   * Appends batches fetched from the leader of `fetchLeaderEpoch` with their offsets and epochs
   * (Kafka's appendRecordsToFollowerOrFutureReplica). Refused with NOT_LEADER_OR_FOLLOWER when
   * this replica no longer follows that epoch (the fetch was sent before a leader change), with
   * the log's error for batches that do not continue the log, and KAFKA_STORAGE_ERROR on I/O.
   */
  async appendRecordsAsFollower(
    records: Uint8Array,
    options: { readonly fetchLeaderEpoch: number; readonly nowMs: number },
  ): Promise<FollowerAppendOutcome> {
    if (!this.isFollowerOf(options.fetchLeaderEpoch)) {
      return { kind: "error", errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER };
    }
    let appended;
    try {
      appended = await this.access.use((log) => log.appendAsFollower(records));
    } catch (error) {
      return { kind: "error", errorCode: this.errorCodeOf(error) };
    }
    if (this.state.role.kind === "offline") {
      return { kind: "error", errorCode: ErrorCode.KAFKA_STORAGE_ERROR };
    }
    this.afterAppend(appended.lastOffset, options.nowMs);
    return {
      kind: "appended",
      lastOffset: appended.lastOffset,
      logEndOffset: this.log.logEndOffset,
      latestEpoch: this.log.latestEpoch,
    };
  }

  /**
   * A follower takes the leader's high watermark, bounded by its own log end, and moves its log
   * start offset up to the leader's (never past its high watermark), as Kafka's follower does
   * after each fetched partition.
   */
  async updateFollowerOffsets(leader: {
    readonly highWatermark: number;
    readonly logStartOffset: number;
  }): Promise<Failure | undefined> {
    if (this.state.role.kind !== "follower") return undefined;
    if (this.state.recordLeaderHighWatermark(leader.highWatermark)) this.publishHighWatermark();
    const logStartOffset = Math.min(leader.logStartOffset, this.state.highWatermark);
    if (logStartOffset <= this.log.logStartOffset) return undefined;
    try {
      await this.access.use((log) => log.maybeIncrementLogStartOffset(logStartOffset));
    } catch (error) {
      return { kind: "error", errorCode: this.errorCodeOf(error) };
    }
    this.state.recordLogStartOffset(this.log.logStartOffset);
    return undefined;
  }

  /** Removes the batches from the one holding `offset` on (a follower's divergence). */
  truncateTo(offset: number): Promise<Failure | undefined> {
    return this.truncation(() => this.log.truncateTo(offset));
  }

  /** Empties the log and restarts it at `offset` (a follower behind the leader's log start). */
  truncateFullyAndStartAt(offset: number): Promise<Failure | undefined> {
    return this.truncation(() => this.log.truncateFullyAndStartAt(offset));
  }

  private async truncation(work: () => Promise<unknown>): Promise<Failure | undefined> {
    try {
      await this.access.use(work);
    } catch (error) {
      return failure(this.errorCodeOf(error));
    }
    this.state.recordTruncation(this.log.logStartOffset, this.log.logEndOffset);
    // As Kafka's truncateTo: the checkpoint must not keep a high watermark the log lost.
    this.options.checkpointHighWatermark(this.state.highWatermark);
    return undefined;
  }

  /**
   * Where the largest epoch at most `epoch` ends in the local log (the follower's side of
   * KIP-101 truncation), or undefined when the log has no epoch that old.
   */
  localEndOffsetForEpoch(epoch: number): { epoch: number; endOffset: number } | undefined {
    const end = this.log.endOffsetForEpoch(epoch);
    return end.epoch < 0 || end.endOffset < 0 ? undefined : end;
  }

  /**
   * Reads for a consumer (replica id -1, up to the high watermark, or the last stable offset for
   * read_committed, which equals it until transactions exist; on a follower too unless
   * `fetchOnlyLeader`, KIP-392) or a follower (up to the log end, then its fetch offset is
   * recorded). Any fetcher that sends its last fetched epoch (Fetch
   * v12+) is first checked for divergence (KIP-320, KIP-595), consumers too, as Kafka's
   * readRecords does. The records are the log's whole batches, as their bytes.
   */
  async readRecords(request: ReadRequest): Promise<ReadOutcome> {
    try {
      return await this.access.use(() => this.read(request));
    } catch (error) {
      const errorCode = this.errorCodeOf(error);
      return { kind: "error", errorCode, highWatermark: -1, logStartOffset: -1 };
    }
  }

  /**
   * Reads the local log from `fromOffset` up to `maxOffset` as whole batches, whatever the role:
   * a coordinator loading its state from the partition it now leads.
   */
  async readLocal(options: {
    readonly fromOffset: number;
    readonly maxOffset: number;
    readonly maxBytes: number;
  }): Promise<
    | { readonly kind: "records"; readonly records: Uint8Array[]; readonly nextOffset: number }
    | Failure
  > {
    try {
      return await this.access.use(async (log) => {
        const read = await log.read({ ...options, minOneBatch: true });
        if (read.kind === "offsetOutOfRange") return failure(ErrorCode.OFFSET_OUT_OF_RANGE);
        const records: Uint8Array[] = [];
        for (const slice of read.slices) records.push(await log.readBytes(slice));
        return { kind: "records", records, nextOffset: read.nextOffset };
      });
    } catch (error) {
      return failure(this.errorCodeOf(error));
    }
  }

  /**
   * ListOffsets of a timestamp, -1 latest, -2 earliest and the other special ones
   * (partition-timestamps.driver.ts). A client's lookup fails with OFFSET_NOT_AVAILABLE while a
   * new leader's high watermark is below its epoch start offset (KIP-207), and finds nothing at
   * or past the last fetchable offset.
   */
  async fetchOffsetForTimestamp(
    timestamp: number,
    options: OffsetLookupOptions,
  ): Promise<OffsetLookup> {
    try {
      return await this.access.use((log) =>
        offsetForTimestamp(this.state, log, timestamp, options),
      );
    } catch (error) {
      return { kind: "error", errorCode: this.errorCodeOf(error) };
    }
  }

  /**
   * OffsetForLeaderEpoch: the largest epoch at most `leaderEpoch` in the log and where it ends.
   * A leader that has not yet appended in its epoch answers as if its epoch started at the log
   * end offset, where Kafka's leader records the epoch's start at election (leader-epoch-end.ts).
   */
  lastOffsetForLeaderEpoch(
    leaderEpoch: number,
    options: { readonly currentLeaderEpoch: number; readonly requireLeader: boolean },
  ): EpochEndOffset {
    const checked = this.state.checkLeaderEpoch(options.currentLeaderEpoch, options);
    if (checked !== ErrorCode.NONE) return { errorCode: checked, leaderEpoch: -1, endOffset: -1 };
    const log = this.log;
    const end = this.state.isLeader
      ? endOffsetOnLeader(leaderEpoch, {
          leaderEpoch: this.state.leaderEpoch,
          latestEpoch: log.latestEpoch ?? -1,
          logEndOffset: log.logEndOffset,
          endOffsetForEpoch: (epoch) => log.endOffsetForEpoch(epoch),
        })
      : log.endOffsetForEpoch(leaderEpoch);
    return { errorCode: ErrorCode.NONE, leaderEpoch: end.epoch, endOffset: end.endOffset };
  }

  /**
   * DeleteRecords: moves the log start offset up to `offset` (-1: the high watermark), never past
   * the high watermark (OFFSET_OUT_OF_RANGE), and only where `cleanup.policy` includes delete
   * (POLICY_VIOLATION). Answers the low watermark: the smallest log start offset of the replicas.
   */
  async deleteRecordsOnLeader(offset: number): Promise<DeleteRecordsOutcome> {
    const state = this.state;
    if (state.role.kind === "offline") return failure(ErrorCode.KAFKA_STORAGE_ERROR);
    if (!state.isLeader) return failure(ErrorCode.NOT_LEADER_OR_FOLLOWER);
    if (!this.options.config().log.cleanupPolicy.delete) {
      return failure(ErrorCode.POLICY_VIOLATION);
    }
    const requested = offset === -1 ? state.highWatermark : offset;
    if (requested < 0 || requested > state.highWatermark) {
      return failure(ErrorCode.OFFSET_OUT_OF_RANGE);
    }
    try {
      await this.access.use((log) => log.maybeIncrementLogStartOffset(requested));
    } catch (error) {
      return failure(this.errorCodeOf(error));
    }
    state.recordLogStartOffset(this.log.logStartOffset);
    return { kind: "deleted", lowWatermark: state.lowWatermark };
  }

  /** Proposes an ISR shrink when members fell out of sync; the replica manager calls it. */
  maybeShrinkIsr(nowMs: number): boolean {
    const item = this.state.maybeShrinkIsr(nowMs);
    if (item !== undefined) this.submitAlterPartition(item, nowMs);
    return item !== undefined;
  }

  /**
   * Swaps the log for the one a replica move made in another dir (Kafka's
   * maybeReplaceCurrentWithFutureReplica): `swap` runs while no append, read or truncation is
   * under way, and none starts until it is done.
   */
  replaceLog(swap: (log: PartitionLog) => Promise<LogSwapResult>): Promise<LogSwapResult> {
    return this.access.replace(swap);
  }

  /** Resolves when no AlterPartition of this partition is in flight. */
  async whenIdle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  /** The aborted transactions a read_committed read overlaps (Kafka's collectAbortedTxns). */
  private abortedIn(fetchOffset: number, read: { readonly nextOffset: number }) {
    return this.log.transactionIndex.collect(fetchOffset, read.nextOffset);
  }

  private isFollowerOf(leaderEpoch: number): boolean {
    const role = this.state.role;
    return role.kind === "follower" && role.leaderEpoch === leaderEpoch;
  }

  private afterAppend(lastOffset: number, nowMs: number): void {
    const logEndOffset = this.log.logEndOffset;
    if (this.state.recordLocalAppend(logEndOffset, nowMs)) this.publishHighWatermark();
    for (const listener of this.appendListeners) listener({ lastOffset, logEndOffset });
  }

  private async read(request: ReadRequest): Promise<ReadOutcome> {
    const state = this.state;
    const isFollower = request.replicaId >= 0;
    const refuse = (errorCode: number): ReadOutcome => ({
      kind: "error",
      errorCode,
      highWatermark: state.highWatermark,
      logStartOffset: state.logStartOffset,
    });
    const requireLeader = request.fetchOnlyLeader;
    const checked = state.checkLeaderEpoch(request.currentLeaderEpoch, { requireLeader });
    if (checked !== ErrorCode.NONE) return refuse(checked);
    if (isFollower && state.followerState(request.replicaId as BrokerId) === undefined) {
      // A replica not (yet) in the assignment: with an epoch the pair is unknown to us, so the
      // follower retries; without one we cannot tell who is stale (Kafka's rule).
      const hasEpoch = request.currentLeaderEpoch >= 0;
      return refuse(hasEpoch ? ErrorCode.UNKNOWN_LEADER_EPOCH : ErrorCode.NOT_LEADER_OR_FOLLOWER);
    }
    // The offsets before the read, so that appends during it do not keep a follower out of sync.
    const before = {
      highWatermark: state.highWatermark,
      logStartOffset: this.log.logStartOffset,
      logEndOffset: this.log.logEndOffset,
      lastStableOffset: lastStableOffsetOf(state.highWatermark, this.log.transactions),
    };
    if (request.lastFetchedEpoch >= 0) {
      const end = this.lastOffsetForLeaderEpoch(request.lastFetchedEpoch, {
        currentLeaderEpoch: request.currentLeaderEpoch,
        requireLeader: false,
      });
      const diverging = divergenceOf(end, request, before.logStartOffset);
      if (diverging.kind === "error") return refuse(diverging.errorCode);
      if (diverging.epoch !== undefined) return divergedRead(before, diverging.epoch);
    }
    const isCommitted = !isFollower && request.isolation === "read_committed";
    const maxOffset = isFollower ? before.logEndOffset : consumerBound(before, isCommitted);
    const read = await this.log.read({
      fromOffset: request.fetchOffset,
      maxBytes: request.maxBytes,
      maxOffset,
      minOneBatch: request.minOneBatch,
    });
    if (read.kind === "offsetOutOfRange") return refuse(ErrorCode.OFFSET_OUT_OF_RANGE);
    const records: Uint8Array[] = [];
    for (const slice of read.slices) records.push(await this.log.readBytes(slice));
    if (isFollower) this.recordFollowerFetch(request, before.logEndOffset);
    return {
      kind: "records",
      records,
      sizeInBytes: read.sizeInBytes,
      ...before,
      divergingEpoch: undefined,
      ...(isCommitted && { abortedTransactions: this.abortedIn(request.fetchOffset, read) }),
    };
  }

  /** Records a follower's fetch, sending an ISR expansion and publishing a moved HW. */
  private recordFollowerFetch(request: ReadRequest, leaderEndOffset: number): void {
    const update = this.state.updateFollowerFetchState(request.replicaId as BrokerId, {
      fetchOffset: request.fetchOffset,
      logStartOffset: request.logStartOffset,
      fetchTimeMs: request.nowMs,
      leaderEndOffset,
      brokerEpoch: request.brokerEpoch,
    });
    if (update.kind !== "updated") return;
    if (update.alterPartition !== undefined) {
      this.submitAlterPartition(update.alterPartition, request.nowMs);
    }
    if (update.highWatermarkChanged) this.publishHighWatermark();
  }

  /** Sends an ISR expansion or shrink and applies the answer, retrying a bounded number. */
  private submitAlterPartition(item: AlterPartitionItem, nowMs: number): void {
    const sending = submitWithRetries(this.options.alterPartitionSender, item, (outcome) => {
      const handled = this.state.handleAlterPartitionOutcome(item, outcome, nowMs);
      if (handled.isrChange !== undefined) this.options.onIsrChange(handled.isrChange);
      if (handled.highWatermarkChanged) this.publishHighWatermark();
      return handled.shouldRetry;
    }).finally(() => this.inflight.delete(sending));
    this.inflight.add(sending);
  }

  private publishHighWatermark(): void {
    const highWatermark = this.state.highWatermark;
    this.log.transactions.onHighWatermarkUpdated(highWatermark);
    this.options.checkpointHighWatermark(highWatermark);
    for (const listener of this.highWatermarkListeners) listener(highWatermark);
  }

  /**
   * The error code for an error of the log: a refused input keeps its own; out of descriptors,
   * UNKNOWN_SERVER_ERROR (see producerOutcome); an I/O failure takes the replica offline and is
   * KAFKA_STORAGE_ERROR; anything else is a bug and goes on.
   */
  private errorCodeOf(error: unknown): number {
    if (isLogAppendError(error)) return error.errorCode;
    if (isResourceExhaustion(error)) return ErrorCode.UNKNOWN_SERVER_ERROR;
    if (!isStorageFailure(error)) throw error;
    this.state.becomeOffline();
    this.options.onStorageFailure(this.access.logDir, error);
    return ErrorCode.KAFKA_STORAGE_ERROR;
  }
}

function failure(errorCode: number): Failure {
  return { kind: "error", errorCode };
}
