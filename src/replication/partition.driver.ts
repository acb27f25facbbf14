/**
 * One local replica (Kafka's Partition): the pure PartitionState joined to its PartitionLog.
 * It appends produced records as leader, serves reads to consumers (up to the high watermark)
 * and followers (up to the log end, recording their progress), answers ListOffsets,
 * OffsetForLeaderEpoch and DeleteRecords, sends ISR changes to the controller, and tells
 * listeners when records were appended or the high watermark moved, so that the broker's
 * purgatory can complete delayed produces and fetches. The high watermark goes to the log
 * manager for the replication-offset checkpoint as it moves.
 */
import { AssertionError, ErrorCode, type Uuid } from "../common/index.js";
import type { PartitionRegistration } from "../metadata/index.js";
import {
  isLogAppendError,
  isStorageFailure,
  type PartitionLog,
  type TopicPartition,
} from "../storage/index.js";
import {
  ALTER_PARTITION_ATTEMPTS_MAX,
  type AlterPartitionSender,
} from "./alter-partition-sender.js";
import type { AlterPartitionItem, AlterPartitionOutcome } from "./isr-state.js";
import type { PartitionConfig } from "./partition-config.js";
import { readRecords, type ReadRequest } from "./partition-read.driver.js";
import * as offsets from "./partition-offsets.driver.js";
import type {
  AppendOutcome,
  DeleteRecordsOutcome,
  EpochEndOffset,
  IsolationLevel,
  OffsetLookup,
  ReadOutcome,
} from "./partition-results.js";
import type { PartitionState, RoleChange } from "./partition-state.js";
import { validateProduceRecords } from "./produce-validation.js";
import type { AcksAllProgress } from "./request-checks.js";

/** What a partition driver is built from. */
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
  /** Called with an I/O error of the log; the replica manager takes the dir offline. */
  readonly onStorageFailure: (logDir: string, error: unknown) => void;
}

/** What an append told the listeners. */
export interface AppendedEvent {
  readonly lastOffset: number;
  readonly logEndOffset: number;
}

/** One local replica. */
export class Partition {
  private readonly highWatermarkListeners = new Set<(highWatermark: number) => void>();
  private readonly appendListeners = new Set<(event: AppendedEvent) => void>();
  private readonly inflight = new Set<Promise<void>>();

  constructor(readonly options: PartitionOptions) {}

  get topicPartition(): TopicPartition {
    return this.options.topicPartition;
  }
  get topicId(): Uuid {
    return this.options.topicId;
  }
  get log(): PartitionLog {
    return this.options.log;
  }
  get state(): PartitionState {
    return this.options.state;
  }
  get highWatermark(): number {
    return this.options.state.highWatermark;
  }

  /** Listens for high watermark moves; returns the function that stops listening. */
  onHighWatermarkChanged(listener: (highWatermark: number) => void): () => void {
    this.highWatermarkListeners.add(listener);
    return () => this.highWatermarkListeners.delete(listener);
  }

  /** Listens for appends to the local log; returns the function that stops listening. */
  onAppended(listener: (event: AppendedEvent) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Applies a registration naming this broker leader. */
  becomeLeader(registration: PartitionRegistration, nowMs: number): RoleChange {
    const localLogEndOffset = this.log.logEndOffset;
    const change = this.state.becomeLeader(registration, { nowMs, localLogEndOffset });
    if (change.kind === "changed" && change.highWatermarkChanged) this.publishHighWatermark();
    return change;
  }

  /** Applies a registration naming another broker leader. */
  becomeFollower(registration: PartitionRegistration): RoleChange {
    return this.state.becomeFollower(registration, { localLogEndOffset: this.log.logEndOffset });
  }

  /**
   * Validates and appends one partition's produced records as leader (Kafka's
   * appendRecordsToLeader). For acks=all the caller then waits on checkEnoughReplicasReachOffset.
   */
  async appendRecordsToLeader(
    records: Uint8Array,
    options: { readonly requiredAcks: number; readonly nowMs: number },
  ): Promise<AppendOutcome> {
    const refuse = (errorCode: number, errorMessage?: string): AppendOutcome => ({
      kind: "error",
      errorCode,
      ...(errorMessage === undefined ? {} : { errorMessage }),
      logStartOffset: this.state.logStartOffset,
      recordErrors: [],
    });
    const checked = this.state.checkAppend(options.requiredAcks);
    if (checked !== ErrorCode.NONE) return refuse(checked);
    const config = this.options.config();
    const validation = validateProduceRecords(records, produceRulesOf(config), options.nowMs);
    if (!validation.ok)
      return { kind: "error", ...validation, logStartOffset: this.state.logStartOffset };
    const leaderEpoch = this.state.leaderEpoch;
    let appended;
    try {
      appended = await this.log.appendAsLeader(validation.header.bytes, { leaderEpoch });
    } catch (error) {
      return refuse(this.errorCodeOf(error));
    }
    if (this.state.role.kind === "offline") return refuse(ErrorCode.KAFKA_STORAGE_ERROR);
    const logEndOffset = this.log.logEndOffset;
    if (this.state.recordLocalAppend(logEndOffset, options.nowMs)) this.publishHighWatermark();
    for (const listener of this.appendListeners)
      listener({ lastOffset: appended.lastOffset, logEndOffset });
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

  /** Reads for a consumer (replicaId -1) or a follower (see partition-read.driver.ts). */
  async readRecords(request: ReadRequest): Promise<ReadOutcome> {
    try {
      return await readRecords(this, request);
    } catch (error) {
      const errorCode = this.errorCodeOf(error);
      return { kind: "error", errorCode, highWatermark: -1, logStartOffset: -1 };
    }
  }

  /** ListOffsets for this partition (see partition-offsets.driver.ts). */
  async fetchOffsetForTimestamp(
    timestamp: number,
    options: {
      readonly isolation: IsolationLevel | undefined;
      readonly currentLeaderEpoch: number;
    },
  ): Promise<OffsetLookup> {
    try {
      return await offsets.fetchOffsetForTimestamp(this, timestamp, options);
    } catch (error) {
      return { kind: "error", errorCode: this.errorCodeOf(error) };
    }
  }

  /** OffsetForLeaderEpoch for this partition. */
  lastOffsetForLeaderEpoch(
    leaderEpoch: number,
    options: { readonly currentLeaderEpoch: number; readonly requireLeader: boolean },
  ): EpochEndOffset {
    return offsets.lastOffsetForLeaderEpoch(this, leaderEpoch, options);
  }

  /** DeleteRecords on the leader: moves the log start offset up to `offset` (-1: the HW). */
  async deleteRecordsOnLeader(offset: number): Promise<DeleteRecordsOutcome> {
    try {
      return await offsets.deleteRecordsOnLeader(this, offset);
    } catch (error) {
      return { kind: "error", errorCode: this.errorCodeOf(error) };
    }
  }

  /** Proposes an ISR shrink when members fell out of sync; the replica manager calls it. */
  maybeShrinkIsr(nowMs: number): boolean {
    const item = this.state.maybeShrinkIsr(nowMs);
    if (item !== undefined) this.submitAlterPartition(item, nowMs);
    return item !== undefined;
  }

  /** Sends an ISR expansion or shrink and applies the answer, retrying a bounded number. */
  submitAlterPartition(item: AlterPartitionItem, nowMs: number): void {
    const sending = this.sendAlterPartition(item, nowMs).finally(() =>
      this.inflight.delete(sending),
    );
    this.inflight.add(sending);
  }

  /** Resolves when no AlterPartition of this partition is in flight. */
  async whenIdle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  /** Tells listeners and the checkpoint that the high watermark moved. */
  publishHighWatermark(): void {
    const highWatermark = this.state.highWatermark;
    this.options.checkpointHighWatermark(highWatermark);
    for (const listener of this.highWatermarkListeners) listener(highWatermark);
  }

  /**
   * The error code for an error of the log: a refused input keeps its own; an I/O failure takes
   * the replica offline and is KAFKA_STORAGE_ERROR; anything else is a bug and goes on.
   */
  errorCodeOf(error: unknown): number {
    if (isLogAppendError(error)) return error.errorCode;
    if (!isStorageFailure(error)) throw error;
    this.state.becomeOffline();
    this.options.onStorageFailure(this.options.logDir, error);
    return ErrorCode.KAFKA_STORAGE_ERROR;
  }

  private async sendAlterPartition(item: AlterPartitionItem, nowMs: number): Promise<void> {
    for (let attempt = 1; attempt <= ALTER_PARTITION_ATTEMPTS_MAX; attempt++) {
      const outcome = await this.options.alterPartitionSender
        .submit(item)
        .catch((error: unknown): AlterPartitionOutcome => {
          // A sender that fails instead of answering counts as a lost request; bugs go on.
          if (error instanceof AssertionError) throw error;
          return { kind: "error", errorCode: ErrorCode.UNKNOWN_SERVER_ERROR };
        });
      const handled = this.state.handleAlterPartitionOutcome(item, outcome, nowMs);
      if (handled.highWatermarkChanged) this.publishHighWatermark();
      if (!handled.shouldRetry) return;
    }
  }
}

/** The produce rules of a topic's configs. */
function produceRulesOf(config: PartitionConfig): Parameters<typeof validateProduceRecords>[1] {
  return {
    maxMessageBytes: config.log.maxMessageBytes,
    messageTimestampType: config.log.messageTimestampType,
    messageTimestampBeforeMaxMs: config.messageTimestampBeforeMaxMs,
    messageTimestampAfterMaxMs: config.messageTimestampAfterMaxMs,
    isCompacted: config.log.cleanupPolicy.compact,
  };
}
